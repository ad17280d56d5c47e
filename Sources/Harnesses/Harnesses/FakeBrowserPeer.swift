import Foundation
import ScreenTimeCore

/// A fake browser peer (standing in for Chromium's or Firefox's side of native messaging): starts
/// the built `screentime-browser-host` as a browser does, as its child, and speaks the browser's
/// framing on its stdin and stdout. Used to test the host itself (framing, refusals, reconnects)
/// without a browser; the real browsers are in the end-to-end tests.
public final class FakeBrowserPeer {
    public let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var frames = NativeMessageFrames()
    private var received: [[String: Any]] = []
    public let logPath: URL
    /// When the host was started, for its start time.
    public let startedAt = Date()

    /// The built host beside the test bundle (or in `$SCREENTIME_BIN_DIR`).
    public static var binary: URL {
        AgentProcess.binary.deletingLastPathComponent().appendingPathComponent("screentime-browser-host")
    }

    /// Starts the host with `environment` (the session bus address in it), as the browser starts
    /// it: the manifest's path, the extension's origin as its argument.
    public init(environment: [String: String], logPath: URL) throws {
        self.logPath = logPath
        FileManager.default.createFile(atPath: logPath.path, contents: nil)
        process.executableURL = Self.binary
        process.arguments = ["chrome-extension://screentimetestextension/"]
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: logPath)
        try process.run()
        _ = fcntl(output.fileHandleForReading.fileDescriptor, F_SETFL, O_NONBLOCK)
    }

    public var log: String { (try? String(contentsOf: logPath, encoding: .utf8)) ?? "" }

    /// Sends one message as the extension would.
    public func send(_ json: String) { sendRaw(NativeMessageFrames.frame(Array(json.utf8))!) }

    /// Sends bytes as they are: broken frames, oversized lengths.
    public func sendRaw(_ bytes: [UInt8]) {
        input.fileHandleForWriting.write(Data(bytes))
    }

    /// The next message from the host that `matches`, waiting at most `timeout`; earlier ones
    /// that do not match are kept for later calls.
    public func receive(_ timeout: TimeInterval = 5, where matches: ([String: Any]) -> Bool = { _ in true }) -> [String: Any]? {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if let index = received.firstIndex(where: matches) { return received.remove(at: index) }
            var entry = pollfd(fd: output.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, Int32(max(1, min(100, deadline.timeIntervalSinceNow * 1000))))
            readAvailable()
        } while Date() < deadline
        if let index = received.firstIndex(where: matches) { return received.remove(at: index) }
        return nil
    }

    /// The next message of `type`.
    public func receive(type: String, _ timeout: TimeInterval = 5) -> [String: Any]? {
        receive(timeout) { $0["type"] as? String == type }
    }

    private func readAvailable() {
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(output.fileHandleForReading.fileDescriptor, &buffer, buffer.count)
            guard count > 0 else { return }
            for item in frames.feed(buffer[..<count]) {
                if case .message(let bytes) = item,
                   let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] { received.append(object) }
            }
        }
    }

    /// The browser closes its end, as when the extension disconnects: the host should exit.
    public func closeInput() { try? input.fileHandleForWriting.close() }

    /// Waits (bounded) for the host to exit; its status, or nil when it still runs.
    public func waitForExit(_ timeout: TimeInterval = 5) -> Int32? {
        HarnessProcesses.waitForExit(process, timeout: timeout) ? process.terminationStatus : nil
    }

    /// The host's resident memory in KiB (VmRSS).
    public var residentKiB: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8) else { return nil }
        return status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
            .flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
    }
}
