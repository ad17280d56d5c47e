import Foundation
import Synchronization

/// Hyprland is not in Debian 12: this peer speaks its documented IPC in its place, for provider
/// tests that say so in their names. It listens where Hyprland does
/// (`$XDG_RUNTIME_DIR/hypr/SIGNATURE/.socket2.sock` for events, `.socket.sock` for requests,
/// answered and closed one per connection), keeps a list of windows and writes the events
/// Hyprland writes for opening, focusing, renaming, closing and `movetoworkspacesilent`.
public final class HyprlandProtocolPeer: Sendable {
    public let runtimeDirectory: String
    public let signature = "screentime_test_\(getpid())"
    /// XDG_RUNTIME_DIR and HYPRLAND_INSTANCE_SIGNATURE, as a Hyprland session has them.
    public var environment: [String: String] {
        ["XDG_RUNTIME_DIR": runtimeDirectory, "HYPRLAND_INSTANCE_SIGNATURE": signature]
    }

    public struct Window: Equatable, Sendable {
        public let address: UInt64
        public let windowClass: String
        public var title: String
        public let pid: Int32
        public var workspace: String
    }

    /// What the tests and the serving thread share: the windows and the event connections.
    private let model: Mutex<Model>
    private let requestListener: Int32

    public init(directory: URL) throws {
        runtimeDirectory = directory.path
        let folder = directory.appendingPathComponent("hypr/\(signature)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let eventListener = try Self.listen(at: folder.appendingPathComponent(".socket2.sock").path)
        requestListener = try Self.listen(at: folder.appendingPathComponent(".socket.sock").path)
        model = Mutex(Model(eventListener: eventListener))
        Thread { [weak self] in
            while let self, self.serveOnce() {}
        }.start()
    }

    deinit { stop() }

    /// Stops answering and closes every socket, as when Hyprland exits.
    public func stop() {
        model.withLock { model in
            guard model.running else { return }
            model.running = false
            for fd in model.eventClients + [model.eventListener, requestListener] { close(fd) }
            model.eventClients.removeAll()
        }
    }

    /// The requests received, in order.
    public var requests: [String] { model.withLock { $0.requestLog } }

    public func window(_ address: UInt64) -> Window? { model.withLock { $0.window(address) } }

    /// Maps a window on workspace 1 and focuses it, as Hyprland does.
    @discardableResult
    public func openWindow(class windowClass: String, title: String, pid: Int32) -> UInt64 {
        model.withLock { $0.openWindow(class: windowClass, title: title, pid: pid) }
    }

    public func focusWindow(_ address: UInt64?) { model.withLock { $0.focus(address) } }

    /// Brings a window back to workspace 1 and focuses it: the user showing the special workspace.
    public func bringBack(_ address: UInt64) { model.withLock { $0.bringBack(address) } }

    public func setTitle(_ title: String, of address: UInt64) { model.withLock { $0.setTitle(title, of: address) } }

    public func closeWindow(_ address: UInt64) { model.withLock { $0.closeWindow(address) } }

    // MARK: - Model

    /// Hyprland's windows and focus, and the event connections told of their changes.
    private struct Model {
        let eventListener: Int32
        var windows: [Window] = []
        var focused: UInt64?
        var nextAddress: UInt64 = 0x55d1_c3a0_f000
        var requestLog: [String] = []
        var eventClients: [Int32] = []
        var running = true

        func window(_ address: UInt64) -> Window? { windows.first { $0.address == address } }

        mutating func openWindow(class windowClass: String, title: String, pid: Int32) -> UInt64 {
            nextAddress += 0x100
            let window = Window(address: nextAddress, windowClass: windowClass, title: title, pid: pid, workspace: "1")
            windows.append(window)
            emit("openwindow>>\(hex(window.address)),1,\(windowClass),\(title)")
            focus(window.address)
            return window.address
        }

        mutating func bringBack(_ address: UInt64) {
            guard let index = windows.firstIndex(where: { $0.address == address }) else { return }
            windows[index].workspace = "1"
            emit("movewindow>>\(hex(address)),1")
            focus(address)
        }

        mutating func setTitle(_ title: String, of address: UInt64) {
            guard let index = windows.firstIndex(where: { $0.address == address }) else { return }
            windows[index].title = title
            emit("windowtitle>>\(hex(address))")
            emit("windowtitlev2>>\(hex(address)),\(title)")
            if focused == address { announceFocus() }
        }

        mutating func closeWindow(_ address: UInt64) {
            windows.removeAll { $0.address == address }
            emit("closewindow>>\(hex(address))")
            if focused == address { focus(windows.last { !$0.workspace.hasPrefix("special:") }?.address) }
        }

        private func hex(_ address: UInt64) -> String { String(address, radix: 16) }

        mutating func focus(_ address: UInt64?) {
            focused = address
            announceFocus()
        }

        private mutating func announceFocus() {
            guard let address = focused, let window = windows.first(where: { $0.address == address }) else {
                emit("activewindow>>,")
                emit("activewindowv2>>")
                return
            }
            emit("activewindow>>\(window.windowClass),\(window.title)")
            emit("activewindowv2>>\(hex(address))")
        }

        private mutating func emit(_ line: String) {
            acceptEventClients()
            let bytes = Array((line + "\n").utf8)
            eventClients.removeAll { fd in send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) != bytes.count }
        }

        private mutating func acceptEventClients() {
            while running {
                let fd = accept(eventListener, nil, nil)
                guard fd >= 0 else { return }
                eventClients.append(fd)
            }
        }

        mutating func answer(_ request: String) -> String {
            requestLog.append(request)
            switch request {
            case "j/clients":
                return "[" + windows.map(json).joined(separator: ",") + "]"
            case "j/activewindow":
                return windows.first { $0.address == focused }.map(json) ?? "{}"
            default:
                let batch = request.hasPrefix("[[BATCH]]") ? String(request.dropFirst("[[BATCH]]".count)) : request
                return batch.split(separator: ";").map { dispatch($0.trimmingCharacters(in: .whitespaces)) }.joined(separator: "\n\n")
            }
        }

        /// `dispatch movetoworkspacesilent WORKSPACE,address:0xADDRESS`: moves without following;
        /// a focused window moved away gives focus to the last window left on a normal workspace.
        private mutating func dispatch(_ command: String) -> String {
            let prefix = "dispatch movetoworkspacesilent "
            guard command.hasPrefix(prefix) else { return "Invalid dispatcher" }
            let arguments = command.dropFirst(prefix.count).split(separator: ",", maxSplits: 1)
            guard arguments.count == 2, arguments[1].hasPrefix("address:0x"),
                  let address = UInt64(arguments[1].dropFirst("address:0x".count), radix: 16),
                  let index = windows.firstIndex(where: { $0.address == address }) else { return "No such window found" }
            windows[index].workspace = String(arguments[0])
            emit("movewindow>>\(hex(address)),\(arguments[0])")
            if focused == address { focus(windows.last { !$0.workspace.hasPrefix("special:") }?.address) }
            return "ok"
        }

        private func json(_ window: Window) -> String {
            let fields: [String: Any] = ["address": "0x\(hex(window.address))", "mapped": true, "hidden": false,
                                         "workspace": ["id": window.workspace == "1" ? 1 : -98, "name": window.workspace],
                                         "class": window.windowClass, "title": window.title, "initialClass": window.windowClass,
                                         "pid": Int(window.pid), "xwayland": false]
            return String(decoding: (try? JSONSerialization.data(withJSONObject: fields)) ?? Data("{}".utf8), as: UTF8.self)
        }
    }

    // MARK: - Sockets

    /// Answers one request connection (or waits 20 ms for one); false once stopped.
    private func serveOnce() -> Bool {
        guard model.withLock({ $0.running }) else { return false }
        var entry = pollfd(fd: requestListener, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, 20) > 0 else { return true }
        let fd = accept(requestListener, nil, nil)
        guard fd >= 0 else { return true }
        defer { close(fd) }
        var reading = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&reading, 1, 1000) > 0 else { return true }
        var buffer = [UInt8](repeating: 0, count: 8192)
        let count = read(fd, &buffer, buffer.count)
        guard count > 0 else { return true }
        let request = String(decoding: buffer[0..<count], as: UTF8.self)
        let reply = Array(model.withLock { $0.answer(request) }.utf8)
        _ = send(fd, reply, reply.count, Int32(MSG_NOSIGNAL))
        return true
    }

    private static func listen(at path: String) throws -> Int32 {
        unlink(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8)
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard fd >= 0, bound == 0, Glibc.listen(fd, 16) == 0 else {
            throw DesktopHarness.Failure.didNotStart("Hyprland protocol peer", "cannot listen at \(path): errno \(errno)")
        }
        return fd
    }
}
