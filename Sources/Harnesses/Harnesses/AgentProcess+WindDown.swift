import Foundation
import ScreenTimeCore

extension AgentProcess {
    /// An agent in Wind Down whatever the hour the test runs at: the time-of-day modes on, in UTC,
    /// bedtime pinned 30 minutes from now (Wind Down is the hour before it).
    public static func inWindDown(on desk: AgentDesktop) throws -> AgentProcess {
        let utc = FixedOffsetZone(seconds: 0)
        let clock = { (date: Date) in
            let time = utc.localDateTime(of: date).time
            return WallTime(hour: time.hour, minute: time.minute).description
        }
        var environment = try freshEnvironment(on: desk, config: """
            [general]
            idle-after = 1h
            [modes]
            automatic = on
            bedtime = \(clock(Date().addingTimeInterval(30 * 60)))
            wake-time = \(clock(Date().addingTimeInterval(8 * 3600)))
            """)
        environment["TZ"] = "UTC"
        return try AgentProcess(environment: environment, desk: desk)
    }
}
