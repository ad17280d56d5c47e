import Glibc
import FoundationEssentials
import ScreenTimeCore

/// The user's time zone from tzdata (TZ or /etc/localtime), through `localtime_r`.
public struct SystemTimeZone: LocalTimeZone {
    public init() { tzset() }

    public func utcOffset(at instant: Date) -> Int {
        var seconds = time_t(instant.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return 0 }
        return Int(parts.tm_gmtoff)
    }
}
