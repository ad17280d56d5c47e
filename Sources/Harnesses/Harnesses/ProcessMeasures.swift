import Foundation

/// What /proc tells of a process's cost, for the benchmarks.
public enum ProcessMeasures {
    /// The fields of /proc/PID/stat after the command (whose name may hold spaces and parentheses):
    /// the state is the first here, the 3rd of proc(5). Empty when the process is gone.
    public static func statFields(_ pid: Int32) -> [Substring] {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        guard let close = stat.lastIndex(of: ")") else { return [] }
        return stat[stat.index(after: close)...].split(separator: " ")
    }

    /// User and system CPU seconds (/proc/PID/stat, in clock ticks of 10 ms).
    public static func cpuSeconds(_ pid: Int32) -> (user: Double, system: Double) {
        let fields = statFields(pid)
        // After the command: utime and stime are fields 14 and 15 of proc(5), 12th and 13th here.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return (0, 0) }
        let tick = Double(sysconf(Int32(_SC_CLK_TCK)))
        return (user / tick, system / tick)
    }

    /// User and system CPU seconds of the process's children that ended and were waited for (cutime
    /// and cstime, the 16th and 17th fields of proc(5)).
    public static func childrenCPUSeconds(_ pid: Int32) -> Double {
        let fields = statFields(pid)
        guard fields.count > 14, let user = Double(fields[13]), let system = Double(fields[14]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Resident memory in megabytes (VmRSS).
    public static func rssMegabytes(_ pid: Int32) -> Double {
        statusMegabytes(pid, "VmRSS")
    }

    /// Resident anonymous memory in megabytes (RssAnon): the heap and caches, without the code
    /// pages that come and go with what the process runs.
    public static func anonymousMegabytes(_ pid: Int32) -> Double {
        statusMegabytes(pid, "RssAnon")
    }

    private static func statusMegabytes(_ pid: Int32, _ field: String) -> Double {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
        return (line.split(separator: " ").dropFirst().first.flatMap { Double($0) } ?? 0) / 1024
    }

    /// Time on a CPU in seconds, to the nanosecond (/proc/PID/schedstat), where utime/stime count 10 ms ticks.
    public static func cpuTime(_ pid: Int32) -> Double {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/schedstat", encoding: .utf8)) ?? "0"
        return (Double(text.split(separator: " ").first ?? "0") ?? 0) / 1e9
    }

    /// The value at fraction `p` of `sorted` (nan when empty).
    public static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
    }
}
