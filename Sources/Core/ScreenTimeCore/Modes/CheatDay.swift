import FoundationEssentials

/// A booked Cheat Day: 24 hours without limits, booked at least 12 hours ahead.
public struct CheatDayBooking: Hashable, Sendable {
    public var id: String
    public var start: Date
    /// When the booking was made: the 12-hour rule is checked against it wherever a booking is used.
    public var bookedAt: Date
    /// A pause (`screentime pause`): as a Cheat Day, without restrictions, for its own length; its
    /// start keeps the loosening rule instead of the 12 hours (Pause.swift).
    public var pause: TimeInterval?

    public static let length: TimeInterval = 24 * 3600
    public static let notice: TimeInterval = 12 * 3600
    /// How far ahead a booking may start.
    public static let farthestAhead = DurationText.longest

    public init(id: String, start: Date, bookedAt: Date) {
        self.id = id
        self.start = start
        self.bookedAt = bookedAt
    }

    public var end: Date { start.addingTimeInterval(pause ?? CheatDayBooking.length) }
    public var interval: Range<Date> { Range(from: start, upTo: end) }

    /// Whether the booking keeps the rule; a hand-edited or back-dated booking that does not is ignored.
    public var respectsNotice: Bool { pause != nil ? start >= bookedAt : start.timeIntervalSince(bookedAt) >= CheatDayBooking.notice }
}

/// Why a Cheat Day could not be booked.
public struct CheatDayError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The bookings, and the rules for adding one. Every entry point (CLI, D-Bus, the resolver reading
/// the stored bookings) goes through `validate` or `CheatDayBooking.respectsNotice`.
public struct CheatDayBook: Equatable, Sendable {
    public private(set) var bookings: [CheatDayBooking]

    public init(bookings: [CheatDayBooking] = []) {
        self.bookings = bookings.sorted { $0.start < $1.start }
    }

    /// Checks a booking starting at `start`, made at `now`; the message names what would be allowed.
    public func validate(start: Date, now: Date, zone: LocalTimeZone) throws(CheatDayError) {
        guard start.timeIntervalSince(now) >= CheatDayBooking.notice else {
            let earliest = zone.formatMinute(now.addingTimeInterval(CheatDayBooking.notice))
            throw CheatDayError("Cheat Day must be booked at least 12 hours ahead; the earliest start now is \(earliest).")
        }
        guard start.timeIntervalSince(now) <= CheatDayBooking.farthestAhead else {
            throw CheatDayError("A Cheat Day can be booked up to a year ahead; \(zone.formatMinute(start)) is farther.")
        }
        let wanted = Range(from: start, upTo: start.addingTimeInterval(CheatDayBooking.length))
        if let clash = bookings.first(where: { $0.interval.overlaps(wanted) }) {
            throw CheatDayError("That overlaps the Cheat Day booked from \(zone.formatMinute(clash.start)) to \(zone.formatMinute(clash.end)) (\(clash.id)).")
        }
    }

    /// Books a Cheat Day after `validate`.
    @discardableResult
    public mutating func book(start: Date, now: Date, zone: LocalTimeZone, id: String) throws(CheatDayError) -> CheatDayBooking {
        try validate(start: start, now: now, zone: zone)
        let booking = CheatDayBooking(id: id, start: start, bookedAt: now)
        bookings.append(booking)
        bookings.sort { $0.start < $1.start }
        return booking
    }

    /// Cancels a booking, even one under way: ending a Cheat Day early is always allowed.
    @discardableResult
    public mutating func cancel(id: String) -> CheatDayBooking? {
        guard let index = bookings.firstIndex(where: { $0.id == id }) else { return nil }
        return bookings.remove(at: index)
    }

    /// Bookings not yet over at `now`, soonest first.
    public func upcoming(now: Date) -> [CheatDayBooking] { bookings.filter { $0.end > now } }

    /// The booking in force at `instant`, if any (only bookings that respect the notice count).
    public func active(at instant: Date) -> CheatDayBooking? {
        bookings.first { $0.respectsNotice && $0.interval.contains(instant) }
    }
}
