import CalendarFeed
import Foundation
import ScreenTimeCore
import Harnesses

// The calendar benchmark: generated exports of about 1 MB and 10 MB (a VTIMEZONE, events with long
// folded descriptions, a weekly series every tenth event, damaged lines libical warns about in every
// eighth event) written to a temporary folder and read as `screentime calendar expand` reads them,
// a month around the events. Prints the median and the slowest read of each. Target: the 1 MB file
// in well under a second (the agent stops an expansion after 10 s, for all calendars together).
// Usage: screentime-calendar-bench [runs]; SCREENTIME_BENCH_KEEP=1 keeps the files.
let runs = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 5 : 5
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("screentime-calendar-bench-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { if ProcessInfo.processInfo.environment["SCREENTIME_BENCH_KEEP"] == nil { try? FileManager.default.removeItem(at: folder) } else { print("kept \(folder.path)") } }

let zone = FixedOffsetZone(seconds: 3600)
let range = Date(timeIntervalSince1970: 1_772_323_200)..<Date(timeIntervalSince1970: 1_777_593_600) // 2026-03-01 … 2026-05-01 UTC
let milliseconds = { (d: Duration) in String(format: "%.1f ms", Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15) }
for megabytes in [1, 10] {
    let export = DamagedCalendarExport(approximateBytes: megabytes * 1_000_000, damagedEvery: 8)
    let path = folder.appendingPathComponent("export-\(megabytes)mb.ics").path
    try Data(export.text.utf8).write(to: URL(fileURLWithPath: path))
    var reader = CalendarReader(zone: zone)
    reader.perFileLimit = .max
    var times: [Duration] = []
    var result: CalendarReadResult?
    for _ in 0..<runs {
        times.append(ContinuousClock().measure {
            do { result = try reader.readFile(path, range: range) } catch {
                FileHandle.standardError.write(Data("screentime-calendar-bench: \(error)\n".utf8))
                exit(1)
            }
        })
    }
    times.sort()
    guard let result else { break }
    print("\(megabytes) MB (\(export.text.utf8.count) bytes, \(export.events) events, \(export.damagedLines) damaged lines): "
          + "\(result.intervals.count) of \(export.modeOccurrences) mode occurrences, \(result.problems.count) problems shown; "
          + "read in median \(milliseconds(times[times.count / 2])), slowest \(milliseconds(times.last!)) over \(runs) runs")
    guard result.intervals.count == export.modeOccurrences else {
        FileHandle.standardError.write(Data("screentime-calendar-bench: expected \(export.modeOccurrences) mode occurrences\n".utf8))
        exit(1)
    }
}
