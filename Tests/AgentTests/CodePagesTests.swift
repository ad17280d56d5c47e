import XCTest
import Glibc
@testable import Agent

/// `CodePages.release()` gives back the resident pages of read-only file mappings and keeps
/// those that hold anonymous pages (a library's relocated data after RELRO): real mappings of
/// this test process, read back through /proc/self/smaps.
final class CodePagesTests: XCTestCase {
    private var directory: String!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("codepages-\(getpid())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(atPath: directory) }

    func testReadOnlyFilePagesAreGivenBackAndRelocatedPagesKeepTheirContent() throws {
        let size = 64 * 1024
        let path = directory + "/mapped"
        try Data(repeating: 7, count: size).write(to: URL(fileURLWithPath: path))
        let fd = open(path, O_RDONLY)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd) }

        // Code or constants: read-only, file-backed, only the file's pages.
        let clean = try XCTUnwrap(mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0))
        defer { munmap(clean, size) }
        // Relocated data: written (copied on write into anonymous pages), then made read-only.
        let relocated = try XCTUnwrap(mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0))
        defer { munmap(relocated, size) }
        relocated.storeBytes(of: 42, toByteOffset: 0, as: UInt8.self)
        XCTAssertEqual(mprotect(relocated, size, PROT_READ), 0)
        var sum = 0
        for offset in stride(from: 0, to: size, by: 4096) { sum += Int(clean.load(fromByteOffset: offset, as: UInt8.self)) }
        XCTAssertEqual(sum, 7 * size / 4096)
        XCTAssertEqual(try residentKilobytes(of: clean), size / 1024, "the touched pages are resident before")

        CodePages.release()

        XCTAssertEqual(try residentKilobytes(of: clean), 0, "the read-only file mapping was given back")
        XCTAssertGreaterThan(try residentKilobytes(of: relocated), 0, "the mapping holding anonymous pages was kept")
        XCTAssertEqual(relocated.load(fromByteOffset: 0, as: UInt8.self), 42, "the relocated byte is still ours")
        XCTAssertEqual(clean.load(fromByteOffset: 4096, as: UInt8.self), 7, "a given-back page faults in again")
    }

    /// The Rss smaps gives for the mapping that starts at `address`.
    private func residentKilobytes(of address: UnsafeMutableRawPointer) throws -> Int {
        // Read to its end: proc files have no size for `String(contentsOfFile:)` to go by.
        let handle = try XCTUnwrap(FileHandle(forReadingAtPath: "/proc/self/smaps"))
        defer { try? handle.close() }
        let smaps = String(decoding: try XCTUnwrap(handle.readToEnd()), as: UTF8.self)
        let start = String(UInt(bitPattern: address), radix: 16)
        var inMapping = false
        for line in smaps.split(separator: "\n") {
            if line.first?.isHexDigit == true, line.contains("-"), !line.hasPrefix("Anon") {
                inMapping = line.hasPrefix(start + "-")
            } else if inMapping, line.hasPrefix("Rss:") {
                return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? -1
            }
        }
        throw MappingNotFound(address: start, mappings: smaps.split(separator: "\n").filter { $0.contains("codepages") }.joined(separator: "; "))
    }
}

private struct MappingNotFound: Error {
    let address: String
    let mappings: String
}
