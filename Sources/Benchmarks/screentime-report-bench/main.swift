import Foundation
import ScreenTimeCore
import UsageStore

// A year of synthetic history (about 200 focus changes a day) written through UsageStore into a
// real SQLite file under a fresh HOME, then the built `screentime report` timed on it as a user
// runs it: `report week`, `report --from <a year ago>` (as text, JSON and the HTML page). Prints the median and the slowest of the runs.
// Usage: screentime-report-bench SCREENTIME_BINARY [days] [runs]
let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: screentime-report-bench SCREENTIME_BINARY [days] [runs]\n".utf8))
    exit(64)
}
let binary = arguments[1]
let days = arguments.count > 2 ? Int(arguments[2]) ?? 365 : 365
let runs = arguments.count > 3 ? Int(arguments[3]) ?? 11 : 11
let home = FileManager.default.temporaryDirectory.appendingPathComponent("screentime-report-bench-\(UUID().uuidString)")
defer { if ProcessInfo.processInfo.environment["SCREENTIME_BENCH_KEEP"] == nil { try? FileManager.default.removeItem(at: home) } else { print("kept \(home.path)") } }

let written = ContinuousClock().measure {
    do {
        let store = try UsageDatabase(path: home.appendingPathComponent(".local/share/screentime/screentime.db").path)
        var generator = HistoryGenerator(days: days)
        print("history: \(try generator.write(into: store, endingAt: Date())) focus changes over \(days) days")
    } catch {
        FileHandle.standardError.write(Data("screentime-report-bench: \(error)\n".utf8))
        exit(1)
    }
}
print("written in \(written)")

let environment = ["HOME": home.path, "TZ": "UTC", "PATH": "/usr/bin:/bin", "XDG_DATA_DIRS": "/usr/share"]
let today = Date()
let yearAgo = Date(timeIntervalSinceNow: -Double(days - 1) * 86_400).formatted(.iso8601.year().month().day())
let todayText = today.formatted(.iso8601.year().month().day())
for (name, command) in [("report week", ["report", "week"]),
                        ("report --from \(yearAgo) --to \(todayText)", ["report", "--from", yearAgo, "--to", todayText]),
                        ("report --from … --json", ["report", "--from", yearAgo, "--to", todayText, "--json"]),
                        ("report --from … --html", ["report", "--from", yearAgo, "--to", todayText, "--html", home.appendingPathComponent("report.html").path])] {
    var times: [Duration] = []
    for _ in 0..<runs {
        // Spawned and reaped here: Foundation's Process.waitUntilExit looks every 50 ms, which rounds every time up.
        var status: Int32 = -1
        let elapsed = ContinuousClock().measure { status = run(binary, command, environment: environment) }
        guard status == 0 else {
            FileHandle.standardError.write(Data("screentime-report-bench: `screentime \(command.joined(separator: " "))` exited \(status)\n".utf8))
            exit(1)
        }
        times.append(elapsed)
    }
    times.sort()
    let ms = { (d: Duration) in String(format: "%.1f ms", Double(d.components.attoseconds) / 1e15 + Double(d.components.seconds) * 1000) }
    // The fastest too: on a shared virtual machine the others carry its neighbours' load.
    print("\(name): fastest \(ms(times[0])), median \(ms(times[times.count / 2])), slowest \(ms(times[times.count - 1])) over \(runs) runs (whole process)")
}

/// Runs `binary` with `arguments` and `environment`, its output to /dev/null; its exit status (-1 if it could not start).
func run(_ binary: String, _ arguments: [String], environment: [String: String]) -> Int32 {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    let argv = ([binary] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, binary, &actions, nil, argv, envp) == 0 else { return -1 }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 { if errno != EINTR { return -1 } }
    return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
}
