import FoundationEssentials

/// One part of the settings that can hold a user to less (a limit, an exemption, a mode, a
/// schedule entry, a calendar): the unit in which a change is tightening or loosening. Its id
/// (`limit:firefox`, `important:keepassxc`, `mode:productivity`, `schedule:work=productivity 09:00 3h mon-fri`)
/// is stable text, stored with a pending change; its value is text too, nil when absent.
/// Everything else in the settings (words, colours, idle time) applies at once.
public enum SettingsFacet: Hashable, Sendable {
    case defaultLimit
    case limitScope
    /// An app's own limit, or a group's shared one (`limit:content`), as the config names them.
    case limit(String)
    case exemption(ExemptionKind, AppID)
    /// The user's edit of one app's place in a group: `in`, `out` (whatever its categories say),
    /// absent (as its categories say).
    case groupMember(AppGroup, AppID)
    /// A title rule's matches (`rule:youtube` = `*:YouTube`): narrowed or removed, the time its
    /// windows took goes back to the browser.
    case titleRule(AppID)
    case mode(Mode)
    case automaticModes
    case schedule(id: String, value: String)
    case calendar(String)
    case continueFor
    case bypass(Mode)
    case loosen

    /// The modes whose time holds a user to less: turning one off, or removing its schedule, loosens.
    public static let restrictiveModes: Set<Mode> = [.productivity, .windDown, .sleep, .wakeUp]

    public var id: String {
        switch self {
        case .defaultLimit: "default-limit"
        case .limitScope: "limit-scope"
        case .limit(let key): "limit:\(key)"
        case .exemption(let kind, let app): "\(kind.rawValue):\(app.rawValue)"
        case .groupMember(let group, let app): "group:\(group.rawValue):\(app.rawValue)"
        case .titleRule(let name): "rule:\(name.rawValue)"
        case .mode(let mode): "mode:\(mode.rawValue)"
        case .automaticModes: "automatic-modes"
        case .schedule(let id, let value): "schedule:\(id)=\(value)"
        case .calendar(let path): "calendar:\(path)"
        case .continueFor: "continue-for"
        case .bypass(let mode): "bypass:\(mode.rawValue)"
        case .loosen: "loosen"
        }
    }

    public init?(id: String) {
        switch id {
        case "default-limit": self = .defaultLimit; return
        case "limit-scope": self = .limitScope; return
        case "automatic-modes": self = .automaticModes; return
        case "continue-for": self = .continueFor; return
        case "loosen": self = .loosen; return
        default: break
        }
        guard let colon = id.firstIndex(of: ":") else { return nil }
        let (kind, rest) = (String(id[..<colon]), String(id[id.index(after: colon)...]))
        guard !rest.isEmpty else { return nil }
        switch kind {
        case "limit": self = .limit(rest)
        case "important": self = .exemption(.important, AppID(rest))
        case "essential": self = .exemption(.essential, AppID(rest))
        case "mode": guard let mode = Mode(rawValue: rest) else { return nil }; self = .mode(mode)
        case "bypass": guard let mode = Mode(rawValue: rest) else { return nil }; self = .bypass(mode)
        case "calendar": self = .calendar(rest)
        case "rule": self = .titleRule(AppID(rest))
        case "group":
            guard let colon = rest.firstIndex(of: ":"), let group = AppGroup(rawValue: String(rest[..<colon])),
                  rest.index(after: colon) < rest.endIndex else { return nil }
            self = .groupMember(group, AppID(String(rest[rest.index(after: colon)...])))
        case "schedule":
            guard let equals = rest.firstIndex(of: "=") else { return nil }
            self = .schedule(id: String(rest[..<equals]), value: String(rest[rest.index(after: equals)...]))
        default: return nil
        }
    }
}

/// Whether a change of one facet gives the user more (looser), less (tighter) or the same.
public enum Looseness: Sendable {
    case tighter
    case same
    case looser
}

extension Settings {
    static let present = "on"

    /// Every facet these settings have, by id (an absent facet is no key).
    public var facets: [String: String] {
        var result: [String: String] = [:]
        func put(_ facet: SettingsFacet, _ value: String) { result[facet.id] = value }
        put(.defaultLimit, Self.number(defaultLimit))
        put(.limitScope, limitScope.rawValue)
        for (app, limit) in limits { put(.limit(app.rawValue), Self.number(limit)) }
        for (group, limit) in groupLimits { put(.limit(group.rawValue), Self.number(limit)) }
        for app in important { put(.exemption(.important, app), Self.present) }
        for app in essential { put(.exemption(.essential, app), Self.present) }
        for (group, edit) in groupEdits {
            for app in edit.added { put(.groupMember(group, app), GroupEdit.inGroup) }
            for app in edit.removed { put(.groupMember(group, app), GroupEdit.outOfGroup) }
        }
        for rule in titleRules { put(.titleRule(rule.name), KeyFileList.join(rule.matches.map(\.text))) }
        for mode in Mode.allCases where mode != .standard && modes.enabledModes.contains(mode) { put(.mode(mode), Self.present) }
        put(.automaticModes, modes.automatic.isEnabled ? "on" : "off")
        for entry in modes.schedule where SettingsFacet.restrictiveModes.contains(entry.mode) {
            put(.schedule(id: entry.id, value: entry.configValue), Self.present)
        }
        for path in modes.calendarPaths { put(.calendar(path), Self.present) }
        put(.continueFor, Self.number(continueGrant))
        for (mode, grant) in modes.bypassGrants { put(.bypass(mode), Self.number(grant)) }
        put(.loosen, commitment.loosen.rawValue)
        return result
    }

    /// Sets one facet to `value` (nil: absent), as a held value is put back into the wanted settings.
    /// An id this version does not know, or a value it cannot read, changes nothing.
    public mutating func setFacet(_ id: String, to value: String?) {
        guard let facet = SettingsFacet(id: id) else { return }
        let number = value.flatMap(Double.init)
        switch facet {
        case .defaultLimit: if let number { defaultLimit = number }
        case .limitScope: if let scope = value.flatMap(LimitScope.init(rawValue:)) { limitScope = scope }
        case .limit(let key):
            if let group = AppGroup(rawValue: key) { groupLimits[group] = number } else { limits[AppID(key)] = number }
        case .exemption(.important, let app):
            if value == nil { important.remove(app) } else { important.insert(app) }
        case .exemption(.essential, let app):
            if value == nil { essential.remove(app) } else { essential.insert(app) }
        case .groupMember(let group, let app):
            var edit = groupEdits[group] ?? GroupEdit()
            edit.place(app, GroupEdit.placement(facetValue: value))
            groupEdits[group] = edit.isEmpty ? nil : edit
        case .titleRule(let name):
            let matches = value.map(KeyFileList.split)?.compactMap(TitleRule.Match.init(text:)) ?? []
            if let index = titleRules.firstIndex(where: { $0.name == name }) {
                if matches.isEmpty { titleRules.remove(at: index) } else { titleRules[index].matches = matches }
            } else if !matches.isEmpty {
                titleRules.append(TitleRule(name: name, matches: matches))
            }
        case .mode(let mode):
            if value == nil { modes.enabledModes.remove(mode) } else { modes.enabledModes.insert(mode) }
        case .automaticModes: if let on = value.flatMap(KeyFileSwitch.parse) { modes.automatic.isEnabled = on }
        case .schedule(let entryID, let text):
            modes.schedule.removeAll { $0.id == entryID && $0.configValue == text }
            if value != nil, let entry = try? ScheduleEntry(configValue: text, id: entryID) { modes.schedule.append(entry) }
        case .calendar(let path):
            modes.calendarPaths.removeAll { $0 == path }
            if value != nil { modes.calendarPaths.append(path) }
        case .continueFor: if let number { continueGrant = number }
        case .bypass(let mode): modes.bypassGrants[mode] = number
        case .loosen: if let rule = value.flatMap(LoosenRule.init(rawValue:)) { commitment.loosen = rule }
        }
    }

    static func number(_ seconds: TimeInterval) -> String {
        seconds == seconds.rounded() && abs(seconds) < 1e15 ? String(Int(seconds)) : String(seconds)
    }
}

extension SettingsFacet {
    /// Whether going from `old` (in the facets `before`) to `new` (in the facets `after`) gives more.
    /// An app with no limit of its own has its settings' default limit; a group with none, no limit.
    public func looseness(from old: String?, to new: String?, before: [String: String], after: [String: String]) -> Looseness {
        func order(_ a: Double?, _ b: Double?) -> Looseness {
            let (x, y) = (a ?? .infinity, b ?? .infinity)
            return y > x ? .looser : y < x ? .tighter : .same
        }
        func membership(looserWhenPresent: Bool) -> Looseness {
            switch (old != nil, new != nil) {
            case (false, true): looserWhenPresent ? .looser : .tighter
            case (true, false): looserWhenPresent ? .tighter : .looser
            default: .same
            }
        }
        switch self {
        case .defaultLimit, .continueFor:
            return order(old.flatMap(Double.init), new.flatMap(Double.init))
        case .limit(let key):
            if AppGroup(rawValue: key) != nil { return order(old.flatMap(Double.init), new.flatMap(Double.init)) }
            let fallback = SettingsFacet.defaultLimit.id
            return order((old ?? before[fallback]).flatMap(Double.init), (new ?? after[fallback]).flatMap(Double.init))
        case .bypass(let mode):
            let standard = ModeProfile.defaults(for: mode).bypassGrant
            return order(old.flatMap(Double.init) ?? standard, new.flatMap(Double.init) ?? standard)
        case .limitScope:
            let rank = { (text: String?) in text == LimitScope.all.rawValue ? 1 : 0 }
            return rank(new) < rank(old) ? .looser : rank(new) > rank(old) ? .tighter : .same
        case .exemption:
            return membership(looserWhenPresent: true)
        case .groupMember(let group, _):
            // Out, as its categories say, in: which way the app moves.
            let rank = { (text: String?) in text == GroupEdit.inGroup ? 1 : text == GroupEdit.outOfGroup ? -1 : 0 }
            guard rank(new) != rank(old) else { return .same }
            let joins = rank(new) > rank(old)
            // Joining content only restricts more; joining any other group lets a mode allow the
            // app (or the leisure scope leave it unlimited). Leaving a leisure group, or one with
            // a shared limit, gives more; leaving another takes what it allowed away.
            if joins { return group == .content ? .tighter : .looser }
            return AppGroup.leisure.contains(group) || before[SettingsFacet.limit(group.rawValue).id] != nil ? .looser : .tighter
        case .titleRule:
            // A match taken away gives its windows' time back to their app; one added only takes.
            let matches = { (text: String?) in Set(text.map(KeyFileList.split) ?? []) }
            let (was, will) = (matches(old), matches(new))
            return !was.subtracting(will).isEmpty ? .looser : !will.subtracting(was).isEmpty ? .tighter : .same
        case .mode(let mode):
            return membership(looserWhenPresent: !Self.restrictiveModes.contains(mode))
        case .schedule, .calendar:
            return membership(looserWhenPresent: false)
        case .automaticModes:
            let on = { (text: String?) in text.flatMap(KeyFileSwitch.parse) ?? true }
            return on(old) == on(new) ? .same : on(new) ? .tighter : .looser
        case .loosen:
            let rank = { (text: String?) in (text.flatMap(LoosenRule.init(rawValue:)) ?? .nextDay).strictness }
            return rank(new) < rank(old) ? .looser : rank(new) > rank(old) ? .tighter : .same
        }
    }
}
