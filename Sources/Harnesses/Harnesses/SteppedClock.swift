import Foundation

/// A wall clock a test can step while a child process runs: libfaketime preloaded into the
/// process, reading its offset from a file on every call. The monotonic clock stays real
/// (FAKETIME_DONT_FAKE_MONOTONIC), which is exactly what a suspend or a clock set by hand looks like.
public final class SteppedClock {
    /// Debian's libfaketime, in the machine's multiarch folder.
    public static let library: String? = ((try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib")) ?? [])
        .map { "/usr/lib/\($0)/faketime/libfaketime.so.1" }
        .first { FileManager.default.fileExists(atPath: $0) }
    private let library: String
    public let offsetFile: URL
    public private(set) var offset: TimeInterval = 0

    public init(in directory: URL) throws {
        guard let library = Self.library else { throw DesktopHarness.Failure.missingProgram("libfaketime") }
        self.library = library
        offsetFile = directory.appendingPathComponent("faketime-\(UUID().uuidString.prefix(8))")
        try set(offset: 0)
    }

    /// What the process's environment needs for its clock to follow this one.
    public var environment: [String: String] {
        ["LD_PRELOAD": library, "FAKETIME_TIMESTAMP_FILE": offsetFile.path, "FAKETIME_NO_CACHE": "1",
         "FAKETIME_DONT_FAKE_MONOTONIC": "1"]
    }

    /// Puts the process's wall clock `offset` seconds away from the real one, at once.
    public func set(offset: TimeInterval) throws {
        self.offset = offset
        // Written whole and renamed, so the process never reads half a line.
        try String(format: "%+.0f\n", offset).write(to: offsetFile, atomically: true, encoding: .utf8)
    }
}
