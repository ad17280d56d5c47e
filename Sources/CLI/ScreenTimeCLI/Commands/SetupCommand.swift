import AgentControl
import Glibc
import FoundationEssentials
import LocalSystem
import ScreenTimeCore
import UsageStore

struct SetupCommand: Subcommand {
    static let name = "setup"
    static let abstract = "A few questions that set screentime up (rerun to change the answers)"
    static let usage = ["setup              (asks at most ten questions; Enter keeps the answer in brackets)",
                        "setup --defaults   (takes every answer in brackets without asking)"]

    let askNothing: Bool

    init(_ arguments: Arguments) throws {
        askNothing = arguments.flag("defaults")
        try arguments.finish()
    }

    func run(_ context: Context) throws {
        guard askNothing || isatty(STDIN_FILENO) == 1 else {
            throw UsageError(message: "stdin is not a terminal; run it in a terminal, or use --defaults")
        }
        let settings = try context.settings()
        let autostart = AutostartEntry(environment: context.environment)
        // A first setup offers to start at login; a rerun offers what is in place.
        let firstTime = !FileManager.default.fileExists(atPath: context.configPath)
        let startsAtLogin = firstTime || autostart.isInstalled || autostart.startedBySystemd
        var survey = Survey(answers: SurveyAnswers(current: settings, autostart: startsAtLogin), settings: settings,
                            seen: try Self.seenApps(context, settings), installed: DesktopEntryIndex.load(environment: context.environment),
                            fileExists: { FileManager.default.fileExists(atPath: XDGPaths.expandingHome($0, environment: context.environment)) })
        if !askNothing {
            let terminal = TerminalQuestions()
            for question in SurveyQuestion.allCases where question.isAsked(survey.answers) {
                try terminal.ask(survey.prompt(question)) { (typed: String) throws(SurveyHint) in try survey.answer(question, typed) }
            }
        }
        let written = try Self.write(survey.answers, context)
        // A first setup is the first commitment, as written; a rerun's loosenings wait as any edit's do.
        let waiting = context.keep(written, judgedAgainst: nil)
        context.print("\nWritten to \(context.configPath).")
        for line in context.pendingLines(waiting, settings: (try? context.keptSettings().settings) ?? written) { context.print("Waiting: " + line) }
        context.print(try Self.arrange(autostart, on: survey.answers.autostart))
        context.print(SurveySummary.text(written))
    }

    /// Starts the agent at login or stops doing so; what is in place, in a sentence.
    static func arrange(_ autostart: AutostartEntry, on: Bool) throws -> String {
        if on {
            if autostart.startedBySystemd { return "The agent starts with your session (the systemd user unit, \(autostart.systemdLink))." }
            try autostart.install(program: executable())
            return "The agent starts when you log in (\(autostart.path))."
        }
        try autostart.remove()
        return autostart.startedBySystemd ? "The systemd user unit still starts the agent; `systemctl --user disable screentime` stops that."
                                          : "The agent does not start by itself at login; `screentime agent` starts it."
    }

    static func write(_ answers: SurveyAnswers, _ context: Context) throws -> Settings {
        do { return try ConfigEditor(path: context.configPath).edit { answers.apply(to: &$0) } } catch let error as ConfigError {
            throw CommandFailure(message: error.description)
        }
    }

    /// Each app's use over the last four weeks, most used first in the list offered.
    static func seenApps(_ context: Context, _ settings: Settings) throws -> [AppID: TimeInterval] {
        guard let store = try context.openStore() else { return [:] }
        let now = context.now
        return try store.usageByApp(from: now.addingTimeInterval(-28 * 86_400), to: now)
    }

    /// This program's own path, which the autostart entry runs.
    static func executable() throws -> String {
        guard let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            throw CommandFailure(message: "cannot tell where this program is (/proc/self/exe)")
        }
        return path
    }
}
