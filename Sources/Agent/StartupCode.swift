import Glibc

/// The code the agent ran only to start (reading the config and every desktop entry, opening
/// and migrating the store, probing the desktop's providers) stays mapped all day otherwise, and
/// the kernel maps 64 KB around every page touched: most of its text was resident after start.
/// Once started, the agent tells the kernel it no longer needs the pages of its executable code
/// mappings (`r-xp`, file-backed and never written, so nothing is lost): what the loop runs
/// faults back in from the page cache at its first use, and only that stays resident.
enum StartupCode {
    static func release() {
        guard let maps = fopen("/proc/self/maps", "r") else { return }
        defer { fclose(maps) }
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, maps) > 0, let line {
            // "start-end perms offset dev inode path": only executable, private, file-backed mappings.
            let fields = String(cString: line).split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[1] == "r-xp", fields[5].hasPrefix("/") else { continue }
            let range = fields[0].split(separator: "-")
            guard range.count == 2, let start = UInt(range[0], radix: 16), let end = UInt(range[1], radix: 16), end > start,
                  let address = UnsafeMutableRawPointer(bitPattern: start) else { continue }
            _ = madvise(address, Int(end - start), MADV_DONTNEED)
        }
    }
}
