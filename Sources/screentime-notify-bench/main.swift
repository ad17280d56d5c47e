import ScreenTimeCore
import TestSupport

// The desktop days with default settings, the user continuing whenever disabled.
// Targets: at most 8 new bubbles a day per user, no disable of the developer's editor, terminal
// or browser in Productivity, every bubble with context.
print("day                              hours  new bubbles  updates in place  disables  work disables  bubbles without context")
for day in DesktopDays.all {
    let outcome = DesktopDays.run(day)
    let ledger = outcome.ledger
    let columns = [outcome.name.padding(32), String(format1(outcome.minutes / 60)).padding(5),
                   "\(ledger.newBubbles)".padding(11), "\(ledger.updatesInPlace)".padding(16),
                   "\(ledger.disabled.count)".padding(8), "\(outcome.workDisables)".padding(13),
                   "\(ledger.withoutContext.count)"]
    print(columns.joined(separator: "  "))
    for summary in ledger.withoutContext { print("    without context: \(summary)") }
}

func format1(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
}

extension String {
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
