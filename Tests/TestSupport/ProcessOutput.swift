import Foundation

extension Process {
    /// Runs the process to its end and returns its standard output; an exit other than 0 is an
    /// error naming `what`, with the output.
    public func checkedOutput(_ what: String) throws -> String {
        let out = Pipe()
        standardOutput = out
        try run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard terminationStatus == 0 else { throw DesktopHarness.Failure.didNotStart(what, text) }
        return text
    }
}
