import FoundationEssentials
import ScreenTimeCore
import UnixSocket

/// Focus and minimize over the i3 IPC socket (`SWAYSOCK`, else `I3SOCK`): sway on Wayland, i3 on
/// X11 (which ignores iconify requests). One connection: `window` events in, `move scratchpad`
/// commands out, their replies read as they come. The window table is seeded by one GET_TREE at
/// connect and kept from events, so minimizing needs no round trip.
public final class I3IPCProvider: FocusProvider, WindowMinimizer, DesktopConnection {
    public let providerName: String
    public var onFocus: ((FocusEvent) -> Void)?
    public var needsTitle: (WindowFacts) -> Bool = { _ in false }

    private let socket: UnixSocket
    private var parser = I3IPCFrameParser()
    private var output: [UInt8] = []
    /// What each reply still to come answers, in order.
    private var awaiting: [I3IPCMessageType] = []
    /// Events read while connecting, handled at the first `handleReadable`.
    private var early: [I3IPCFrame] = []
    private let decoder = JSONDecoder()

    /// Identity facts are read once per window (/proc is read for them).
    private var table = WindowTable()
    /// A GET_TREE asked because focus may have left every window without an event saying so.
    private var treeAsked = false

    public enum Failure: Error, CustomStringConvertible {
        case noSocket
        case unexpectedReply(String)
        public var description: String {
            switch self {
            case .noSocket: return "neither SWAYSOCK nor I3SOCK is set: not a sway or i3 session"
            case .unexpectedReply(let what): return "the i3 IPC answered \(what)"
            }
        }
    }

    /// Connects to the socket `environment` names, subscribes to window events and reads the
    /// tree; blocks at most `timeout` for the answers.
    public init(environment: [String: String], timeout: Duration = .seconds(2)) throws {
        let sway = !(environment["SWAYSOCK"] ?? "").isEmpty
        guard let path = sway ? environment["SWAYSOCK"] : environment["I3SOCK"].flatMap({ $0.isEmpty ? nil : $0 }) else {
            throw Failure.noSocket
        }
        providerName = sway ? "sway IPC" : "i3 IPC"
        socket = try UnixSocket(path: path)
        // Subscribing first: a change after the tree was taken arrives as an event after it.
        send(.subscribe, #"["window"]"#)
        send(.getTree)
        while true {
            try flush()
            try socket.wait(for: timeout, writing: !output.isEmpty)
            guard try readSocket() else { throw UnixSocketError.closed(path: path) }
            while let frame = try parser.next() {
                if frame.isEvent {
                    early.append(frame)
                } else if awaiting.isEmpty {
                    throw Failure.unexpectedReply("a reply to nothing asked")
                } else if awaiting.removeFirst() == .getTree {
                    seed(from: try decoder.decode(I3Node.self, from: Data(frame.payload)))
                    return
                } else if try !decoder.decode([String: Bool].self, from: Data(frame.payload)).values.allSatisfy({ $0 }) {
                    throw Failure.unexpectedReply("no to SUBSCRIBE [\"window\"]")
                }
            }
        }
    }

    deinit { close() }

    // MARK: - FocusProvider

    /// From the table: the tree read at connect and the events since.
    public func currentFocus() throws -> WindowFacts? {
        table.currentFocus(needsTitle: needsTitle)
    }

    /// Reports the focused window's title as a change when it is now needed, or no longer.
    public func titleRulesChanged() {
        reportFocus()
    }

    // MARK: - WindowMinimizer

    public func minimize(_ app: AppID, identify: @escaping (WindowFacts) -> AppID) throws {
        let ids = table.windows(of: app, identify: identify, needsTitle: needsTitle)
        guard !ids.isEmpty else { return }
        send(.runCommand, ids.map { "[con_id=\($0)] move scratchpad" }.joined(separator: "; "))
        try flush()
    }

    // MARK: - DesktopConnection

    public var pollDescriptor: Int32 { socket.descriptor }
    public var wantsToWrite: Bool { !output.isEmpty }
    public var hasBufferedInput: Bool { !early.isEmpty || parser.hasFrame }

    public func handleReadable() throws {
        try flush()
        let open = try readSocket()
        for frame in early { try handle(frame) }
        early.removeAll()
        while let frame = try parser.next() { try handle(frame) }
        guard open else { throw UnixSocketError.closed(path: socket.path) }
    }

    public func nextDeadline(after now: Date) -> Date? { nil }
    public func handleDeadline(now: Date) throws {}

    public func close() { socket.close() }

    // MARK: - Events and replies

    private func handle(_ frame: I3IPCFrame) throws {
        guard !frame.isEvent else {
            if frame.type == I3IPCMessageType.windowEvent.rawValue {
                windowEvent(try decoder.decode(I3WindowEvent.self, from: Data(frame.payload)))
            }
            return
        }
        guard !awaiting.isEmpty else { throw Failure.unexpectedReply("a reply to nothing asked") }
        // Command replies are not errors to act on: a window may have closed meanwhile.
        if awaiting.removeFirst() == .getTree {
            treeAsked = false
            let tree = try decoder.decode(I3Node.self, from: Data(frame.payload))
            seed(from: tree)
            reportFocus()
        }
    }

    private func windowEvent(_ event: I3WindowEvent) {
        let node = event.container
        guard node.isWindow else { return }
        switch event.change {
        case "close":
            table.entries[node.id] = nil
            if node.id == table.focused { focusMayHaveLeft() }
        case "focus":
            remember(node)
            table.focused = node.id
            reportFocus()
        case "title":
            remember(node)
            if node.id == table.focused { reportFocus() }
        case "move":
            remember(node)
            // Moved to the scratchpad or another workspace: sway focuses what is left, or nothing
            // (an empty workspace), which no window event tells.
            if node.id == table.focused { focusMayHaveLeft() }
        default:
            remember(node)
        }
    }

    private func focusMayHaveLeft() {
        guard !treeAsked else { return }
        treeAsked = true
        send(.getTree)
        try? flush()
    }

    private func remember(_ node: I3Node) {
        table.entries[node.id] = updated(table.entries[node.id], from: node)
    }

    /// The known window with the node's title; its facts read again only when its identity changed.
    private func updated(_ known: WindowTable.Entry?, from node: I3Node) -> WindowTable.Entry {
        let title = node.name ?? ""
        guard var known, known.facts.pid == node.pid.flatMap({ $0 > 0 ? $0 : nil }),
              known.facts.wmClass == (node.app_id ?? node.window_properties?.class) else {
            return WindowTable.Entry(facts: node.facts(title: nil), title: title)
        }
        known.title = title
        return known
    }

    /// The table and focus as the tree has them: what events may have missed.
    private func seed(from tree: I3Node) {
        let (all, focusedID) = tree.windows()
        table.entries = Dictionary(all.map { ($0.id, updated(table.entries[$0.id], from: $0)) }) { $1 }
        table.focused = focusedID
    }

    private func reportFocus() {
        if let event = table.focusChange(needsTitle: needsTitle) { onFocus?(event) }
    }

    // MARK: - Socket

    private func send(_ type: I3IPCMessageType, _ payload: String = "") {
        output += I3IPCFrame(type, payload).encoded
        awaiting.append(type)
    }

    private func flush() throws {
        guard !output.isEmpty else { return }
        output.removeFirst(try socket.writeAvailable(output[...]))
    }

    /// False when the peer closed.
    @discardableResult
    private func readSocket() throws -> Bool {
        var bytes: [UInt8] = []
        let open = try socket.readAvailable(into: &bytes)
        parser.append(bytes)
        return open
    }
}
