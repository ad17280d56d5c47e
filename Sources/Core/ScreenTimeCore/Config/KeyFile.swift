/// A keyfile (the format of desktop entries and systemd units: `[section]`, `key = value`, `#`
/// comments) kept line by line, so that edits keep the user's comments, blank lines and order.
public struct KeyFile: Equatable, Sendable {
    public enum Line: Equatable, Sendable {
        /// A blank line or a comment, kept verbatim.
        case other(String)
        case section(String)
        case entry(key: String, value: String)
    }

    public private(set) var lines: [Line]
    /// Kept as found, so an edit writes the file back the way the user's editor wrote it.
    public private(set) var lineEnding = "\n"
    public private(set) var startsWithByteOrderMark = false

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public var description: String { "line \(line): \(message)" }

        public init(line: Int, message: String) {
            self.line = line
            self.message = message
        }
    }

    public init() { lines = [] }

    /// Parses `text`; a line that is neither blank, a comment, a `[section]` nor `key = value`
    /// is an error naming the line.
    /// CRLF line endings (one `Character` in Swift, so never equal to "\n") and a UTF-8 byte order
    /// mark, as editors on other systems write them, are read too.
    public init(parsing text: String) throws {
        lines = []
        var body = Substring(text)
        if body.first == "\u{FEFF}" {
            body.removeFirst()
            startsWithByteOrderMark = true
        }
        if body.contains("\r\n") { lineEnding = "\r\n" }
        var number = 0
        // Known as it is read: looking back for it at every entry made 8,000 limits take seconds.
        var inSection = false
        for raw in body.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            number += 1
            let line = raw.trimmingWhitespace()
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") {
                lines.append(.other(String(raw)))
            } else if line.hasPrefix("[") {
                guard line.hasSuffix("]"), line.count > 2 else {
                    throw ParseError(line: number, message: "a section header must look like [name]")
                }
                lines.append(.section(String(line.dropFirst().dropLast()).trimmingWhitespace()))
                inSection = true
            } else if let equals = line.firstIndex(of: "=") {
                let key = String(line[..<equals]).trimmingWhitespace()
                guard !key.isEmpty else { throw ParseError(line: number, message: "a key is missing before '='") }
                guard inSection else {
                    throw ParseError(line: number, message: "`\(key)` comes before any [section]")
                }
                lines.append(.entry(key: key, value: String(line[line.index(after: equals)...]).trimmingWhitespace()))
            } else {
                throw ParseError(line: number, message: "expected `key = value`, `[section]` or a # comment, found `\(line)`")
            }
        }
        if lines.last == .other("") { lines.removeLast() }
    }

    /// Every entry with its 1-based line number, in file order.
    public func entries(in section: String) -> [(key: String, value: String, line: Int)] {
        var result: [(String, String, Int)] = []
        var current: String?
        for (index, line) in lines.enumerated() {
            switch line {
            case .section(let name): current = name
            case .entry(let key, let value) where current == section: result.append((key, value, index + 1))
            default: break
            }
        }
        return result
    }

    public var sections: [String] {
        lines.compactMap { if case .section(let name) = $0 { return name } else { return nil } }
    }

    public func value(_ key: String, in section: String) -> String? {
        entries(in: section).last { $0.key == key }?.value
    }

    /// Sets a value in place, or adds it after the section's last entry (after the comments under
    /// its header when it has none; creating the section at the end of the file when needed).
    public mutating func set(_ key: String, to value: String, in section: String) {
        var current: String?
        var lastLineOfSection: Int?
        var sectionHasEntries = false
        for index in lines.indices {
            switch lines[index] {
            case .section(let name):
                current = name
                if name == section { lastLineOfSection = index }
            case .entry(let existing, _) where current == section:
                if existing == key {
                    lines[index] = .entry(key: key, value: value)
                    return
                }
                lastLineOfSection = index
                sectionHasEntries = true
            case .other(let raw) where current == section && !sectionHasEntries && !raw.trimmingWhitespace().isEmpty:
                lastLineOfSection = index
            default: break
            }
        }
        if let lastLineOfSection {
            lines.insert(.entry(key: key, value: value), at: lastLineOfSection + 1)
        } else {
            if let last = lines.last, last != .other("") { lines.append(.other("")) }
            lines.append(.section(section))
            lines.append(.entry(key: key, value: value))
        }
    }

    /// Removes a key; returns whether it was there.
    @discardableResult
    public mutating func remove(_ key: String, in section: String) -> Bool {
        var current: String?
        let before = lines.count
        lines = lines.filter { line in
            switch line {
            case .section(let name): current = name; return true
            case .entry(let existing, _): return !(current == section && existing == key)
            case .other: return true
            }
        }
        return lines.count != before
    }

    public var text: String {
        let body = lines.map { line in
            switch line {
            case .other(let raw): return raw
            case .section(let name): return "[\(name)]"
            case .entry(let key, let value): return "\(key) = \(value)"
            }
        }
        return (startsWithByteOrderMark ? "\u{FEFF}" : "") + body.joined(separator: lineEnding) + lineEnding
    }
}

extension StringProtocol {
    func trimmingWhitespace() -> String {
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return String(slice)
    }
}

/// `a;b;c` lists, as in desktop entries.
public enum KeyFileList {
    public static func split(_ value: String) -> [String] {
        value.split(separator: ";").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
    }

    public static func join(_ items: [String]) -> String { items.joined(separator: ";") }
}

/// A keyfile's on/off value (`on`, `true`, `yes`, `1` and their opposites); nil for anything else.
public enum KeyFileSwitch {
    public static func parse(_ value: String) -> Bool? {
        switch value.lowercased() {
        case "on", "true", "yes", "1": true
        case "off", "false", "no", "0": false
        default: nil
        }
    }
}
