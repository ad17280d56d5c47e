import Glibc

/// The code the agent ran only to start (reading the config and every desktop entry, opening
/// and migrating the store, probing the desktop's providers, the dynamic linker resolving every
/// library's symbols), or for an occasional job (the config or the desktop entries read again),
/// stays mapped all day otherwise, and the kernel maps 64 KB around every page
/// touched: most of the agent's text, and the read-only data of its libraries, stayed resident.
/// After start and after such a job, the agent tells the kernel it no longer needs the pages of
/// its read-only file-backed mappings (code and constants, `r-xp` and `r--p`) that hold nothing of
/// its own: what the loop uses faults back in from the page cache at its first use, and only that
/// stays resident. A mapping with anonymous pages (a library's relocated data after RELRO made it
/// read-only) keeps them: those pages exist nowhere else. Reading the map costs about a
/// millisecond, and what is given back faults in again when next run: so it is done after rare
/// work only, never per turn, and not after a card (the next disable would wait for its code).
enum CodePages {
    /// The smaps lines are read as bytes: smaps has some twenty lines per mapping, and making each a
    /// `String` to split it cost 17 ms a release, where this costs well under one.
    static func release() {
        guard let smaps = fopen("/proc/self/smaps", "r") else { return }
        defer { fclose(smaps) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        var candidate: UnsafeMutableRawBufferPointer?
        while getline(&line, &capacity, smaps) > 0, let line {
            if isMappingHeader(line) {
                candidate = readOnlyFileMapping(header: line)
            } else if let mapping = candidate, let anonymous = value(named: "Anonymous:", in: line) {
                candidate = nil
                if anonymous == 0 { _ = madvise(mapping.baseAddress, mapping.count, MADV_DONTNEED) }
            }
        }
    }

    /// A mapping's first line starts with its address in lowercase hex; its fields ("Rss:",
    /// "Anonymous:") start with a capital.
    private static func isMappingHeader(_ line: UnsafePointer<CChar>) -> Bool {
        (0x30...0x39).contains(line.pointee) || (0x61...0x66).contains(line.pointee)  // 0-9, a-f
    }

    /// The number after `name` ("Anonymous:    0 kB"), when the line is that field.
    private static func value(named name: StaticString, in line: UnsafePointer<CChar>) -> UInt? {
        guard strncmp(line, UnsafeRawPointer(name.utf8Start).assumingMemoryBound(to: CChar.self), name.utf8CodeUnitCount) == 0 else { return nil }
        return UInt(strtoul(line + name.utf8CodeUnitCount, nil, 10))
    }

    /// "start-end perms offset dev inode path" of a private, read-only, file-backed mapping.
    private static func readOnlyFileMapping(header: UnsafeMutablePointer<CChar>) -> UnsafeMutableRawBufferPointer? {
        var cursor: UnsafeMutablePointer<CChar>? = header
        let start = UInt(strtoul(header, &cursor, 16))
        guard var field = cursor, field.pointee == 0x2D else { return nil }  // '-'
        let end = UInt(strtoul(field + 1, &cursor, 16))
        guard let afterRange = cursor, afterRange.pointee == 0x20, end > start,
              let address = UnsafeMutableRawPointer(bitPattern: start) else { return nil }
        field = afterRange + 1
        guard strncmp(field, "r-xp ", 5) == 0 || strncmp(field, "r--p ", 5) == 0 else { return nil }
        // Past perms, offset, dev and inode: the path, when the mapping has one.
        for _ in 0..<4 {
            while field.pointee != 0 && field.pointee != 0x20 { field += 1 }
            while field.pointee == 0x20 { field += 1 }
        }
        guard field.pointee == 0x2F else { return nil }  // '/'
        return UnsafeMutableRawBufferPointer(start: address, count: Int(end - start))
    }
}
