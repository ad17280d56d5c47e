import Foundation

extension Process {
    /// Runs the process to its end and returns its standard output (and its standard error, with
    /// `includingErrors`); an exit other than 0 is an error naming `what`, with the output.
    public func checkedOutput(_ what: String, includingErrors: Bool = false) throws -> String {
        let out = Pipe()
        standardOutput = out
        if includingErrors { standardError = out }
        try run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard terminationStatus == 0 else { throw DesktopHarness.Failure.didNotStart(what, text) }
        return text
    }
}

extension Process {
    /// Runs the process to its end: its exit status, standard output and standard error.
    public func finishedOutput() throws -> (status: Int32, out: String, err: String) {
        let out = Pipe()
        let err = Pipe()
        standardOutput = out
        standardError = err
        try run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        waitUntilExit()
        return (terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self))
    }
}
