import FoundationEssentials
import ScreenTimeCore

/// One booking as `ListCheatDays` returns it (JSON), times in Unix seconds.
public struct CheatDayListing: Codable, Equatable, Sendable {
    public var id: String
    public var start: Double
    public var end: Double
    public var bookedAt: Double
    /// False for a booking that does not keep the 12-hour notice (a hand edit): it will not start.
    public var valid: Bool

    public init(_ booking: CheatDayBooking) {
        id = booking.id
        start = booking.start.timeIntervalSince1970
        end = booking.end.timeIntervalSince1970
        bookedAt = booking.bookedAt.timeIntervalSince1970
        valid = booking.respectsNotice
    }
}
