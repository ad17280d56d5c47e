import Foundation

/// A small tmpfs mounted over a folder, for real storage faults: a full disk (fill it), a
/// read-only file system (`remount(readOnly:)`), a read-only file (a read-only bind mount of it).
/// Needs root, as in CI; a refused mount is a failure naming the command, never a skip.
public final class TmpfsMount {
    public let path: String
    private var bindMounts: [String] = []

    public init(at path: String, size: String) throws {
        self.path = path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try Self.mount(["-t", "tmpfs", "-o", "size=\(size),mode=0700", "tmpfs", path])
    }

    public func remount(readOnly: Bool) throws {
        try Self.mount(["-o", readOnly ? "remount,ro" : "remount,rw", path])
    }

    /// Makes one file read-only in place (a read-only bind mount over it); its folder stays writable.
    public func makeReadOnly(file: String) throws {
        try Self.mount(["--bind", file, file])
        bindMounts.append(file)
        try Self.mount(["-o", "remount,ro,bind", file])
    }

    /// Fills the file system up to the last block with `<path>/filler`.
    public func fill() throws {
        let filler = FileHandle(forWritingAtPath: path + "/filler") ?? {
            FileManager.default.createFile(atPath: path + "/filler", contents: nil)
            return FileHandle(forWritingAtPath: path + "/filler")!
        }()
        defer { try? filler.close() }
        let block = Data(repeating: 0, count: 4096)
        while (try? filler.write(contentsOf: block)) != nil {}
    }

    public func freeSpace() throws { try FileManager.default.removeItem(atPath: path + "/filler") }

    deinit {
        for file in bindMounts.reversed() { try? Self.mount(["-l", file], program: "/bin/umount") }
        try? Self.mount(["-l", path], program: "/bin/umount")
    }

    private static func mount(_ arguments: [String], program: String = "/bin/mount") throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(command: ([program] + arguments).joined(separator: " "), message: String(decoding: message, as: UTF8.self))
        }
    }

    public struct Failure: Error, CustomStringConvertible {
        public var command: String
        public var message: String
        public var description: String { "`\(command)` failed (storage fault tests need root): \(message)" }
    }
}
