import XCTest
import FoundationEssentials
import ScreenTimeCore
import Harnesses

final class CheatDayTests: XCTestCase {
    let zone = CentralEuropeanZone()

    func testBookedThirteenHoursAheadIsAcceptedAndLastsADay() throws {
        var book = CheatDayBook()
        let now = zone.at("2026-12-23 19:30")
        let booking = try book.book(start: now.addingTimeInterval(13 * 3600), now: now, zone: zone, id: "1")
        XCTAssertEqual(booking.start, zone.at("2026-12-24 08:30"))
        XCTAssertEqual(booking.end, zone.at("2026-12-25 08:30"))
        XCTAssertEqual(book.active(at: zone.at("2026-12-24 08:29:59")), nil)
        XCTAssertEqual(book.active(at: zone.at("2026-12-24 08:30")), booking)
        XCTAssertEqual(book.active(at: zone.at("2026-12-25 08:30")), nil)
    }

    func testBookedElevenHoursAheadIsRefusedNamingTheEarliestStart() {
        var book = CheatDayBook()
        let now = zone.at("2026-12-23 19:30")
        XCTAssertThrowsError(try book.book(start: now.addingTimeInterval(11 * 3600), now: now, zone: zone, id: "1")) { error in
            XCTAssertEqual("\(error)", "Cheat Day must be booked at least 12 hours ahead; the earliest start now is 2026-12-24 07:30.")
        }
        XCTAssertEqual(book.bookings, [])
        // Exactly twelve hours is enough.
        XCTAssertNoThrow(try book.book(start: now.addingTimeInterval(12 * 3600), now: now, zone: zone, id: "2"))
    }

    func testOverlappingBookingsAreRefusedAndCancellingIsAlwaysAllowed() throws {
        var book = CheatDayBook()
        let now = zone.at("2026-12-20 12:00")
        try book.book(start: zone.at("2026-12-24 08:00"), now: now, zone: zone, id: "1")
        XCTAssertThrowsError(try book.book(start: zone.at("2026-12-25 07:00"), now: now, zone: zone, id: "2")) { error in
            XCTAssertEqual("\(error)", "That overlaps the Cheat Day booked from 2026-12-24 08:00 to 2026-12-25 08:00 (1).")
        }
        try book.book(start: zone.at("2026-12-25 08:00"), now: now, zone: zone, id: "2")
        XCTAssertEqual(book.upcoming(now: zone.at("2026-12-25 09:00")).map(\.id), ["2"])
        XCTAssertEqual(book.cancel(id: "1")?.id, "1")
        XCTAssertEqual(book.bookings.map(\.id), ["2"])
    }

    func testABookingThatBreaksTheRuleIsIgnoredWhereverItIsUsed() {
        let start = zone.at("2026-12-24 08:00")
        let sneaky = CheatDayBooking(id: "x", start: start, bookedAt: start.addingTimeInterval(-3600))
        XCTAssertFalse(sneaky.respectsNotice)
        XCTAssertNil(CheatDayBook(bookings: [sneaky]).active(at: start.addingTimeInterval(60)))
        var inputs = ModeInputs()
        inputs.cheatDays = CheatDayBook(bookings: [sneaky])
        // 08:01 stays what it would be without the booking: Wake Up (06:00-09:00 with the default wake time).
        XCTAssertEqual(ModeResolver(inputs: inputs, zone: zone).resolve(at: start.addingTimeInterval(60)).mode, .wakeUp)
    }
}
