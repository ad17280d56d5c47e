import FoundationEssentials
import ScreenTimeCore
import UnixSocket

/// Focus and minimize on Hyprland: events from `.socket2.sock` (one line each), requests on
/// `.socket.sock`, one short connection per request as Hyprland wants (it answers and closes).
/// Minimizing moves the windows to the special workspace `screentime` without focusing it;
/// the user showing it again is a focus event, and the agent disables the app again.
public final class HyprlandProvider: FocusProvider, WindowMinimizer, DesktopConnection {
    public let providerName = "Hyprland IPC"
    public var onFocus: ((FocusEvent) -> Void)?
    public var needsTitle: (WindowFacts) -> Bool = { _ in false }

    /// The special workspace minimized windows go to.
    public static let hiddenWorkspace = "special:screentime"

    private let events: UnixSocket
    private let requestPath: String
    private var input: [UInt8] = []
    private let decoder = JSONDecoder()

    private var table = WindowTable()
    /// `activewindow>>`'s title, for the `activewindowv2>>` that follows it.
    private var activeTitle: (class: String, title: String)?
    /// Requests sent and not yet answered, read when they are (Hyprland answers at once).
    private var pending: [PendingRequest] = []
    /// Hyprland answers at once: its answers are read this soon after a request.
    private static let readInterval: TimeInterval = 0.02
    /// When the answers are read next: a fixed date, so a loop asking again does not push it away.
    private var nextRead: Date?

    private struct PendingRequest {
        let socket: UnixSocket
        var reply: [UInt8]
        let givenUpAt: Date
        let onReply: (([UInt8]) -> Void)?
    }

    public enum Failure: Error, CustomStringConvertible {
        case noInstance
        case badReply(String, String)
        public var description: String {
            switch self {
            case .noInstance: return "HYPRLAND_INSTANCE_SIGNATURE is not set: not a Hyprland session"
            case .badReply(let request, let reply): return "Hyprland answered \(request) with \(reply.prefix(200))"
            }
        }
    }

    /// The instance's socket folder: `$XDG_RUNTIME_DIR/hypr/SIGNATURE` (Hyprland 0.40 on), where
    /// its event socket is; else `/tmp/hypr/SIGNATURE` (older).
    static func socketFolders(_ environment: [String: String]) -> [String] {
        guard let signature = environment["HYPRLAND_INSTANCE_SIGNATURE"], !signature.isEmpty else { return [] }
        return (environment["XDG_RUNTIME_DIR"].map { ["\($0)/hypr/\(signature)"] } ?? []) + ["/tmp/hypr/\(signature)"]
    }

    /// The loop's instant, for the deadlines of requests sent from a callback.
    private let now: () -> Date

    /// Connects to the event socket and reads the windows and the focused one (two requests,
    /// waited for at most `timeout` each).
    public init(environment: [String: String], timeout: Duration = .seconds(2), now: @escaping () -> Date) throws {
        self.now = now
        guard let (events, folder) = try Self.connectEvents(in: Self.socketFolders(environment)) else {
            throw Failure.noInstance
        }
        self.events = events
        requestPath = "\(folder)/.socket.sock"
        let clients = try request("j/clients", waiting: timeout)
        do {
            for client in try decoder.decode([HyprlandClient].self, from: Data(clients)) where client.mapped != false {
                guard let id = client.id else { continue }
                table.entries[id] = WindowTable.Entry(facts: client.facts(id: id), title: client.title ?? "")
            }
        } catch {
            throw Failure.badReply("j/clients", String(decoding: clients, as: UTF8.self))
        }
        let active = try request("j/activewindow", waiting: timeout)
        // `{}` when nothing has focus.
        table.focused = (try? decoder.decode(HyprlandClient.self, from: Data(active)))?.id
    }

    /// The event socket in the first folder that has one; the first folder's error when none
    /// does; nil without folders.
    private static func connectEvents(in folders: [String]) throws -> (UnixSocket, String)? {
        var firstError: Error?
        for folder in folders {
            do {
                return (try UnixSocket(path: "\(folder)/.socket2.sock"), folder)
            } catch {
                firstError = firstError ?? error
            }
        }
        if let firstError { throw firstError }
        return nil
    }

    deinit { close() }

    // MARK: - FocusProvider

    public func currentFocus() throws -> WindowFacts? {
        table.currentFocus(needsTitle: needsTitle)
    }

    public func titleRulesChanged() { reportFocus() }

    // MARK: - WindowMinimizer

    public func minimize(_ app: AppID, identify: @escaping (WindowFacts) -> AppID) throws {
        let ids = table.windows(of: app, identify: identify, needsTitle: needsTitle)
        guard !ids.isEmpty else { return }
        let commands = ids.map { "dispatch movetoworkspacesilent \(Self.hiddenWorkspace),address:0x\(String($0, radix: 16))" }
        try send("[[BATCH]]" + commands.joined(separator: ";"), now: now(), onReply: nil)
    }

    // MARK: - DesktopConnection

    public var pollDescriptor: Int32 { events.descriptor }
    public var wantsToWrite: Bool { false }
    public var hasBufferedInput: Bool { false }

    public func handleReadable() throws {
        let open = try events.readAvailable(into: &input)
        var start = input.startIndex
        while let newline = input[start...].firstIndex(of: UInt8(ascii: "\n")) {
            let line = String(decoding: input[start..<newline], as: UTF8.self)
            start = newline + 1
            if let event = HyprlandEvent(line: Substring(line)) { handle(event) }
        }
        input.removeFirst(start - input.startIndex)
        guard open else { throw UnixSocketError.closed(path: events.path) }
    }

    /// While a request's answer is awaited: Hyprland answers at once, so soon.
    public func nextDeadline(after now: Date) -> Date? {
        nextRead
    }

    public func handleDeadline(now: Date) throws {
        nextRead = nil
        pending = try pending.compactMap { request in
            var request = request
            let open = try request.socket.readAvailable(into: &request.reply)
            if open && now < request.givenUpAt {
                nextRead = now.addingTimeInterval(Self.readInterval)
                return request
            }
            request.socket.close()
            if !open { request.onReply?(request.reply) }
            return nil
        }
    }

    public func close() {
        events.close()
        for request in pending { request.socket.close() }
        pending.removeAll()
        nextRead = nil
    }

    // MARK: - Events

    private func handle(_ event: HyprlandEvent) {
        switch event {
        case .openWindow(let id, let windowClass, let title):
            table.entries[id] = WindowTable.Entry(facts: .wayland(window: WindowID(id), appID: windowClass, pid: nil, title: ""), title: title)
            // The event has no pid: the window list has it.
            try? send("j/clients", now: now()) { [weak self] reply in self?.learnPids(from: reply) }
        case .closeWindow(let id):
            table.entries[id] = nil
        case .windowTitle(let id, let title):
            table.entries[id]?.title = title
            if id == table.focused { reportFocus() }
        case .activeWindow(let windowClass, let title):
            activeTitle = (windowClass, title)
        case .activeWindowAddress(let id):
            if let id, let active = activeTitle {
                let known = table.entries[id] ?? WindowTable.Entry(
                    facts: .wayland(window: WindowID(id), appID: active.class, pid: nil, title: ""), title: active.title)
                // A class the window no longer has: an announcement that crossed another.
                if known.facts.wmClass == active.class { table.entries[id] = WindowTable.Entry(facts: known.facts, title: active.title) }
            }
            activeTitle = nil
            table.focused = id
            reportFocus()
        }
    }

    private func learnPids(from reply: [UInt8]) {
        guard let clients = try? decoder.decode([HyprlandClient].self, from: Data(reply)) else { return }
        for client in clients {
            guard let id = client.id, table.entries[id]?.facts.pid == nil, client.pid != nil else { continue }
            table.entries[id]?.facts = client.facts(id: id)
        }
    }

    private func reportFocus() {
        if let event = table.focusChange(needsTitle: needsTitle) { onFocus?(event) }
    }

    // MARK: - Requests

    /// One request on its own connection, answered later (`handleDeadline`).
    private func send(_ text: String, now: Date, onReply: (([UInt8]) -> Void)?) throws {
        let socket = try UnixSocket(path: requestPath)
        let bytes = Array(text.utf8)
        guard try socket.writeAvailable(bytes[...]) == bytes.count else {
            throw Failure.badReply(text, "(the request did not fit the socket)")
        }
        pending.append(PendingRequest(socket: socket, reply: [], givenUpAt: now.addingTimeInterval(2), onReply: onReply))
        nextRead = min(nextRead ?? .distantFuture, now.addingTimeInterval(Self.readInterval))
    }

    /// One request waited for: only while connecting.
    private func request(_ text: String, waiting timeout: Duration) throws -> [UInt8] {
        let socket = try UnixSocket(path: requestPath)
        defer { socket.close() }
        let bytes = Array(text.utf8)
        guard try socket.writeAvailable(bytes[...]) == bytes.count else {
            throw Failure.badReply(text, "(the request did not fit the socket)")
        }
        var reply: [UInt8] = []
        repeat { try socket.wait(for: timeout) } while try socket.readAvailable(into: &reply)
        return reply
    }
}
