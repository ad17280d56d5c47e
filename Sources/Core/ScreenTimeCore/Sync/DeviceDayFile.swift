import FoundationEssentials

/// A `DeviceDay` as text: one record a line, fields separated by tabs, a last line counting the
/// lines before it so that a file cut short (a copy taken while written) is known for one.
///
///     screentime-day	1
///     device	0123456789abcdef	laptop
///     written	42	1764669600000
///     day	2026-12-02
///     app	org.gnome.Terminal	9:1800000 10:600000
///     group	productivity	9:1800000 10:600000
///     bypass	1764669600000	org.gnome.Terminal	limit	900000
///     limit	1764669600000	org.gnome.Terminal	3600000
///     end	8
extension DeviceDay {
    public static let formatVersion = 1

    public func encoded() -> String {
        var lines = ["screentime-day\t\(Self.formatVersion)",
                     "device\t\(device.rawValue)\t\(SyncText.escape(name))",
                     "written\t\(sequence)\t\(SyncText.milliseconds(written))",
                     "day\t\(day)"]
        func hours(_ totals: HourTotals) -> String {
            totals.milliseconds.indices.filter { totals[$0] > 0 }.map { "\($0):\(totals[$0])" }.joined(separator: " ")
        }
        for app in apps.keys.sorted() where apps[app]!.total > 0 {
            lines.append("app\t\(SyncText.escape(app.rawValue))\t\(hours(apps[app]!))")
        }
        for group in groups.keys.sorted() where groups[group]!.total > 0 {
            lines.append("group\t\(SyncText.escape(group))\t\(hours(groups[group]!))")
        }
        for bypass in bypasses.sorted(by: { ($0.at, $0.app) < ($1.at, $1.app) }) {
            lines.append("bypass\t\(SyncText.milliseconds(bypass.at))\t\(SyncText.escape(bypass.app.rawValue))\t\(bypass.rule.rawValue)\t\(Int64((bypass.granted * 1000).rounded()))")
        }
        for hit in limitHits.sorted(by: { ($0.at, $0.app) < ($1.at, $1.app) }) {
            lines.append("limit\t\(SyncText.milliseconds(hit.at))\t\(SyncText.escape(hit.app.rawValue))\t\(Int64((hit.used * 1000).rounded()))")
        }
        lines.append("end\t\(lines.count)")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Reads a day file; a `SyncFileError` names the line that is wrong. Lines of kinds a later
    /// version may add are skipped, so an older reader still counts what it knows.
    public static func parse(_ text: String) throws(SyncFileError) -> DeviceDay {
        var text = text
        let result: Result<DeviceDay, SyncFileError> = text.withUTF8 { bytes in
            do throws(SyncFileError) { return .success(try parse(bytes)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// The scan over the file's bytes: a year of three devices is some 1000 files, read each time
    /// a report covers it, so no line is split into arrays of strings.
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(SyncFileError) -> DeviceDay {
        var device: SyncDeviceID?
        var name = ""
        var sequence: UInt64?
        var written: Date?
        var day: CivilDate?
        var apps: [AppID: HourTotals] = [:]
        var groups: [String: HourTotals] = [:]
        var bypasses: Set<Bypass> = []
        var hits: Set<LimitHit> = []
        var fields: [Range<Int>] = []
        fields.reserveCapacity(8)
        var count = 0
        var ended = false
        var lineStart = 0
        while lineStart < bytes.count || (lineStart == bytes.count && count == 0) {
            var lineEnd = lineStart
            while lineEnd < bytes.count && bytes[lineEnd] != 10 { lineEnd += 1 }
            defer { lineStart = lineEnd + 1 }
            count += 1
            if ended {
                if lineEnd == lineStart { continue }
                throw SyncFileError(line: count, reason: "text after the end line")
            }
            fields.removeAll(keepingCapacity: true)
            var fieldStart = lineStart
            for index in lineStart...lineEnd where index == lineEnd || bytes[index] == 9 {
                fields.append(fieldStart..<index)
                fieldStart = index + 1
            }
            func field(_ index: Int) throws(SyncFileError) -> Range<Int> {
                guard index < fields.count else { throw SyncFileError(line: count, reason: "missing field \(index + 1)") }
                return fields[index]
            }
            func integer(_ index: Int) throws(SyncFileError) -> Int64 {
                guard let value = SyncText.integer(UnsafeBufferPointer(rebasing: bytes[try field(index)])) else {
                    throw SyncFileError(line: count, reason: "field \(index + 1) is no whole number")
                }
                return value
            }
            func text(_ index: Int) throws(SyncFileError) -> String {
                SyncText.unescape(String(decoding: UnsafeBufferPointer(rebasing: bytes[try field(index)]), as: UTF8.self))
            }
            func kindIs(_ word: StaticString) -> Bool { SyncText.equals(UnsafeBufferPointer(rebasing: bytes[fields[0]]), word) }
            if count == 1 {
                guard fields.count == 2, kindIs("screentime-day") else { throw SyncFileError(line: 1, reason: "not a screentime day file") }
                guard try integer(1) <= formatVersion else { throw SyncFileError(line: 1, reason: "written by a newer screentime") }
                continue
            }
            let isApp = kindIs("app")
            if isApp || kindIs("group") {
                let key = try text(1)
                var totals = HourTotals()
                // `hour:milliseconds` pairs, separated by spaces.
                var index = try field(2).lowerBound
                let end = fields[2].upperBound
                while index < end {
                    var colon = index
                    while colon < end && bytes[colon] != 58 { colon += 1 }
                    var next = colon
                    while next < end && bytes[next] != 32 { next += 1 }
                    guard colon < end, let hour = SyncText.integer(UnsafeBufferPointer(rebasing: bytes[index..<colon])),
                          let value = SyncText.integer(UnsafeBufferPointer(rebasing: bytes[(colon + 1)..<next])),
                          hours.contains(Int(hour)), value >= 0, value <= 3_601_000 else {
                        throw SyncFileError(line: count, reason: "an hour's time is not hour:milliseconds within the hour")
                    }
                    totals[Int(hour)] = value
                    index = next + 1
                }
                if isApp { apps[AppID(key)] = totals } else { groups[key] = totals }
                continue
            }
            if kindIs("bypass") {
                guard let rule = BypassedRule(rawValue: try text(3)) else { throw SyncFileError(line: count, reason: "unknown rule") }
                bypasses.insert(Bypass(at: SyncText.date(try integer(1)), app: AppID(try text(2)), rule: rule,
                                       granted: Double(try integer(4)) / 1000))
            } else if kindIs("limit") {
                hits.insert(LimitHit(at: SyncText.date(try integer(1)), app: AppID(try text(2)), used: Double(try integer(3)) / 1000))
            } else if kindIs("device") {
                guard let id = SyncDeviceID(try text(1)) else { throw SyncFileError(line: count, reason: "bad device id") }
                device = id
                name = try text(2)
            } else if kindIs("written") {
                let value = try integer(1)
                guard value >= 0 else { throw SyncFileError(line: count, reason: "negative sequence") }
                sequence = UInt64(value)
                written = SyncText.date(try integer(2))
            } else if kindIs("day") {
                guard let date = CivilDate(parsing: try text(1)) else { throw SyncFileError(line: count, reason: "bad day") }
                day = date
            } else if kindIs("end") {
                guard try integer(1) == Int64(count - 1) else { throw SyncFileError(line: count, reason: "lines missing before the end") }
                ended = true
            }
        }
        guard ended else { throw SyncFileError(line: count, reason: "cut short: no end line") }
        guard let device, let sequence, let written, let day else { throw SyncFileError(line: 1, reason: "device, written or day missing") }
        return DeviceDay(device: device, name: name, sequence: sequence, written: written, day: day,
                         apps: apps, groups: groups, bypasses: bypasses, limitHits: hits)
    }
}

/// What is wrong in a synced file, by line.
public struct SyncFileError: Error, Equatable, CustomStringConvertible {
    public var line: Int
    public var reason: String

    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }

    public var description: String { "line \(line): \(reason)" }
}

/// The fields of synced files: tabs, newlines and backslashes escaped; instants in milliseconds.
enum SyncText {
    static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 9 || $0 == 10 || $0 == 13 || $0 == 92 }) else { return text }
        var result = ""
        for character in text.unicodeScalars {
            switch character {
            case "\t": result += "\\t"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\\": result += "\\\\"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    static func unescape(_ text: String) -> String {
        guard text.utf8.contains(92) else { return text }
        var result = ""
        var escaping = false
        for character in text.unicodeScalars {
            if escaping {
                switch character {
                case "t": result += "\t"
                case "n": result += "\n"
                case "r": result += "\r"
                default: result.unicodeScalars.append(character)
                }
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.unicodeScalars.append(character)
            }
        }
        return result
    }

    static func milliseconds(_ date: Date) -> Int64 { Int64((date.timeIntervalSince1970 * 1000).rounded()) }
    static func date(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

    static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        guard bytes.count == word.utf8CodeUnitCount else { return false }
        return word.withUTF8Buffer { zip(bytes, $0).allSatisfy { $0 == $1 } }
    }

    static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var value: Int64 = 0
        var negative = false
        var digits = 0
        for (index, byte) in bytes.enumerated() {
            if index == 0 && byte == UInt8(ascii: "-") { negative = true; continue }
            guard (48...57).contains(byte), digits < 18 else { return nil }
            value = value * 10 + Int64(byte - 48)
            digits += 1
        }
        return digits == 0 ? nil : (negative ? -value : value)
    }
}
