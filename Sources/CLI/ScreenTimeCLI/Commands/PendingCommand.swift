import AgentControl
import FoundationEssentials
import ScreenTimeCore

/// `pending`: the loosenings waiting for their time, and taking one back (the config file gets
/// the value that holds now again, so nothing changes later).
struct PendingCommand: Subcommand {
    static let name = "pending"
    static let abstract = "Changes that give more time, waiting for their time; take one back"
    static let usage = ["pending [list]", "pending cancel ID|all   (ID as `pending list` shows it)"]

    enum Action {
        case list
        case cancel(String?)
    }

    let action: Action

    init(_ arguments: Arguments) throws {
        switch arguments.nextIfAny() ?? "list" {
        case "list": action = .list
        case "cancel":
            let id = try arguments.next("an ID (or all)")
            action = .cancel(id == "all" ? nil : id)
        case let other: throw UsageError(message: "unknown action `\(other)`")
        }
        try arguments.finish()
    }

    func run(_ context: Context) throws {
        let (settings, pending) = try context.keptSettings()
        switch action {
        case .list:
            guard !pending.isEmpty else { return context.print("Nothing is waiting: every change you made holds now.") }
            for (change, line) in zip(pending, context.pendingLines(pending, settings: settings)) {
                context.print("\(line)\n  id: \(PendingChangeText.id(change))")
            }
        case .cancel(let id):
            let chosen = pending.filter { id == nil || $0.facet == id }
            guard !chosen.isEmpty else {
                throw CommandFailure(message: id.map { "nothing is waiting as `\($0)` (see `screentime pending`)" } ?? "nothing is waiting")
            }
            try context.editConfig { file in for change in chosen { file.setFacet(change.facet, to: change.held) } }
            for change in chosen { context.print("\(change.facet): taken back; what holds now stays") }
        }
    }
}

extension KeyFile {
    /// Writes one facet's value into the file, as the config names it (`SettingsFacet`).
    mutating func setFacet(_ id: String, to value: String?) {
        guard let facet = SettingsFacet(id: id) else { return }
        let seconds = value.flatMap(Double.init)
        switch facet {
        case .defaultLimit: if let seconds { setDefaultLimit(seconds) }
        case .limitScope: if let value { set(ConfigKey.limitScope, to: value, in: ConfigKey.limits) }
        case .limit(let key): if let seconds { setLimit(AppID(key), seconds) } else { removeLimit(AppID(key)) }
        case .exemption(let kind, let app): setExemption(kind, app, value != nil)
        case .groupMember(let group, let app):
            setGroupMember(group, app, GroupEdit.placement(facetValue: value))
        case .titleRule(let name):
            if let value { set(name.rawValue, to: value, in: ConfigKey.rules) } else { removeTitleRule(name) }
        case .mode(let mode): set(mode.rawValue, to: value == nil ? "off" : "on", in: ModeConfigKey.modes)
        case .automaticModes: if let value { set(ModeConfigKey.automatic, to: value, in: ModeConfigKey.modes) }
        case .schedule(let entry, let text):
            if value == nil { remove(entry, in: ModeConfigKey.schedule) } else { set(entry, to: text, in: ModeConfigKey.schedule) }
        case .calendar(let path):
            var paths = KeyFileList.split(self.value(ModeConfigKey.paths, in: ModeConfigKey.calendars) ?? "")
            paths.removeAll { $0 == path }
            if value != nil { paths.append(path) }
            set(ModeConfigKey.paths, to: KeyFileList.join(paths), in: ModeConfigKey.calendars)
        case .continueFor: if let seconds { set(ConfigKey.continueFor, to: DurationText.format(seconds), in: ConfigKey.general) }
        case .bypass(let mode):
            let key = mode.rawValue + ModeConfigKey.bypassSuffix
            if let seconds { set(key, to: DurationText.format(seconds), in: ModeConfigKey.modes) } else { remove(key, in: ModeConfigKey.modes) }
        case .loosen: if let value { set(CommitmentSettings.loosenKey, to: value, in: CommitmentSettings.section) }
        }
    }
}
