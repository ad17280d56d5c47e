import Foundation
import Harnesses
import X11Backend

/// An Xvfb of a test's own, apart from the shared desktop, for tests that kill the server.
final class ThrowawayXServer {
    let display: String
    private let number: Int
    private let process: Process

    init() throws {
        // The shared harness takes numbers from 40 up; these stay clear of it.
        guard let number = (300..<400).first(where: {
            !FileManager.default.fileExists(atPath: "/tmp/.X\($0)-lock")
                && !FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\($0)")
        }) else { throw DesktopHarness.Failure.didNotStart("Xvfb", "no free display number") }
        self.number = number
        display = ":\(number)"
        process = Process()
        process.executableURL = URL(fileURLWithPath: try DesktopHarness.which("Xvfb"))
        process.arguments = [display, "-nolisten", "tcp", "-screen", "0", "640x480x24"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        var socket = false
        Wait.poll(timeout: 10) {
            socket = FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
            return socket || !process.isRunning
        }
        guard socket else {
            kill()
            throw DesktopHarness.Failure.didNotStart("Xvfb \(display)", "no socket")
        }
    }

    /// Connects, retrying while the fresh server starts accepting.
    func connect() throws -> X11Connection {
        var connection: X11Connection?
        Wait.poll(timeout: 5) {
            connection = try? X11Connection(displayName: display)
            return connection != nil
        }
        if let connection { return connection }
        return try X11Connection(displayName: display) // the error, as the server gave it
    }

    /// Kills the server at once (SIGKILL), as a crash would, and waits until it is gone. A killed
    /// server leaves its lock file and socket behind: they are removed here.
    func kill() {
        guard process.isRunning else { return }
        Foundation.kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: "/tmp/.X\(number)-lock")
        try? FileManager.default.removeItem(atPath: "/tmp/.X11-unix/X\(number)")
    }

    deinit { kill() }
}
