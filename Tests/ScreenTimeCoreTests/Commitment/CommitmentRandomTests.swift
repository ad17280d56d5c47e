import FoundationEssentials
import ScreenTimeCore
import Harnesses
import XCTest

/// Seeded random settings through the book: it never loosens early, and never loses a tightening.
final class CommitmentRandomTests: XCTestCase {
    let zone = FixedOffsetZone(seconds: 3600)
    let start = Date(timeIntervalSince1970: 1_795_910_400)
    static let apps: [AppID] = ["firefox", "steam", "chess", "notes", "mpv-x"]
    static let entries = ["productivity 09:00 3h mon-fri", "productivity 10:00 2h", "sleep 23:00 8h", "wind-down 21:00 1h sat"]

    func randomSettings(_ random: inout SplitMix64) -> Settings {
        var settings = Settings()
        let durations: [TimeInterval] = [60, 600, 1800, 3600, 7200]
        settings.defaultLimit = durations.randomElement(using: &random)!
        settings.limitScope = Bool.random(using: &random) ? .all : .leisure
        for app in Self.apps {
            if Int.random(in: 0..<3, using: &random) == 0 { settings.limits[app] = durations.randomElement(using: &random)! }
            if Int.random(in: 0..<5, using: &random) == 0 { settings.important.insert(app) }
            if Int.random(in: 0..<7, using: &random) == 0 { settings.essential.insert(app) }
        }
        if Bool.random(using: &random) { settings.groupLimits[.content] = durations.randomElement(using: &random)! }
        for mode in Mode.allCases where mode != .standard && Int.random(in: 0..<4, using: &random) == 0 { settings.modes.enabledModes.remove(mode) }
        settings.modes.automatic.isEnabled = Int.random(in: 0..<3, using: &random) != 0
        for (index, text) in Self.entries.enumerated() where Bool.random(using: &random) {
            settings.modes.schedule.append(try! ScheduleEntry(configValue: text, id: "e\(index % 2)"))
        }
        if Bool.random(using: &random) { settings.modes.calendarPaths = ["/c.ics"] }
        settings.continueGrant = durations.randomElement(using: &random)!
        settings.commitment.loosen = LoosenRule.allCases.randomElement(using: &random)!
        settings.idleThreshold = [60, 180].randomElement(using: &random)!
        return settings
    }

    func assertNoLooser(_ after: Settings, than before: Settings, except allowed: Set<String>, seed: UInt64, step: Int,
                        file: StaticString = #filePath, line: UInt = #line) {
        let (a, b) = (before.facets, after.facets)
        for id in Set(a.keys).union(b.keys) where !allowed.contains(id) {
            XCTAssertNotEqual(SettingsFacet(id: id)!.looseness(from: a[id], to: b[id], before: a, after: b), .looser,
                              "seed \(seed) step \(step): \(id) loosened early (\(a[id] ?? "-") → \(b[id] ?? "-"))", file: file, line: line)
        }
        // What the engine asks of them: an app's limit and whether it is restricted at all.
        for app in Self.apps where !allowed.contains(where: { $0.hasSuffix(":\(app.rawValue)") || $0 == "default-limit" || $0 == "limit-scope" }) {
            XCTAssertLessThanOrEqual(after.limit(for: app) ?? .infinity, before.limit(for: app) ?? .infinity,
                                     "seed \(seed) step \(step): \(app)'s limit grew", file: file, line: line)
            if !before.isEssential(app) { XCTAssertFalse(after.isEssential(app), "seed \(seed) step \(step): \(app) became essential early") }
        }
    }

    func testARandomChangeNeverLoosensEarlyAndKeepsEveryTightening() {
        for seed in UInt64(1)...600 {
            var random = SplitMix64(seed: seed)
            let (before, wanted) = (randomSettings(&random), randomSettings(&random))
            let now = start.addingTimeInterval(TimeInterval(Int.random(in: 0..<86_400, using: &random)))
            let book = CommitmentBook().reconciled(wanted: before, now: now.addingTimeInterval(-3600), zone: zone).book
            let outcome = book.reconciled(wanted: wanted, now: now, zone: zone)
            let (a, w, e) = (before.facets, wanted.facets, outcome.settings.facets)
            XCTAssertEqual(e, outcome.book.effective, "seed \(seed): the book's facets are the settings'")
            assertNoLooser(outcome.settings, than: before, except: Set(outcome.appliedLoosenings), seed: seed, step: 0)
            for id in Set(a.keys).union(w.keys) where SettingsFacet(id: id)!.looseness(from: a[id], to: w[id], before: a, after: w) != .looser {
                XCTAssertEqual(e[id], w[id], "seed \(seed): the tightening of \(id) was lost")
            }
            // Everything not a facet is the file's at once.
            XCTAssertEqual(outcome.settings.idleThreshold, wanted.idleThreshold)
            // At the last due time, what holds is what was wanted.
            let due = outcome.book.pending.map(\.due).max() ?? now
            XCTAssertTrue(outcome.book.pending.allSatisfy { $0.due > now })
            XCTAssertEqual(outcome.book.reconciled(wanted: wanted, now: due, zone: zone).settings.facets, w, "seed \(seed)")
        }
    }

    func testAWeekOfRandomEditsOnlyLoosensWhenDue() {
        for seed in UInt64(1)...120 {
            var random = SplitMix64(seed: seed)
            var now = start
            var outcome = CommitmentBook().reconciled(wanted: randomSettings(&random), now: now, zone: zone)
            var wanted = outcome.settings
            for step in 1...30 {
                now = now.addingTimeInterval(TimeInterval(Int.random(in: 1...(6 * 3600), using: &random)))
                if Int.random(in: 0..<3, using: &random) != 0 { wanted = randomSettings(&random) }
                let previous = outcome
                outcome = previous.book.reconciled(wanted: wanted, now: now, zone: zone)
                // Only what came due may loosen; a typo fix only back to the value before its tightening.
                var due = Set(previous.book.pending.filter { $0.due <= now }.map(\.facet))
                // `loosen = now` in force: every loosening is due at once, the old behaviour.
                if previous.settings.commitment.loosen == .now { due.formUnion(outcome.appliedLoosenings) }
                let typos = Set(outcome.appliedLoosenings).subtracting(due)
                for id in typos {
                    let before = previous.book.tightenings.first { $0.facet == id }
                    XCTAssertNotNil(before, "seed \(seed) step \(step): \(id) loosened with no tightening to undo")
                }
                assertNoLooser(outcome.settings, than: previous.settings, except: Set(outcome.appliedLoosenings), seed: seed, step: step)
                XCTAssertTrue(Set(outcome.appliedLoosenings).isSubset(of: due.union(typos)))
            }
        }
    }
}
