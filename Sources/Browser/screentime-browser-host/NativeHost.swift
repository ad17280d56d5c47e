import FoundationEssentials
import Glibc
import ScreenTimeCore
import SystemErrors

/// One loop over the browser's pipe and the session bus. Every message from the browser gets
/// either its effect or an `{"type": "error"}` answer saying what was wrong with it; nothing the
/// browser sends stops the host. It ends when the browser closes the pipe.
final class NativeHost {
    private var pipe = BrowserPipe()
    private let agent: AgentLink
    /// The tab each site was last reported in, so a restriction reaches the tab showing it.
    private var tabOfSite: [String: Int] = [:]
    private var browserGone = false

    init(environment: [String: String], browserPID: UInt32) {
        agent = AgentLink(environment: environment, browserPID: browserPID)
        agent.onRestrict = { [unowned self] site, card in
            send(Outgoing(type: "restrict", site: site, tab: tabOfSite[site], card: card))
        }
        agent.onAllow = { [unowned self] site in send(Outgoing(type: "allow", site: site)) }
        agent.onAgent = { [unowned self] present in send(Outgoing(type: "agent", connected: present)) }
    }

    func run() -> Int32 {
        agent.connect()
        while !browserGone {
            var entries = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0)]
            if let connection = agent.connection {
                entries.append(pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN) | (connection.hasPendingOutput ? Int16(POLLOUT) : 0), revents: 0))
            }
            let timeout = agent.reconnectAt.map { max(0, Int32(clamping: ContinuousClock.now.duration(to: $0).milliseconds)) } ?? 1000
            do { _ = try retryingInterrupts { poll(&entries, nfds_t(entries.count), timeout) } } catch {
                logLine("poll failed: \(error)")
                return 1
            }
            if entries[0].revents != 0 { readBrowser() }
            agent.dispatch()
            if agent.connection == nil, let at = agent.reconnectAt, at <= .now { agent.connect() }
        }
        agent.gone()
        return 0
    }

    private func readBrowser() {
        switch pipe.read() {
        case .closed:
            browserGone = true
        case .items(let items):
            for item in items {
                switch item {
                case .refused(let reason): refuse(reason)
                case .message(let bytes): handle(bytes)
                }
            }
        }
    }

    private func handle(_ bytes: [UInt8]) {
        let message: BrowserMessage
        do { message = try BrowserMessage(json: bytes) } catch { return refuse(error.message) }
        switch message {
        case .hello(let browser):
            agent.hello(browser: browser)
            send(Outgoing(type: "agent", connected: agent.agentPresent))
        case .tab(let tab):
            if let site = tab.site, tab.tab >= 0 {
                if tabOfSite.count > 512 { tabOfSite.removeAll() }
                tabOfSite[site.domain] = tab.tab
            }
            agent.tab(tab)
        case .choice(let tab, let site, let choice):
            tabOfSite[site.domain] = tab
            agent.choice(site: site, choice: choice) { [unowned self] result in
                switch result {
                case .success(let granted): send(Outgoing(type: "chosen", site: site.domain, tab: tab, granted: granted))
                case .failure(let error): refuse("the agent did not take the choice: \(error)")
                }
            }
        }
    }

    private func refuse(_ reason: String) {
        send(Outgoing(type: "error", message: reason))
    }

    private func send(_ message: Outgoing) {
        guard let json = try? JSONEncoder().encode(message), pipe.send(String(decoding: json, as: UTF8.self)) else {
            browserGone = true
            return
        }
    }
}

/// A message for the extension.
struct Outgoing: Encodable {
    var type: String
    var site: String?
    var tab: Int?
    /// `restrict`: the card to show (JSON, as the agent made it).
    var card: String?
    var granted: Double?
    var connected: Bool?
    var message: String?
}

extension Duration {
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
