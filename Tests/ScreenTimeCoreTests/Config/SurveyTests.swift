import ScreenTimeCore
import XCTest

final class SurveyTests: XCTestCase {
    let installed = [
        DesktopEntry(id: "org.gnome.Calculator", name: "Calculator", categories: ["Utility"]),
        DesktopEntry(id: "mpv", name: "mpv Media Player", categories: ["AudioVideo"]),
        DesktopEntry(id: "hidden-helper", name: "Helper", noDisplay: true),
        DesktopEntry(id: "gnome-control-center", name: "Settings", categories: ["Settings"]),
        DesktopEntry(id: "Alacritty", name: "alacritty", categories: ["TerminalEmulator"]),
    ]

    func survey(_ settings: Settings = Settings(), seen: [AppID: TimeInterval] = [:], files: Set<String> = []) -> Survey {
        Survey(answers: SurveyAnswers(current: settings, autostart: true), settings: settings, seen: seen, installed: installed,
               fileExists: { files.contains($0) })
    }

    func written(_ answers: SurveyAnswers, into text: String = Settings.template) throws -> (KeyFile, Settings) {
        var file = try KeyFile(parsing: text)
        answers.apply(to: &file)
        return (file, try Settings(KeyFile(parsing: file.text), path: "config"))
    }

    func testAFreshConfigAnswersAsTheProductsDefaults() {
        let answers = survey().answers
        XCTAssertEqual(answers.goals, Set(SurveyGoal.allCases))
        XCTAssertEqual(answers.bedtime, WallTime(hour: 23, minute: 0))
        XCTAssertEqual(answers.wakeTime, WallTime(hour: 7, minute: 0))
        XCTAssertFalse(answers.pinSleepTimes)
        XCTAssertEqual(answers.important, [])
        XCTAssertEqual(answers.defaultLimit, 3600)
        XCTAssertEqual(answers.limitScope, .leisure)
        XCTAssertTrue(answers.productivityGrayscale)
        XCTAssertNil(answers.todo)
        XCTAssertEqual(answers.feeds, [])
        XCTAssertEqual(survey().prompt(.limit), "Daily limit, and the apps it covers: leisure (content, social and unknown apps) or all [1h leisure]: ")
    }

    func testTypedAnswersAreReadAndWrittenAsSettings() throws {
        var survey = survey(seen: [AppID("firefox"): 600, AppID("mpv"): 1200], files: ["~/todo.txt"])
        try survey.answer(.goals, "1, sleep")
        try survey.answer(.bedtime, "22:30")
        try survey.answer(.wakeTime, "6:45")
        try survey.answer(.sleepTimesKind, "fixed")
        try survey.answer(.important, "2 org.gnome.Calculator")
        try survey.answer(.limit, "45m all")
        try survey.answer(.grayscale, "no")
        try survey.answer(.todo, "~/todo.txt")
        try survey.answer(.feeds, "https://example.org/a.rss file:///tmp/b.xml")
        try survey.answer(.autostart, "n")
        let (_, settings) = try written(survey.answers)
        XCTAssertEqual(settings.modes.enabledModes, [.standard, .productivity, .windDown, .sleep, .wakeUp, .cheatDay])
        XCTAssertTrue(settings.modes.automatic.isEnabled)
        XCTAssertEqual(settings.modes.pinnedBedtime, WallTime(hour: 22, minute: 30))
        XCTAssertEqual(settings.modes.pinnedWakeTime, WallTime(hour: 6, minute: 45))
        XCTAssertEqual(settings.important, [AppID("firefox"), AppID("org.gnome.Calculator")])
        XCTAssertEqual(settings.defaultLimit, 45 * 60)
        XCTAssertEqual(settings.limitScope, .all)
        XCTAssertEqual(settings.profile(for: .productivity).displayFilter, .none)
        XCTAssertEqual(settings.content.todoPath, "~/todo.txt")
        XCTAssertEqual(settings.content.feeds, ["https://example.org/a.rss", "file:///tmp/b.xml"])
        XCTAssertFalse(survey.answers.autostart)
    }

    func testABadAnswerGivesAHintAndChangesNothing() {
        var survey = survey()
        let before = survey.answers
        let bad: [(SurveyQuestion, String, String)] = [
            (.goals, "4", "not a goal"), (.goals, "fun", "not a goal"), (.bedtime, "25:00", "HH:MM"), (.wakeTime, "7am", "HH:MM"),
            (.sleepTimesKind, "maybe", "learn or fixed"), (.important, "12", "not in the list"), (.important, "nosuchapp", "not an app seen"),
            (.limit, "2 hours", "neither a duration"), (.limit, "25h", "neither a duration"), (.limit, "1h all leisure", "at most"),
            (.grayscale, "gray", "yes or no"), (.todo, "~/missing.txt", "no file at ~/missing.txt"), (.feeds, "example.org/feed", "not a link"),
            (.autostart, "later", "yes or no"),
        ]
        for (question, typed, fragment) in bad {
            XCTAssertThrowsError(try survey.answer(question, typed), "\(question) \(typed)") { error in
                XCTAssertTrue((error as? SurveyHint)?.message.contains(fragment) == true, "\(error)")
            }
            XCTAssertEqual(survey.answers, before)
        }
    }

    func testEnterAndTheShownAnswerKeepTheCurrentOnes() throws {
        var settings = Settings()
        settings.modes.enabledModes = [.standard, .social]
        settings.modes.automatic.isEnabled = false
        settings.important = [AppID("mpv")]
        settings.defaultLimit = 5400
        settings.content.feeds = ["https://example.org/a.rss"]
        settings.content.todoPath = "/notes/todo"
        var survey = survey(settings, files: ["/notes/todo"])
        let before = survey.answers
        for question in SurveyQuestion.allCases {
            try survey.answer(question, "")
            try survey.answer(question, survey.currentAnswer(question))
        }
        XCTAssertEqual(survey.answers, before)
        XCTAssertEqual(before.goals, [.lessSocialMedia])
        XCTAssertEqual(survey.currentAnswer(.limit), "1h30m leisure")
    }

    func testRerunningOffersWhatWasWritten() throws {
        var survey = survey(files: [])
        try survey.answer(.goals, "less social media")
        try survey.answer(.important, "mpv")
        try survey.answer(.limit, "2h")
        let (file, settings) = try written(survey.answers)
        XCTAssertEqual(SurveyAnswers(current: settings, autostart: true).goals, [.lessSocialMedia])
        XCTAssertEqual(settings.modes.enabledModes, [.standard, .social, .windDown, .sleep, .wakeUp, .cheatDay])
        XCTAssertFalse(settings.modes.automatic.isEnabled)
        XCTAssertEqual(SurveyAnswers(current: settings, autostart: true), survey.answers)
        // The comments of the template stay, and applying again changes nothing.
        XCTAssertTrue(file.text.contains("# Important apps have no limit; essential apps are never restricted."))
        XCTAssertEqual(try written(survey.answers, into: file.text).0, file)
    }

    func testAPerModeSwitchNoLongerOverridesTheGoals() throws {
        let (_, settings) = try written(survey().answers, into: "# mine\n[modes]\n# not now\nsocial = off\n")
        XCTAssertTrue(settings.modes.enabledModes.contains(.social))
    }

    func testOfferedAppsAreTheMostUsedThenInstalledOnes() {
        let survey = survey(seen: [AppID("firefox"): 60, AppID("mpv"): 600, AppID("gnome-control-center"): 900])
        XCTAssertEqual(survey.offeredApps.map(\.id.rawValue), ["mpv", "firefox", "Alacritty", "org.gnome.Calculator"])
        XCTAssertEqual(survey.offeredApps.first?.name, "mpv Media Player")
        XCTAssertTrue(survey.prompt(.important).contains("\n  1 mpv Media Player (mpv)\n  2 firefox (firefox)\n"))
    }

    func testTheLoosenQuestionWritesTheCommitmentRule() throws {
        var survey = survey()
        XCTAssertThrowsError(try survey.answer(.loosen, "tomorrow"))
        try survey.answer(.loosen, "1H")
        let (_, settings) = try written(survey.answers)
        XCTAssertEqual(settings.commitment.loosen, .oneHour)
        XCTAssertEqual(survey.currentAnswer(.loosen), "1h")
    }

    func testOnlyTheGoalsQuestionsAreAsked() throws {
        var survey = survey()
        try survey.answer(.goals, "none")
        XCTAssertEqual(SurveyQuestion.allCases.filter { $0.isAsked(survey.answers) }, [.goals, .important, .limit, .loosen, .todo, .feeds, .autostart])
        XCTAssertEqual(SurveyQuestion.allCases.count, 11)
    }

    func testTheSummaryTellsEachModeAsConfigured() throws {
        var survey = survey()
        try survey.answer(.goals, "2")
        try survey.answer(.bedtime, "00:30")
        let (_, settings) = try written(survey.answers)
        let summary = SurveySummary.text(settings)
        XCTAssertTrue(summary.contains("  Productivity  off (screentime config set modes.productivity on turns it on)"), summary)
        XCTAssertTrue(summary.contains("  Wind Down     from 23:30, before your bedtime 00:30 (learned"), summary)
        XCTAssertTrue(summary.contains("  Sleep         from 03:30, or when you say screentime bedtime"), summary)
        XCTAssertTrue(summary.contains("  Standard      when no other mode is on; 1h a day for content, social and unknown apps"), summary)
    }
}
