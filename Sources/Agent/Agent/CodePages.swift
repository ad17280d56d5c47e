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
    static func release() {
        guard let smaps = fopen("/proc/self/smaps", "r") else { return }
        defer { fclose(smaps) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        var candidate: UnsafeMutableRawBufferPointer?
        while getline(&line, &capacity, smaps) > 0, let line {
            let text = String(cString: line)
            if let mapping = Self.readOnlyFileMapping(header: text) {
                candidate = mapping
            } else if text.hasPrefix("Anonymous:"), let mapping = candidate {
                candidate = nil
                let pages = text.split(separator: " ", omittingEmptySubsequences: true)
                guard pages.count >= 2, pages[1] == "0" else { continue }
                _ = madvise(mapping.baseAddress, mapping.count, MADV_DONTNEED)
            } else if text.first?.isHexDigit == true, text.contains("-") {
                candidate = nil
            }
        }
    }

    /// "start-end perms offset dev inode path" of a private, read-only, file-backed mapping.
    private static func readOnlyFileMapping(header: String) -> UnsafeMutableRawBufferPointer? {
        let fields = header.split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count >= 6, fields[1] == "r-xp" || fields[1] == "r--p", fields[5].hasPrefix("/") else { return nil }
        let range = fields[0].split(separator: "-")
        guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16), end > start,
              let address = UnsafeMutableRawPointer(bitPattern: start) else { return nil }
        return UnsafeMutableRawBufferPointer(start: address, count: Int(end - start))
    }
}
