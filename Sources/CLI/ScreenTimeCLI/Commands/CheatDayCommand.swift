import AgentControl
import FoundationEssentials
import ScreenTimeCore

struct CheatDayCommand: Subcommand {
    static let name = "cheat-day"
    static let abstract = "Book a day without limits, at least 12 hours ahead"
    static let usage = ["cheat-day book WHEN     (WHEN: \"2026-12-24 08:00\", \"tomorrow 20:00\", 08:00)",
                        "cheat-day list", "cheat-day cancel ID"]

    enum Action {
        /// WHEN as given: "tomorrow" is read against the command's now, in `run`.
        case book(String)
        case list
        case cancel(String)
    }

    let action: Action

    init(_ arguments: Arguments) throws {
        switch try arguments.next("an action (book, list, cancel)") {
        case "book":
            action = .book(try arguments.next("WHEN"))
        case "list": action = .list
        case "cancel": action = .cancel(try arguments.next("ID"))
        case let other: throw UsageError(message: "unknown action `\(other)`")
        }
        try arguments.finish()
    }

    func run(_ context: Context) throws {
        let zone = context.zone
        switch action {
        case .book(let text):
            let now = context.now
            let when: WhenText
            do { when = try WhenText.parse(text, now: now, zone: zone) } catch { throw UsageError(message: error.message) }
            let start = when.instant(after: now, zone: zone)
            let id = try context.agent { try $0.bookCheatDay(start: start) }
            let end = start.addingTimeInterval(CheatDayBooking.length)
            context.print("Cheat Day \(id) booked: \(zone.formatMinute(start)) to \(zone.formatMinute(end)). Enjoy it; your usage is still recorded.")
        case .list:
            let bookings = try context.agent { try $0.cheatDays() }
            guard !bookings.isEmpty else { return context.print("No Cheat Day booked.") }
            for booking in bookings {
                let from = zone.formatMinute(Date(timeIntervalSince1970: booking.start))
                let to = zone.formatMinute(Date(timeIntervalSince1970: booking.end))
                context.print("\(booking.id)  \(from) to \(to)" + (booking.valid ? "" : "  (not booked 12 hours ahead: will not start)"))
            }
        case .cancel(let id):
            try context.agent { try $0.cancelCheatDay(id: id) }
            context.print("Cheat Day \(id) cancelled.")
        }
    }
}
