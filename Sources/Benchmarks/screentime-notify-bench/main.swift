import ScreenTimeCore
import Harnesses

// The desktop days and evenings with default settings, the user continuing whenever
// disabled. Targets (InterruptionBudget): at most 8 interruptions (new bubbles and cards) a day or
// an evening, none about the same thing sooner than 30 minutes unless the user chose a shorter
// continue, a continue in Wind Down or Sleep covering the evening's leisure, one reminder after a
// continue past a limit; no disable of the developer's editor, terminal or browser in
// Productivity; every bubble with context. `--timeline` lists each day's interruptions.
let timeline = CommandLine.arguments.dropFirst().contains("--timeline")
print("day                              hours  interruptions  new bubbles  cards  updates in place  disables  continues  work disables  without context  budget")
for day in DesktopDays.all {
    let outcome = DesktopDays.run(day)
    let ledger = outcome.ledger
    let misses = InterruptionBudget.misses(outcome)
    let columns = [outcome.name.padding(32), String(format1(outcome.minutes / 60)).padding(5),
                   "\(ledger.interruptions.count)".padding(13), "\(ledger.newBubbles)".padding(11), "\(ledger.cards)".padding(5),
                   "\(ledger.updatesInPlace)".padding(16), "\(ledger.disabled.count)".padding(8),
                   "\(outcome.continues.count)".padding(9), "\(outcome.workDisables)".padding(13),
                   "\(ledger.withoutContext.count)".padding(15), misses.isEmpty ? "held" : "\(misses.count) missed"]
    print(columns.joined(separator: "  "))
    for summary in ledger.withoutContext { print("    without context: \(summary)") }
    for miss in misses { print("    missed: \(miss)") }
    if timeline {
        for interruption in ledger.interruptions {
            let kind = interruption.card.map { "card (\($0.occasion.rawValue), \($0.mode.rawValue))" } ?? "bubble"
            print("    \(InterruptionBudget.clock(interruption.at))  \(kind.padding(24))  \(interruption.summary)")
        }
    }
}

func format1(_ value: Double) -> String {
    let tenths = Int((value * 10).rounded())
    return "\(tenths / 10).\(tenths % 10)"
}

extension String {
    func padding(_ width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
}
