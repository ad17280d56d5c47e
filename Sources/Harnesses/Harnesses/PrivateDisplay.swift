import Foundation

/// An Xvfb of the test's own (the harness's display must stay up for the other tests).
public struct PrivateDisplay {
    public let number: Int
    private let process = Process()
    public var name: String { ":\(number)" }

    /// A new server on `number`, or on a free number Xvfb picks (`-displayfd`); ready when this returns.
    public init(number: Int? = nil) throws {
        process.executableURL = URL(fileURLWithPath: try DesktopHarness.which("Xvfb"))
        let out = Pipe()
        process.arguments = (number.map { [":\($0)"] } ?? []) + ["-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "640x480x24"]
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var printed = Data()
        let deadline = Date().addingTimeInterval(10)
        var entry = pollfd(fd: out.fileHandleForReading.fileDescriptor, events: Int16(POLLIN), revents: 0)
        while !printed.contains(10) {
            guard Date() < deadline, process.isRunning else { throw DesktopHarness.Failure.didNotStart("Xvfb", "printed no display number") }
            if poll(&entry, 1, 100) > 0 { printed.append(out.fileHandleForReading.availableData) }
        }
        guard let printedNumber = Int(String(decoding: printed.prefix { $0 != 10 }, as: UTF8.self)) else {
            throw DesktopHarness.Failure.didNotStart("Xvfb", "printed no display number")
        }
        self.number = printedNumber
    }

    public func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}
