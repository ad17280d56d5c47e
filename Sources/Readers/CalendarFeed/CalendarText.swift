import FoundationEssentials

/// An .ics file's bytes, read once: NUL bytes taken out (libical reads C strings, so one NUL would
/// cut the text there) and each named, lines that are not UTF-8 named, and an index of where lines start, so that a line is found by
/// searching bytes rather than splitting the text again.
struct CalendarText {
    /// The file's bytes without NULs; line numbers are those of the file.
    let bytes: [UInt8]
    /// Offset in `bytes` of each line's first byte.
    let lineStarts: [Int]
    /// 1-based lines that held NUL bytes.
    let linesWithNul: [Int]
    /// 1-based lines that are not UTF-8 (iCalendar's only encoding): their other bytes are shown as "�".
    let linesNotUTF8: [Int]
    /// 1-based lines longer than `longestLine` bytes, with their length: each is cut there.
    let linesCut: [(line: Int, bytes: Int)]

    /// libical reads a line in time that grows with the square of its length (a 20 MB line took
    /// minutes, 1 MB a third of a second); iCalendar folds lines at 75 bytes, and the longest real
    /// ones (an unfolded description, an inline picture) stay far below this.
    static let longestLine = 65_536

    init(fileBytes: some Collection<UInt8>) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(fileBytes.count)
        var lineStarts = [0]
        var linesWithNul: [Int] = []
        var linesCut: [(line: Int, bytes: Int)] = []
        let file = Array(fileBytes)
        file.withUnsafeBufferPointer { file in
            // Runs of ordinary bytes are copied whole: byte by byte, a 20 MB file took seconds.
            var index = 0
            while index < file.count {
                var end = index
                while end < file.count, file[end] != 0, file[end] != UInt8(ascii: "\n"), file[end] != UInt8(ascii: "\r") { end += 1 }
                let room = Self.longestLine - (bytes.count - lineStarts[lineStarts.count - 1])
                if end - index <= room {
                    bytes.append(contentsOf: UnsafeBufferPointer(rebasing: file[index..<end]))
                } else {
                    if linesCut.last?.line != lineStarts.count {
                        var kept = index + max(0, room)
                        // Cut before the character the cut falls in, so that the line stays UTF-8.
                        while kept > index, kept < end, file[kept] & 0xC0 == 0x80 { kept -= 1 }
                        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: file[index..<kept]))
                        linesCut.append((lineStarts.count, Self.longestLine - room))
                    }
                    linesCut[linesCut.count - 1].bytes += end - index
                }
                guard end < file.count else { break }
                let byte = file[end]
                index = end + 1
                if byte == 0 {
                    if linesWithNul.last != lineStarts.count { linesWithNul.append(lineStarts.count) }
                    continue
                }
                bytes.append(byte)
                // "\r\n", "\n" and a lone "\r" (old Mac files) each end a line.
                if byte == UInt8(ascii: "\n") {
                    if bytes.count >= 2, bytes[bytes.count - 2] == UInt8(ascii: "\r"), lineStarts.last == bytes.count - 1 {
                        lineStarts[lineStarts.count - 1] = bytes.count
                    } else {
                        lineStarts.append(bytes.count)
                    }
                } else {
                    lineStarts.append(bytes.count)
                }
            }
        }
        // Lines are checked one by one only when the whole text is not UTF-8, which is rare.
        linesNotUTF8 = String(validating: bytes, as: UTF8.self) != nil ? [] : lineStarts.indices.filter { index in
            let end = index + 1 < lineStarts.count ? lineStarts[index + 1] : bytes.count
            return String(validating: bytes[lineStarts[index]..<end], as: UTF8.self) == nil
        }.map { $0 + 1 }
        self.bytes = bytes
        self.lineStarts = lineStarts
        self.linesWithNul = linesWithNul
        self.linesCut = linesCut
    }

    /// Files larger than this are not read: a read costs memory a few times the file's size, and
    /// fifteen years of a busy calendar exported fill a few megabytes.
    static let largestFile = 64 << 20

    /// Reads the file at `path`.
    init(contentsOf path: String) throws(CalendarProblemError) {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        if let size, size > Self.largestFile {
            throw CalendarProblemError(CalendarProblem(path: path, message: "the file holds \(size >> 20) MB, more than \(Self.largestFile >> 20) MB; it is not read"))
        }
        do {
            self.init(fileBytes: try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw CalendarProblemError(CalendarProblem(path: path, message: "the file cannot be read"))
        }
    }

    var lineCount: Int { lineStarts.last == bytes.count ? lineStarts.count - 1 : lineStarts.count }

    /// The 1-based line holding byte `offset`.
    func line(atOffset offset: Int) -> Int {
        var (low, high) = (0, lineStarts.count)
        while high - low > 1 {
            let middle = (low + high) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle }
        }
        return low + 1
    }

    /// The text of 1-based `line`, without its line break.
    func text(ofLine line: Int) -> Substring {
        let start = lineStarts[line - 1]
        var end = line < lineStarts.count ? lineStarts[line] : bytes.count
        while end > start, bytes[end - 1] == UInt8(ascii: "\n") || bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return Substring(String(decoding: bytes[start..<end], as: UTF8.self))
    }

    /// Whether 1-based `line` is a property or component line named `name` (ASCII, any case):
    /// the name followed by ":" or ";". Looks at bytes only, so most lines cost a byte or two.
    func line(_ line: Int, startsWithName name: String) -> Bool {
        let start = lineStarts[line - 1]
        let name = Array(name.utf8)
        guard start + name.count < bytes.count else { return false }
        for (index, letter) in name.enumerated() where bytes[start + index] & 0xDF != letter & 0xDF { return false }
        return bytes[start + name.count] == UInt8(ascii: ":") || bytes[start + name.count] == UInt8(ascii: ";")
    }

    /// The first line at or after byte `from` holding `needle`, else the first from the start;
    /// nil when no line holds it. Callers pass the offset after the previous find, so that lookups
    /// made in the order of the file read it once.
    func firstLine(containing needle: String, from: Int = 0) -> (line: Int, end: Int)? {
        let pattern = Array(needle.utf8)
        guard !pattern.isEmpty, pattern.count <= bytes.count else { return nil }
        func search(_ range: Range<Int>) -> Int? {
            let first = pattern[0]
            var index = range.lowerBound
            let last = range.upperBound - pattern.count
            while index <= last {
                if bytes[index] == first, bytes[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
                index += 1
            }
            return nil
        }
        let start = min(from, bytes.count)
        guard let found = search(start..<bytes.count) ?? search(0..<min(bytes.count, start + pattern.count - 1)) else { return nil }
        return (line(atOffset: found), found + pattern.count)
    }
}
