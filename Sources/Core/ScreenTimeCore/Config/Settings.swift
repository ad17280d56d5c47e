import FoundationEssentials

/// The configuration the agent acts on, read from the keyfile at
/// `$XDG_CONFIG_HOME/screentime/config`. Every default is a setting.
public struct Settings: Equatable, Sendable {
    /// Daily limit for every app in `limitScope` that has none of its own and is not important or essential.
    public var defaultLimit: TimeInterval = 3600
    /// Which apps the default limit covers.
    public var limitScope = LimitScope.leisure
    public var limits: [AppID: TimeInterval] = [:]
    /// Limits shared by a group's apps (`[limits] content = 2h`).
    public var groupLimits: [AppGroup: TimeInterval] = [:]
    /// Exempt from limits.
    public var important: Set<AppID> = []
    /// Never restricted, in any mode.
    public var essential: Set<AppID> = []
    public var dayBoundary = DayBoundary()
    /// No input for this long and time stops counting.
    public var idleThreshold: TimeInterval = 180
    /// Seconds before the limit at which the countdown notification shows or updates.
    public var countdownMarks: [TimeInterval] = [1800, 600, 300, 60, 10, 5]
    /// What "Continue" grants in Standard mode.
    public var continueGrant: TimeInterval = 3600
    /// The user's changes to the built-in groups (`[groups]`).
    public var groupEdits: [AppGroup: GroupEdit] = [:]
    /// Virtual apps from window titles: the built-in ones, then `[rules]` in file order (a rule
    /// named like a built-in one replaces it; an empty one turns it off).
    public var titleRules: [TitleRule] = TitleRule.builtIn
    /// Changes to a mode's defaults (DESIGN.md: every default is a setting); none are read from
    /// the file yet.
    public var modeProfiles: [Mode: ModeProfile] = [:]
    public var productivityBreakProfile: ModeProfile = .productivityBreak
    /// Which window titles are stored with the usage (`[privacy] titles`).
    public var titlePrivacy = TitlePrivacy.rules
    /// `[schedule]`, `[calendars]` and `[modes]` (ModeSettings.swift).
    public var modes = ModeSettings()
    /// What each mode shows: break activities, to-dos, quick-nav, alternatives, music, feeds.
    public var content = ModeContentSettings()
    /// `[report]`: the weekly summary and the week's first day.
    public var report = ReportSettings()
    /// `[commitment]`: when a loosening takes effect (Commitment/).
    public var commitment = CommitmentSettings()

    public init() {}

    /// What `mode` does, with the user's changes; `onBreak` during a Productivity break.
    public func profile(for mode: Mode, onBreak: Bool = false) -> ModeProfile {
        var profile = mode == .productivity && onBreak ? productivityBreakProfile : modeProfiles[mode] ?? .defaults(for: mode)
        if let grant = modes.bypassGrants[mode], profile.bypassGrant != nil { profile.bypassGrant = grant }
        if mode == .productivity, !onBreak, !modes.productivityGrayscale { profile.displayFilter = .none }
        return profile
    }

    /// Apps that are never restricted whatever the file says: the agent itself and the
    /// desktop's safety-critical tools (`SafetyApps`).
    public static func isBuiltInEssential(_ app: AppID) -> Bool { SafetyApps.kind(of: app) != nil }

    /// The limit of an app known only by its id (no desktop entry, so no known group).
    public func limit(for app: AppID) -> TimeInterval? {
        limit(for: AppInfo(id: app, name: app.rawValue))
    }

    public func isEssential(_ app: AppID) -> Bool {
        essential.contains(app) || Self.isBuiltInEssential(app)
    }
}

/// Which window titles are stored: only where a title rule made the app (the title is why it is
/// that app), every one, or none.
public enum TitlePrivacy: String, CaseIterable, Sendable {
    case rules
    case all
    case none
}

extension Settings {
    /// The title stored with an interval of `app` whose window is titled `title`.
    public func storedTitle(of app: AppID, title: String) -> String {
        switch titlePrivacy {
        case .all: title
        case .none: ""
        case .rules: titleRules.contains { $0.name == app } ? title : ""
        }
    }
}

/// Which apps the default limit covers: `leisure` (content, social apps and apps of no known
/// group) or `all` (every app that is not exempt).
public enum LimitScope: String, CaseIterable, Sendable {
    case leisure
    case all
}

/// The two exemption lists: `important` apps have no limit, `essential` apps are never restricted.
public enum ExemptionKind: String, CaseIterable, Sendable {
    case important
    case essential
}

/// Sections and keys of the config file, in one place for the reader and the CLI's writers.
public enum ConfigKey {
    public static let general = "general"
    public static let limits = "limits"
    public static let exemptions = "exemptions"
    public static let groups = "groups"
    public static let rules = "rules"
    public static let privacy = "privacy"
    public static let sections = [general, limits, exemptions, groups, rules, privacy]

    public static let dayStart = "day-start"
    public static let idleAfter = "idle-after"
    public static let countdown = "countdown"
    public static let continueFor = "continue-for"
    public static let defaultLimit = "default"
    public static let limitScope = "scope"
    public static let titles = "titles"
    public static let important = "important"
    public static let essential = "essential"
}

/// A problem in the config file, naming the file and the line.
public struct ConfigError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var line: Int
    public var message: String

    public init(path: String, line: Int, message: String) {
        self.path = path
        self.line = line
        self.message = message
    }

    public var description: String { "\(path):\(line): \(message)" }
}

extension Settings {
    /// Reads settings from a keyfile; unknown keys are errors too, so typos do not pass silently.
    public init(_ file: KeyFile, path: String) throws {
        self.init()
        func fail(_ line: Int, _ message: String) -> ConfigError { ConfigError(path: path, line: line, message: message) }
        func duration(_ value: String, _ line: Int, _ name: String, _ bounds: ClosedRange<TimeInterval>) throws -> TimeInterval {
            do { return try DurationBounds.parse(value, for: name, within: bounds) } catch { throw fail(line, error.message) }
        }
        func app(_ name: String, _ line: Int) throws -> AppID {
            do { return try AppID(checking: name) } catch { throw fail(line, error.message) }
        }
        let known = ConfigKey.sections + ModeSettings.sections + ModeContentSettings.sections + [ReportSettings.section, CommitmentSettings.section]
        for section in file.sections where !known.contains(section) {
            let line = file.lines.firstIndex(of: .section(section)).map { $0 + 1 } ?? 0
            throw fail(line, "unknown section [\(section)] (known: \(known.joined(separator: ", ")))")
        }
        for section in Set(file.sections) {
            var first: [String: Int] = [:]
            for (key, _, line) in file.entries(in: section) {
                if let earlier = first[key] {
                    throw fail(line, "`\(key)` is set twice in [\(section)] (lines \(earlier) and \(line)); keep one")
                }
                first[key] = line
            }
        }
        modes = try ModeSettings(file, path: path)
        content = try ModeContentSettings(file, path: path)
        report = try ReportSettings(file, path: path)
        commitment = try CommitmentSettings(file, path: path)
        for (key, value, line) in file.entries(in: ConfigKey.general) {
            switch key {
            case ConfigKey.dayStart:
                guard let minute = Self.parseClock(value) else { throw fail(line, "`\(value)` is not a time of day (use HH:MM)") }
                dayBoundary = DayBoundary(startMinute: minute)
            case ConfigKey.idleAfter:
                idleThreshold = try duration(value, line, key, DurationBounds.idleAfter)
            case ConfigKey.countdown:
                countdownMarks = try KeyFileList.split(value).map { try duration($0, line, key, DurationBounds.countdownMark) }
                    .sorted(by: >)
            case ConfigKey.continueFor:
                continueGrant = try duration(value, line, key, DurationBounds.continueFor)
            default:
                throw fail(line, "unknown key `\(key)` in [general] (known: day-start, idle-after, countdown, continue-for)")
            }
        }
        for (key, value, line) in file.entries(in: ConfigKey.limits) {
            if key == ConfigKey.limitScope {
                guard let scope = LimitScope(rawValue: value) else {
                    throw fail(line, "`\(value)` is not a scope (known: \(LimitScope.allCases.map(\.rawValue).joined(separator: ", ")))")
                }
                limitScope = scope
                continue
            }
            let limit = try duration(value, line, "the limit of \(key)", DurationBounds.limit)
            // A group's name is the group (`content = 2h`), never an app of that id.
            if key == ConfigKey.defaultLimit { defaultLimit = limit }
            else if let group = AppGroup(rawValue: key) { groupLimits[group] = limit }
            else { limits[try app(key, line)] = limit }
        }
        for (key, value, line) in file.entries(in: ConfigKey.exemptions) {
            let apps = Set(try KeyFileList.split(value).map { try app($0, line) })
            switch key {
            case ConfigKey.important: important = apps
            case ConfigKey.essential: essential = apps
            default: throw fail(line, "unknown key `\(key)` in [exemptions] (known: important, essential)")
            }
        }
        for (key, value, line) in file.entries(in: ConfigKey.groups) {
            guard let group = AppGroup(rawValue: key) else {
                let known = AppGroup.allCases.map(\.rawValue).joined(separator: ", ")
                throw fail(line, "unknown group `\(key)` in [groups] (known: \(known); important and essential are under [exemptions])")
            }
            let edit = GroupEdit(list: value)
            for member in edit.added.union(edit.removed) { _ = try app(member.rawValue, line) }
            groupEdits[group] = edit
        }
        for (key, value, line) in file.entries(in: ConfigKey.privacy) {
            let known = TitlePrivacy.allCases.map(\.rawValue).joined(separator: ", ")
            guard key == ConfigKey.titles else { throw fail(line, "unknown key `\(key)` in [privacy] (known: titles)") }
            guard let privacy = TitlePrivacy(rawValue: value) else { throw fail(line, "`\(value)` is not a titles setting (known: \(known))") }
            titlePrivacy = privacy
        }
        for (key, value, line) in file.entries(in: ConfigKey.rules) {
            var matches: [TitleRule.Match] = []
            for item in KeyFileList.split(value) {
                guard let match = TitleRule.Match(text: item) else {
                    throw fail(line, "`\(item)` is not APP:TITLE (e.g. firefox:YouTube)")
                }
                _ = try app(match.app.rawValue, line)
                matches.append(match)
            }
            _ = try app(key, line)
            titleRules.removeAll { $0.name.rawValue == key }
            // `NAME =` turns the rule off: how a removed built-in rule is remembered.
            if !matches.isEmpty { titleRules.append(TitleRule(name: AppID(key), matches: matches)) }
        }
    }

    /// `HH:MM` → minutes after midnight.
    public static func parseClock(_ text: String) -> Int? {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let h = Int(parts[0]), let m = Int(parts[1]), (0..<24).contains(h), (0..<60).contains(m)
        else { return nil }
        return h * 60 + m
    }

    /// The file a new user starts with: every setting shown with its default.
    public static let template = """
        # screentime configuration. Durations: 1h, 45m, 1h30m, 90s. Lists: a;b;c
        # The agent reloads this file when it changes; a broken file is reported and the last good one kept.

        [general]
        # When a new day starts (late nights count toward the day they began).
        day-start = 04:00
        # No keyboard or mouse input for this long and time stops counting.
        idle-after = 3m
        # Notifications before an app's limit runs out.
        countdown = 30m;10m;5m;1m;10s;5s
        # What "Continue" grants once an app's limit is reached.
        continue-for = 1h

        [limits]
        # Daily limit for every app that has none of its own. With scope = leisure it covers content
        # (video, games, social apps) and apps of no known group; with scope = all, every app.
        default = 1h
        scope = leisure
        # APP = 30m limits an app; a group's name limits its apps together (content = 2h). Where
        # both apply, the tighter wins.

        [exemptions]
        # Important apps have no limit; essential apps are never restricted.
        important =
        essential =

        [groups]
        # Built-in groups: productivity (terminals too), communication, content, clock, browsers,
        # system (apps join them by their desktop entry's Categories) and social-apps (the apps
        # Social mode allows).
        # APP adds an app, -APP takes it out, e.g.  productivity = org.gnome.Builder;-gimp

        [rules]
        # Virtual apps from window titles: NAME = APP:TITLE;APP:TITLE (case-insensitive; APP * is
        # any browser). Built in, as content: youtube, netflix, twitch, tiktok, instagram,
        # facebook, reddit, x (e.g. youtube = *:YouTube). NAME = with nothing turns a rule off.

        [privacy]
        # Window titles stored with your usage: rules (only a title rule's sites), all, or none.
        titles = rules

        [report]
        # At your first activity of a week, a notification sums up the week before and opens the
        # full report page (on or off).
        weekly-summary = on
        week-start = monday

        [commitment]
        # Changes that give more time or fewer restrictions (a higher limit, an exemption, a mode
        # or schedule turned off) take effect at the next day start (next-day), 12h or 1h after
        # you make them, or at once (now). Tightening is always at once; undoing a change within
        # 5 minutes is too.
        loosen = next-day

        """
}
