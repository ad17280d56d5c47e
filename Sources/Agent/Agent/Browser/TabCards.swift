import ChildProcesses
import FoundationEssentials
import Glibc
import Logging
import ScreenTimeCore

/// The in-tab card's full content, composed by `screentime-card --json` (which reads the user's
/// calendars, to-dos and config, as the desktop card does) while the agent's quick card already
/// covers the tab. At most one composition per site; a site allowed meanwhile drops its own.
final class TabCards {
    struct Composed {
        let browser: UInt32
        let card: SiteCard
    }

    private struct Pending {
        let browser: UInt32
        let site: AppID
        let child: ChildProcess
    }

    private let executable: String
    private let environment: [String: String]
    private var pending: [Pending] = []
    /// What a card process takes at most: its document is read from the user's files.
    static let timeout: TimeInterval = 10

    init(executable: String, environment: [String: String]) {
        self.executable = executable
        self.environment = environment
    }

    func compose(_ request: CardRequest, site: AppID, browser: UInt32, now: Date) {
        drop(site)
        // Without the card beside the agent the quick card stays (the desktop's cards say why, once).
        guard access(executable, X_OK) == 0 else { return }
        do {
            let json = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
            let child = try ChildProcess(executable, ["--id", "tab", "--request", json, "--json"], environment: environment,
                                         timeout: Self.timeout, now: now, outputLimit: 1 << 16)
            pending.append(Pending(browser: browser, site: site, child: child))
        } catch {
            Log.warning("the in-tab card of \(site) keeps the agent's words: \(error)")
        }
    }

    /// The site was allowed: a composition still running would cover it again.
    func drop(_ site: AppID) {
        pending.removeAll { entry in
            guard entry.site == site else { return false }
            entry.child.stop()
            return true
        }
    }

    func forEachDescriptor(_ body: (Int32) -> Void) {
        for entry in pending where entry.child.fileDescriptor >= 0 { body(entry.child.fileDescriptor) }
    }

    /// The soonest a composition is given up.
    var nextDeadline: Date? { pending.lazy.map(\.child.deadline).min() }

    /// The compositions that ended (read, or given up at their deadline): the cards composed.
    func collect(now: Date) -> [Composed] {
        var composed: [Composed] = []
        pending.removeAll { entry in
            let status: Int32?
            do { status = try entry.child.readAvailable() } catch {
                Log.warning("the in-tab card of \(entry.site): \(error)")
                return true
            }
            guard let status else {
                guard now >= entry.child.deadline else { return false }
                entry.child.stop()
                Log.warning("the in-tab card of \(entry.site) took longer than \(Int(Self.timeout)) s; the agent's words stay")
                return true
            }
            do {
                guard status == 0 else { throw ChildProcess.Failure(description: "exit status \(status)") }
                let document = try JSONDecoder().decode(CardDocument.self, from: Data(entry.child.output))
                composed.append(Composed(browser: entry.browser, card: SiteCard(document: document, site: entry.site)))
            } catch {
                Log.warning("the in-tab card of \(entry.site) keeps the agent's words: \(error)")
            }
            return true
        }
        return composed
    }
}
