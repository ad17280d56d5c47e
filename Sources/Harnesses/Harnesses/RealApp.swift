import Foundation

/// A real desktop program (xterm, a GTK app, pinentry) run on the harness's desktop for a test,
/// ended when the test lets go of it.
public final class RealApp {
    public let process = Process()
    /// Its standard input, for programs driven on stdin (pinentry's Assuan protocol).
    public let input = Pipe()

    public init(_ program: String, _ arguments: [String] = [], on desk: DesktopHarness,
                environment extra: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: try DesktopHarness.which(program))
        process.arguments = arguments
        // GTK without accessibility bus or GL, as on a bare X server.
        process.environment = desk.environment.merging(["GDK_BACKEND": "x11", "NO_AT_BRIDGE": "1", "GTK_A11Y": "none",
                                                        "GSK_RENDERER": "cairo"].merging(extra) { $1 }) { $1 }
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    deinit { end() }

    public func end() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    public func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Its managed top-level windows (by `_NET_WM_PID`) that `matching` accepts, waited for.
    public func window(in client: TestWindowClient, timeout: TimeInterval = 10,
                       matching: (TestWindow) -> Bool = { _ in true }) throws -> TestWindow {
        var found: TestWindow?
        client.waitUntil(timeout: timeout) {
            found = client.clientList().map { TestWindow(xid: $0) }
                .first { client.pid(of: $0) == process.processIdentifier && matching($0) }
            return found != nil
        }
        guard let found else { throw TestWindowClient.Failure.notManaged("a window of \(process.executableURL?.lastPathComponent ?? "?")") }
        return found
    }
}
