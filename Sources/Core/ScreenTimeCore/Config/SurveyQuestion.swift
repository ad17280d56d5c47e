import FoundationEssentials

/// The questions of `screentime setup`, at most eleven, in order. The sleep times are asked only for
/// the sleep goal, the grayscale only for focus.
public enum SurveyQuestion: CaseIterable, Sendable {
    case goals, bedtime, wakeTime, sleepTimesKind, important, limit, loosen, grayscale, todo, feeds, autostart

    public func isAsked(_ answers: SurveyAnswers) -> Bool {
        switch self {
        case .bedtime, .wakeTime, .sleepTimesKind: answers.goals.contains(.sleep)
        case .grayscale: answers.goals.contains(.focus)
        default: true
        }
    }
}

/// Why an answer was not taken, and how to give one that is.
public struct SurveyHint: Error, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// The survey's state: the answers so far, the apps offered as important, and how each typed
/// answer is read. Pure: the CLI gives it the apps seen and installed and a way to check a file.
public struct Survey {
    public private(set) var answers: SurveyAnswers
    /// The numbered list offered for important apps: the most used first, then installed ones.
    public let offeredApps: [AppInfo]
    private let knownApps: Set<AppID>
    private let fileExists: (String) -> Bool

    /// `seen`: each app's use over the last weeks; `installed`: the desktop entries.
    public init(answers: SurveyAnswers, settings: Settings, seen: [AppID: TimeInterval], installed: [DesktopEntry],
                fileExists: @escaping (String) -> Bool) {
        self.answers = answers
        self.fileExists = fileExists
        let entries = Dictionary(installed.map { (AppID($0.id), $0) }, uniquingKeysWith: { first, _ in first })
        func info(_ app: AppID) -> AppInfo { entries[app].map(AppInfo.init) ?? AppInfo(id: app, name: app.rawValue) }
        let offerable = { (app: AppInfo) in !settings.isEssential(app) && !app.id.rawValue.hasPrefix("screentime") }
        let mostUsed = seen.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map { info($0.key) }.filter(offerable)
        let visible = installed.filter { !$0.noDisplay }.map(AppInfo.init).filter { app in offerable(app) && seen[app.id] == nil }
            .sorted { $0.name.lowercased() < $1.name.lowercased() }
        offeredApps = Array((mostUsed + visible).prefix(Self.offeredCount))
        knownApps = Set(seen.keys).union(entries.keys).union(answers.important)
    }

    static let offeredCount = 9

    /// The question with what Enter keeps, e.g. `Usual bedtime (HH:MM) [23:00]: `.
    public func prompt(_ question: SurveyQuestion) -> String {
        let text: String = switch question {
        case .goals:
            "What would you like help with? " + SurveyGoal.allCases.enumerated().map { "\($0.offset + 1) \($0.element.label)" }.joined(separator: ", ")
                + "\n  (numbers or names, several allowed; none for none)"
        case .bedtime: "Your usual bedtime (HH:MM); Wind Down starts before it"
        case .wakeTime: "Your usual wake time (HH:MM); Wake Up starts before it"
        case .sleepTimesKind: "Learn these times from your evenings, or keep them fixed? (learn/fixed)"
        case .important:
            "Important apps have no limit and stay allowed in every mode:\n"
                + offeredApps.enumerated().map { "  \($0.offset + 1) \($0.element.name) (\($0.element.id))\n" }.joined()
                + "  (\(offeredApps.isEmpty ? "" : "numbers or ")app ids; none for none)"
        case .limit: "Daily limit, and the apps it covers: leisure (content, social and unknown apps) or all"
        case .loosen: "When you give yourself more time or fewer restrictions, from when does it hold? (next-day, 12h, 1h, now)"
        case .grayscale: "Gray the screen in Productivity? (yes/no)"
        case .todo: "Your to-do file for Productivity and the morning run-down (a todo.txt or a plain list; none for none)"
        case .feeds: "Feeds for the morning run-down (RSS or Atom links, separated by spaces; none for none)"
        case .autostart: "Start screentime when you log in? (yes/no)"
        }
        return text + " [\(currentAnswer(question))]: "
    }

    /// The answer Enter accepts, written as the user would type it.
    public func currentAnswer(_ question: SurveyQuestion) -> String {
        func list(_ items: [String]) -> String { items.isEmpty ? "none" : items.joined(separator: " ") }
        return switch question {
        case .goals: list(SurveyGoal.allCases.filter(answers.goals.contains).map(\.rawValue))
        case .bedtime: answers.bedtime.description
        case .wakeTime: answers.wakeTime.description
        case .sleepTimesKind: answers.pinSleepTimes ? "fixed" : "learn"
        case .important: list(answers.important.map(\.rawValue))
        case .limit: "\(DurationText.format(answers.defaultLimit)) \(answers.limitScope.rawValue)"
        case .loosen: answers.loosen.rawValue
        case .grayscale: answers.productivityGrayscale ? "yes" : "no"
        case .todo: answers.todo ?? "none"
        case .feeds: list(answers.feeds)
        case .autostart: answers.autostart ? "yes" : "no"
        }
    }

    /// Takes a typed answer; an empty one keeps the current answer. Throws a hint, and changes
    /// nothing, when the answer cannot be read.
    public mutating func answer(_ question: SurveyQuestion, _ typed: String) throws(SurveyHint) {
        let text = typed.trimmingWhitespace()
        guard !text.isEmpty else { return }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == ";" }).map(String.init)
        let none = text.lowercased() == "none"
        switch question {
        case .goals: answers.goals = none ? [] : try Self.goals(words)
        case .bedtime: answers.bedtime = try Self.clock(text)
        case .wakeTime: answers.wakeTime = try Self.clock(text)
        case .sleepTimesKind:
            switch text.lowercased() {
            case "learn", "l": answers.pinSleepTimes = false
            case "fixed", "f": answers.pinSleepTimes = true
            default: throw SurveyHint(message: "Type learn or fixed.")
            }
        case .important: answers.important = none ? [] : try important(words)
        case .limit: (answers.defaultLimit, answers.limitScope) = try Self.limit(words, answers)
        case .loosen:
            guard let rule = LoosenRule(rawValue: text.lowercased()) else { throw SurveyHint(message: "Type next-day, 12h, 1h or now.") }
            answers.loosen = rule
        case .grayscale: answers.productivityGrayscale = try Self.yesNo(text)
        case .todo:
            guard !none else { answers.todo = nil; return }
            guard fileExists(text) else { throw SurveyHint(message: "There is no file at \(text); give an existing file, or none.") }
            answers.todo = text
        case .feeds:
            guard !none else { answers.feeds = []; return }
            if let bad = words.first(where: { word in !["https://", "http://", "file://"].contains(where: { word.hasPrefix($0) }) }) {
                throw SurveyHint(message: "`\(bad)` is not a link; feeds start with https://, http:// or file://.")
            }
            answers.feeds = words
        case .autostart: answers.autostart = try Self.yesNo(text)
        }
    }

    static func goals(_ words: [String]) throws(SurveyHint) -> Set<SurveyGoal> {
        var goals = Set<SurveyGoal>()
        var rest = words.map { $0.lowercased() }
        // "less social media" typed out is one goal of three words.
        if let less = rest.firstIndex(of: "less"), rest.count > less + 2, rest[less + 1] == "social", rest[less + 2] == "media" {
            rest.removeSubrange(less...(less + 2))
            goals.insert(.lessSocialMedia)
        }
        for word in rest {
            if let number = Int(word), SurveyGoal.allCases.indices.contains(number - 1) {
                goals.insert(SurveyGoal.allCases[number - 1])
            } else if let goal = SurveyGoal(rawValue: word) {
                goals.insert(goal)
            } else {
                throw SurveyHint(message: "`\(word)` is not a goal; type numbers from 1 to \(SurveyGoal.allCases.count), focus, sleep, social, or none.")
            }
        }
        return goals
    }

    static func clock(_ text: String) throws(SurveyHint) -> WallTime {
        guard let time = WhenText.parseWallTime(text), time.second == 0 else {
            throw SurveyHint(message: "`\(text)` is not a time; type it as HH:MM on the 24-hour clock, e.g. 23:00.")
        }
        return time
    }

    static func yesNo(_ text: String) throws(SurveyHint) -> Bool {
        switch text.lowercased() {
        case "y", "yes", "on": return true
        case "n", "no", "off": return false
        default: throw SurveyHint(message: "Type yes or no.")
        }
    }

    func important(_ words: [String]) throws(SurveyHint) -> [AppID] {
        var apps: [AppID] = []
        for word in words {
            let app: AppID
            if let number = Int(word) {
                guard offeredApps.indices.contains(number - 1) else {
                    throw SurveyHint(message: "\(word) is not in the list; type numbers from 1 to \(offeredApps.count), app ids, or none.")
                }
                app = offeredApps[number - 1].id
            } else {
                guard knownApps.contains(AppID(word)) else {
                    throw SurveyHint(message: "`\(word)` is not an app seen or installed here; type a number from the list or an app id such as firefox.")
                }
                app = AppID(word)
            }
            if !apps.contains(app) { apps.append(app) }
        }
        return apps
    }

    static func limit(_ words: [String], _ answers: SurveyAnswers) throws(SurveyHint) -> (TimeInterval, LimitScope) {
        var limit = answers.defaultLimit
        var scope = answers.limitScope
        let hint = "type a duration such as 1h, 45m or 1h30m, then leisure or all if you wish (e.g. 2h all)."
        guard words.count <= 2 else { throw SurveyHint(message: "One duration and one scope at most; " + hint) }
        for word in words {
            if let named = LimitScope(rawValue: word.lowercased()) {
                scope = named
                continue
            }
            do { limit = try DurationBounds.parse(word, for: "the daily limit", within: DurationBounds.limit) } catch {
                throw SurveyHint(message: "`\(word)` is neither a duration nor leisure or all; " + hint)
            }
        }
        return (limit, scope)
    }
}
