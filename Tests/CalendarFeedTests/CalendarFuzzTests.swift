import XCTest
import Foundation
import CalendarFeed
import ScreenTimeCore
import Harnesses

/// Mutations of valid .ics text (the fixture exports): lines deleted, duplicated and swapped, huge
/// numbers, bad dates, broken nesting, hostile rules and zones, long lines, cut files, NUL and
/// non-UTF-8 bytes. Seeded and bounded in count and time: no case traps (a trap ends the test run;
/// the case is left in the folder printed at the start), each ends within its bound, and a valid
/// event in a sibling file always counts.
final class CalendarFuzzTests: XCTestCase {
    static let seed: UInt64 = 19
    static let cases = 300
    /// CPU seconds one case may cost a debug build (the hostile files' bound), and all of them.
    static let caseBound = 2.5
    static let totalBound = 90.0

    /// 2026-03-20 12:00 UTC, when the fixtures' events are, and the window the agent reads around it.
    static let now = Date(timeIntervalSince1970: 1_774_008_000)
    static let window = now.addingTimeInterval(-ModeResolver.lookBack)..<now.addingTimeInterval(32 * 86_400)

    func testMutatedCalendarsNeverTrapStayBoundedAndLeaveTheirSiblingsAlone() throws {
        let fixtures = EventSeriesTests.fixtures
        let bases = try FileManager.default.contentsOfDirectory(atPath: fixtures).filter { $0.hasSuffix(".ics") }.sorted()
            .map { try String(contentsOfFile: fixtures + "/" + $0, encoding: .utf8) }
        XCTAssertGreaterThanOrEqual(bases.count, 6)
        let fixture = try CalendarFileFixture()
        print("fuzz cases are written to \(fixture.folder)/case.ics (left there if one traps)")
        try fixture.write("work.ics", lines: ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//screentime tests//EN"]
                          + CalendarFileFixture.event("work@example", at: "20260325T090000") + ["END:VCALENDAR"])
        let expected = FixedOffsetZone(seconds: 0).at("2026-03-25 09:00")
        let reader = CalendarReader(zone: FixedOffsetZone(seconds: 3_600))
        let agenda = AgendaReader(zone: FixedOffsetZone(seconds: 3_600), limit: 1_000)

        var random = SplitMix64(seed: Self.seed)
        var total = 0.0, slowest = (cpu: 0.0, index: 0), problems = 0
        let began = Date()
        for index in 0..<Self.cases {
            let base = bases[Int(random.next() % UInt64(bases.count))]
            let bytes = CalendarMutation.mutate(base, times: 1 + Int(random.next() % 4), random: &random)
            try fixture.write("case.ics", bytes: bytes)
            let (result, cpu, _) = HostileCalendarTests.timed {
                let modes = reader.read(paths: [fixture.folder], range: Self.window, now: Self.now)
                let events = index % 4 == 0 ? agenda.read(paths: [fixture.folder], range: Self.window) : nil
                return (modes, events)
            }
            total += cpu
            if cpu > slowest.cpu { slowest = (cpu, index) }
            problems += result.0.problems.count
            XCTAssertLessThan(cpu, Self.caseBound, "case \(index) (mutations of \(bases.firstIndex(of: base)!))")
            XCTAssertTrue(result.0.intervals.contains { $0.source.hasSuffix("/work.ics") && $0.start == expected }, "case \(index): the sibling's event is lost")
            // The agenda keeps its first events (named when it cuts): a case may fill it before the sibling's day.
            if let agenda = result.1, !agenda.problems.contains(where: { $0.message.contains("events in the range; the first") }) {
                XCTAssertTrue(agenda.events.contains { $0.start == expected }, "case \(index): the sibling's agenda event is lost")
            }
        }
        try? FileManager.default.removeItem(atPath: fixture.folder + "/case.ics")
        print("\(Self.cases) fuzz cases in \(String(format: "%.1f", Date().timeIntervalSince(began))) s "
              + "(\(String(format: "%.1f", total)) s CPU; slowest case \(slowest.index): \(String(format: "%.2f", slowest.cpu)) s), \(problems) problems named")
        XCTAssertLessThan(total, Self.totalBound)
        XCTAssertGreaterThan(problems, Self.cases, "the mutations are damage the reader names")
    }
}

/// A fixed-seed generator (SplitMix64): the same cases on every run and machine.
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func pick<T>(_ choices: [T]) -> T { choices[Int(next() % UInt64(choices.count))] }
    mutating func below(_ bound: Int) -> Int { bound <= 0 ? 0 : Int(next() % UInt64(bound)) }
}

/// One damage to an .ics text, as a tester makes by hand.
enum CalendarMutation: CaseIterable {
    case deleteLine, duplicateLine, swapLines, hugeNumber, badDate, nesting, hostileProperty, longLine, cutFile, strayBytes

    static let numbers = ["0", "-1", "99999999999999999999", "2147483648", "4294967296", "9223372036854775808", "9999", "00000000", "32768"]
    static let dates = ["20261345T250000", "00000000T000000", "99991231T235959", "16010101", "20260230", "2026", "T", "21261215T100000",
                        "10000101T000000Z", "20260310T100000Z/PT99999999H", "-20260101"]
    static let nestingLines = ["BEGIN:VEVENT", "END:VEVENT", "BEGIN:VCALENDAR", "END:VCALENDAR", "BEGIN:VTIMEZONE", "END:VTIMEZONE",
                               "BEGIN:STANDARD", "BEGIN:VALARM", "END:DAYLIGHT", "BEGIN:", "END:"]
    static let hostileLines = ["RRULE:FREQ=SECONDLY", "RRULE:FREQ=MINUTELY;COUNT=2147483647", "RRULE:FREQ=YEARLY;INTERVAL=32767",
                               "RRULE:FREQ=DAILY;INTERVAL=0", "RRULE:FREQ=MONTHLY;BYSETPOS=-400;BYDAY=MO", "RRULE:FREQ=WEEKLY;UNTIL=99991231T235959Z",
                               "RRULE:FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=30", "RRULE:FREQ=SECONDLY;BYMONTH=2", "RRULE:FREQ=YEARLY;BYYEARDAY=366;BYHOUR=1,2,3",
                               "DURATION:P99999999W", "DURATION:-PT1S", "RDATE;VALUE=PERIOD:20260301T000000Z/99991231T000000Z", "EXDATE:99991231T000000Z",
                               "RECURRENCE-ID;RANGE=THISANDFUTURE:20260101T000000Z", "SEQUENCE:99999999999", "TZOFFSETFROM:+9999",
                               "DTSTART;TZID=Nowhere:20260310T100000", "RRULE:FREQ=MINUTELY", "DTSTART:16010101T000000", "RRULE:FREQ=YEARLY;COUNT=100000"]

    /// `text` damaged `times` times, as the bytes of a file.
    static func mutate(_ text: String, times: Int, random: inout SplitMix64) -> [UInt8] {
        var lines = text.components(separatedBy: "\r\n").count > 2 ? text.components(separatedBy: "\r\n") : text.components(separatedBy: "\n")
        var cut: Int?, stray: [(Int, UInt8)] = []
        for _ in 0..<times {
            let line = random.below(lines.count)
            switch random.pick(allCases) {
            case .deleteLine: lines.remove(at: line)
            case .duplicateLine: lines.insert(lines[line], at: random.below(lines.count + 1))
            case .swapLines: lines.swapAt(line, random.below(lines.count))
            case .hugeNumber:
                let target = lines.indices.filter { lines[$0].contains(where: \.isNumber) }.randomElement(using: &random) ?? line
                lines[target] = replacingADigitRun(in: lines[target], with: random.pick(numbers), random: &random)
            case .badDate:
                let timed = lines.indices.filter { index in ["DTSTART", "DTEND", "RECURRENCE-ID", "EXDATE", "RDATE", "DUE"].contains { lines[index].hasPrefix($0) } }
                let target = timed.randomElement(using: &random) ?? line
                let name = lines[target].split(separator: ":", maxSplits: 1).first.map(String.init) ?? "DTSTART"
                lines[target] = name + ":" + random.pick(dates)
            case .nesting: lines.insert(random.pick(nestingLines), at: line)
            case .hostileProperty: lines.insert(random.pick(hostileLines), at: max(1, line))
            case .longLine: lines[line] += String(repeating: random.pick(["x", "é", ";", ","]), count: 1_000 + random.below(100_000))
            case .cutFile: cut = random.below(text.utf8.count)
            case .strayBytes: stray.append((random.below(text.utf8.count), random.pick([0, 0xFF, 0xC3, 0x0D])))
            }
            if lines.isEmpty { lines = [""] }
        }
        var bytes = Array(lines.joined(separator: "\r\n").utf8)
        for (offset, byte) in stray { bytes.insert(byte, at: min(offset, bytes.count)) }
        if let cut { bytes = Array(bytes.prefix(cut)) }
        return bytes
    }

    private static func replacingADigitRun(in line: String, with number: String, random: inout SplitMix64) -> String {
        let characters = Array(line)
        let starts = characters.indices.filter { characters[$0].isNumber && ($0 == 0 || !characters[$0 - 1].isNumber) }
        guard let start = starts.randomElement(using: &random) else { return line }
        var end = start
        while end < characters.count, characters[end].isNumber { end += 1 }
        return String(characters[..<start]) + number + String(characters[end...])
    }
}

extension SplitMix64: RandomNumberGenerator {}
