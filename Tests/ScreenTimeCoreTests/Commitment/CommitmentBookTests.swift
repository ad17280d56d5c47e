import FoundationEssentials
import ScreenTimeCore
import Harnesses
import XCTest

/// Tightening is instant, loosening waits: the commitment book on a virtual clock.
final class CommitmentBookTests: XCTestCase {
    let zone = FixedOffsetZone(seconds: 3600)
    /// 2026-11-29 10:00 local (UTC+1): the next day starts 2026-11-30 04:00, 18 hours on.
    let morning = Date(timeIntervalSince1970: 1_795_910_400 + 9 * 3600)
    var dayStart: Date { morning.addingTimeInterval(18 * 3600) }

    func settings(_ change: (inout Settings) -> Void) -> Settings {
        var settings = Settings()
        change(&settings)
        return settings
    }

    /// A book whose baseline is `settings`.
    func book(_ settings: Settings = Settings()) -> CommitmentBook {
        CommitmentBook().reconciled(wanted: settings, now: morning, zone: zone).book
    }

    func testTheFirstReconciliationTakesTheSettingsAsTheyAre() {
        let wanted = settings { $0.limits["firefox"] = 7200; $0.important = ["keepassxc"] }
        let outcome = CommitmentBook().reconciled(wanted: wanted, now: morning, zone: zone)
        XCTAssertEqual(outcome.settings, wanted)
        XCTAssertEqual(outcome.book.pending, [])
        XCTAssertEqual(outcome.book.effective, wanted.facets)
    }

    func testRaisingALimitWaitsForTheDayStartAndThenApplies() {
        let raised = settings { $0.limits["firefox"] = 7200 }
        let outcome = book().reconciled(wanted: raised, now: morning, zone: zone)
        XCTAssertNil(outcome.settings.limits["firefox"], "the raise is in force before its time")
        XCTAssertEqual(outcome.settings.limit(for: "firefox"), 3600)
        XCTAssertEqual(outcome.book.pending, [PendingChange(facet: "limit:firefox", target: "7200", held: nil, made: morning, due: dayStart)])
        XCTAssertEqual(PendingChangeText.line(outcome.book.pending[0], settings: outcome.settings, now: morning, zone: zone),
                       "firefox: 2h a day from tomorrow, 04:00; today it stays 1h")

        let lateEvening = outcome.book.reconciled(wanted: raised, now: dayStart.addingTimeInterval(-1), zone: zone)
        XCTAssertEqual(lateEvening.settings.limit(for: "firefox"), 3600, "a second before the day start")
        let next = lateEvening.book.reconciled(wanted: raised, now: dayStart, zone: zone)
        XCTAssertEqual(next.settings.limit(for: "firefox"), 7200)
        XCTAssertEqual(next.book.pending, [])
        XCTAssertEqual(next.appliedLoosenings, ["limit:firefox"])
    }

    func testTighteningIsInstant() {
        let tighter = settings { $0.limits["firefox"] = 600; $0.defaultLimit = 1800; $0.limitScope = .all; $0.important = [] }
        let outcome = book(settings { $0.important = ["steam"] }).reconciled(wanted: tighter, now: morning, zone: zone)
        XCTAssertEqual(outcome.settings, tighter)
        XCTAssertEqual(outcome.book.pending, [])
    }

    func testEveryKindOfLooseningWaits() {
        var start = Settings()
        start.limits["firefox"] = 1800
        start.groupLimits[.content] = 3600
        start.limitScope = .all
        start.modes.schedule = [try! ScheduleEntry(configValue: "productivity 09:00 3h mon-fri", id: "work")]
        start.modes.calendarPaths = ["/home/me/work.ics"]
        start.modes.enabledModes.remove(.cheatDay)
        let loose = settings {
            $0.limits["firefox"] = nil
            $0.defaultLimit = 7200
            $0.limitScope = .leisure
            $0.important = ["steam"]
            $0.essential = ["discord"]
            $0.modes.enabledModes = [.standard, .social, .cheatDay]
            $0.modes.automatic.isEnabled = false
            $0.continueGrant = 7200
            $0.modes.bypassGrants[.productivity] = 3600
            $0.commitment.loosen = .now
        }
        let outcome = book(start).reconciled(wanted: loose, now: morning, zone: zone)
        XCTAssertEqual(outcome.settings.facets, start.facets, "nothing loosened before its time")
        XCTAssertEqual(Set(outcome.book.pending.map(\.facet)), Set(["limit:firefox", "limit:content", "default-limit", "limit-scope",
            "important:steam", "essential:discord", "mode:productivity", "mode:wind-down", "mode:sleep", "mode:wake-up", "mode:cheat-day",
            "automatic-modes", "schedule:work=productivity 09:00 3h mon-fri", "calendar:/home/me/work.ics", "continue-for",
            "bypass:productivity", "loosen"]))
        XCTAssertTrue(outcome.book.pending.allSatisfy { $0.due == dayStart })
        XCTAssertEqual(outcome.book.reconciled(wanted: loose, now: dayStart, zone: zone).settings, loose)
    }

    /// Moving an app between groups waits when it gives more: into a group a mode can allow (or
    /// the leisure scope leaves alone), out of leisure or of a group with a shared limit. Into
    /// content, or out of a group that let it through, holds at once.
    func testGroupEditsThatGiveMoreWait() {
        let start = settings { $0.groupLimits[.communication] = 1800; $0.groupEdits[.communication] = GroupEdit(added: ["telegram"]) }
        let loose = settings {
            $0.groupLimits[.communication] = 1800
            $0.groupEdits[.productivity] = GroupEdit(added: ["steam"])
            $0.groupEdits[.content] = GroupEdit(removed: ["mpv"])
            $0.groupEdits[.socialApps] = GroupEdit(added: ["discord"])
        }
        let outcome = book(start).reconciled(wanted: loose, now: morning, zone: zone)
        XCTAssertEqual(Set(outcome.book.pending.map(\.facet)),
                       ["group:productivity:steam", "group:content:mpv", "group:social-apps:discord", "group:communication:telegram"])
        XCTAssertEqual(outcome.settings.groupEdits, start.groupEdits, "nothing moved before its time")
        let texts = outcome.book.pending.map { PendingChangeText.line($0, settings: outcome.settings, now: morning, zone: zone) }
        XCTAssertTrue(texts.contains("steam: in productivity from tomorrow, 04:00; today it is not"), "\(texts)")
        XCTAssertTrue(texts.contains("mpv: out of content from tomorrow, 04:00; today it stays in"), "\(texts)")
        XCTAssertTrue(texts.contains("telegram: in communication as its categories say from tomorrow, 04:00; today it stays in"), "\(texts)")
        XCTAssertEqual(outcome.book.reconciled(wanted: loose, now: dayStart, zone: zone).settings.groupEdits, loose.groupEdits)

        let tighter = settings { $0.groupEdits[.content] = GroupEdit(added: ["steam"]); $0.groupEdits[.productivity] = GroupEdit(removed: ["firefox"]) }
        let tightened = book().reconciled(wanted: tighter, now: morning, zone: zone)
        XCTAssertEqual(tightened.book.pending, [])
        XCTAssertEqual(tightened.settings.groupEdits, tighter.groupEdits)
    }

    /// A title rule turned off or narrowed gives its windows' time back to the browser: it waits.
    /// A new rule, or a match added, holds at once.
    func testTitleRulesTurnedOffOrNarrowedWait() {
        let docs = TitleRule(name: "docs", matches: [TitleRule.Match(text: "firefox:Docs")!, TitleRule.Match(text: "firefox:Drive")!])
        let start = settings { $0.titleRules.append(docs) }
        let loose = settings {
            $0.titleRules.removeAll { $0.name == "youtube" }
            $0.titleRules.append(TitleRule(name: "docs", matches: [TitleRule.Match(text: "firefox:Docs")!]))
        }
        let outcome = book(start).reconciled(wanted: loose, now: morning, zone: zone)
        XCTAssertEqual(Set(outcome.book.pending.map(\.facet)), ["rule:youtube", "rule:docs"])
        XCTAssertEqual(outcome.settings.titleRules.first { $0.name == "docs" }?.matches.count, 2, "still both until the day start")
        XCTAssertTrue(outcome.settings.titleRules.contains { $0.name == "youtube" })
        let texts = outcome.book.pending.map { PendingChangeText.line($0, settings: outcome.settings, now: morning, zone: zone) }
        XCTAssertTrue(texts.contains("title rule youtube: off from tomorrow, 04:00; today it stays *:YouTube"), "\(texts)")
        XCTAssertTrue(texts.contains("title rule docs: firefox:Docs from tomorrow, 04:00; today it stays firefox:Docs;firefox:Drive"), "\(texts)")
        let applied = outcome.book.reconciled(wanted: loose, now: dayStart, zone: zone).settings
        XCTAssertFalse(applied.titleRules.contains { $0.name == "youtube" })
        XCTAssertEqual(applied.titleRules.first { $0.name == "docs" }?.matches.map(\.text), ["firefox:Docs"])

        let wider = settings { $0.titleRules.append(TitleRule(name: "docs", matches: docs.matches + [TitleRule.Match(text: "*:Notion")!])) }
        let widened = book(start).reconciled(wanted: wider, now: morning, zone: zone)
        XCTAssertEqual(widened.book.pending, [])
        XCTAssertEqual(widened.settings.titleRules, wider.titleRules)
    }

    func testAChangedScheduleEntryAddsTheNewAtOnceAndKeepsTheOldUntilTheDayStart() {
        let old = try! ScheduleEntry(configValue: "productivity 09:00 3h mon-fri", id: "work")
        let new = try! ScheduleEntry(configValue: "productivity 10:00 3h mon-fri", id: "work")
        let outcome = book(settings { $0.modes.schedule = [old] }).reconciled(wanted: settings { $0.modes.schedule = [new] }, now: morning, zone: zone)
        XCTAssertEqual(Set(outcome.settings.modes.schedule.map(\.configValue)), [old.configValue, new.configValue])
    }

    func testUndoingATighteningWithinTheTypoWindowAppliesAtOnce() {
        let typo = settings { $0.limits["firefox"] = 60 }
        let first = book().reconciled(wanted: typo, now: morning, zone: zone)
        XCTAssertEqual(first.settings.limit(for: "firefox"), 60)
        let fixed = first.book.reconciled(wanted: Settings(), now: morning.addingTimeInterval(120), zone: zone)
        XCTAssertEqual(fixed.settings.limit(for: "firefox"), 3600, "the typo fixed two minutes later holds at once")
        XCTAssertEqual(fixed.book.pending, [])
        XCTAssertEqual(fixed.appliedLoosenings, ["limit:firefox"])

        // Going past what held before the tightening waits, typo or not.
        let beyond = first.book.reconciled(wanted: settings { $0.limits["firefox"] = 7200 }, now: morning.addingTimeInterval(120), zone: zone)
        XCTAssertEqual(beyond.settings.limit(for: "firefox"), 60)
        // And after the window, undoing is a loosening like any other.
        let late = first.book.reconciled(wanted: Settings(), now: morning.addingTimeInterval(CommitmentSettings.typoWindow + 1), zone: zone)
        XCTAssertEqual(late.settings.limit(for: "firefox"), 60)
        XCTAssertEqual(late.book.pending.map(\.facet), ["limit:firefox"])
    }

    func testTheTypoWindowOutlivesOtherEdits() {
        let typo = book().reconciled(wanted: settings { $0.limits["firefox"] = 60 }, now: morning, zone: zone)
        let other = typo.book.reconciled(wanted: settings { $0.limits["firefox"] = 60; $0.idleThreshold = 60 }, now: morning.addingTimeInterval(60), zone: zone)
        let fixed = other.book.reconciled(wanted: settings { $0.idleThreshold = 60 }, now: morning.addingTimeInterval(120), zone: zone)
        XCTAssertEqual(fixed.settings.limit(for: "firefox"), 3600)
    }

    func testTakingBackAPendingChangeDropsIt() {
        let pending = book().reconciled(wanted: settings { $0.important = ["steam"] }, now: morning, zone: zone)
        XCTAssertEqual(pending.book.pending.count, 1)
        let back = pending.book.reconciled(wanted: Settings(), now: morning.addingTimeInterval(3600), zone: zone)
        XCTAssertEqual(back.book.pending, [])
        XCTAssertEqual(back.book.reconciled(wanted: Settings(), now: dayStart, zone: zone).settings.important, [])
    }

    func testTheRuleInForceSetsTheDueTime() {
        for (rule, due) in [(LoosenRule.twelveHours, morning.addingTimeInterval(12 * 3600)), (.oneHour, morning.addingTimeInterval(3600))] {
            let start = settings { $0.commitment.loosen = rule }
            let outcome = book(start).reconciled(wanted: settings { $0.commitment.loosen = rule; $0.defaultLimit = 7200 }, now: morning, zone: zone)
            XCTAssertEqual(outcome.book.pending.map(\.due), [due], "\(rule)")
        }
        let now = settings { $0.commitment.loosen = .now }
        let outcome = book(now).reconciled(wanted: settings { $0.commitment.loosen = .now; $0.defaultLimit = 7200 }, now: morning, zone: zone)
        XCTAssertEqual(outcome.settings.defaultLimit, 7200, "loosen = now is the old behaviour")
        XCTAssertEqual(outcome.book.pending, [])
    }

    func testAStillLooserChangeKeepsItsDueTimeAndAnotherTargetStartsAgain() {
        let first = book().reconciled(wanted: settings { $0.defaultLimit = 7200 }, now: morning, zone: zone)
        let same = first.book.reconciled(wanted: settings { $0.defaultLimit = 7200 }, now: morning.addingTimeInterval(600), zone: zone)
        XCTAssertEqual(same.book.pending, first.book.pending)
        let hourly = settings { $0.commitment.loosen = .oneHour }
        let quick = book(hourly).reconciled(wanted: settings { $0.commitment.loosen = .oneHour; $0.defaultLimit = 7200 }, now: morning, zone: zone)
        let other = quick.book.reconciled(wanted: settings { $0.commitment.loosen = .oneHour; $0.defaultLimit = 9000 }, now: morning.addingTimeInterval(1800), zone: zone)
        XCTAssertEqual(other.book.pending.map(\.due), [morning.addingTimeInterval(5400)], "a new target is a new change")
    }

    func testTheBookSurvivesEncoding() throws {
        let outcome = book().reconciled(wanted: settings { $0.important = ["steam"]; $0.limits["x"] = 60 }, now: morning, zone: zone)
        let decoded = try JSONDecoder().decode(CommitmentBook.self, from: JSONEncoder().encode(outcome.book))
        XCTAssertEqual(decoded, outcome.book)
    }

    func testFacetIdsReadBack() {
        var all = Settings()
        all.limits["firefox"] = 60
        all.groupLimits[.content] = 60
        all.important = ["a"]
        all.essential = ["b"]
        all.modes.schedule = [try! ScheduleEntry(configValue: "sleep 23:00 8h", id: "night")]
        all.modes.calendarPaths = ["/x.ics"]
        all.modes.bypassGrants[.windDown] = 600
        all.groupEdits[.productivity] = GroupEdit(added: ["steam"], removed: ["gedit"])
        for id in all.facets.keys { XCTAssertEqual(SettingsFacet(id: id)?.id, id) }
        XCTAssertNil(SettingsFacet(id: "nonsense"))
        XCTAssertNil(SettingsFacet(id: "mode:nonsense"))
        var copy = Settings()
        for (id, value) in all.facets { copy.setFacet(id, to: value) }
        XCTAssertEqual(copy.facets, all.facets)
    }
}
