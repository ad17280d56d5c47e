import FoundationEssentials

/// The editable groups of apps (DESIGN.md's vocabulary). Membership comes from the app's
/// desktop-entry Categories, then the user's edits in the config's `[groups]` section.
public enum AppGroup: String, CaseIterable, Sendable {
    case productivity
    case communication
    case content
    case clock
    /// The apps chosen for Social mode: no category puts an app here, only the user.
    case socialApps = "social-apps"
    /// Web browsers: where content hides, so the built-in title rules make its sites apps.
    case browsers
    /// The system's own tools (file managers, monitors, package tools).
    case system

    /// Desktop-entry Categories (freedesktop menu spec) that place an app in the group.
    public var categories: Set<String> {
        switch self {
        case .productivity:
            ["Office", "Development", "Education", "Science", "Graphics", "TextEditor", "IDE", "Engineering",
             "ProjectManagement", "Spreadsheet", "WordProcessor", "Presentation", "Math", "Calculator",
             "TerminalEmulator"]
        case .communication: ["InstantMessaging", "Chat", "Email", "Telephony", "VideoConference", "IRCClient"]
        case .content: ["AudioVideo", "Audio", "Video", "Player", "TV", "Game", "Feed"]
        case .clock: ["Clock"]
        case .socialApps: []
        case .browsers: ["WebBrowser"]
        case .system: ["System"]
        }
    }

    /// The groups each Category places an app in: `groups(of:)` runs several times at every focus
    /// switch and deadline, and looks an app's few categories up here instead of building every
    /// group's set.
    static let byCategory: [String: [AppGroup]] = Dictionary(
        grouping: allCases.flatMap { group in group.categories.map { (category: $0, group: group) } }, by: \.category
    ).mapValues { $0.map(\.group) }

    /// Groups whose apps the default limit leaves alone when `[limits] scope = leisure`: on a
    /// desktop most hours are work, and a limit there only teaches the user to dismiss it.
    public static let unlimitedInLeisureScope: Set<AppGroup> = [.productivity, .communication, .clock, .browsers, .system]

    /// Groups that are leisure whatever else the app is.
    public static let leisure: Set<AppGroup> = [.content, .socialApps]

    /// The mode class this group stands for, where a mode can allow it.
    public var appClass: AppClass? {
        switch self {
        case .productivity: .productivity
        case .communication: .communication
        case .clock: .clock
        case .socialApps: .chosenSocial
        case .browsers: .browsers
        case .system: .system
        case .content: nil
        }
    }

    /// Categories of safety-critical apps (system settings, maps, calls): essential whatever
    /// the config says, like the apps listed under `essential`.
    public static let essentialCategories: Set<String> = ["Settings", "DesktopSettings", "HardwareSettings", "Maps", "Telephony"]
}

/// The user's changes to one group: apps added to it and apps taken out of it (even when their
/// Categories would put them in).
public struct GroupEdit: Equatable, Sendable {
    public var added: Set<AppID> = []
    public var removed: Set<AppID> = []

    public init(added: Set<AppID> = [], removed: Set<AppID> = []) {
        self.added = added
        self.removed = removed
    }

    /// `org.gnome.Builder;+gedit;-firefox`: a bare or `+` id adds, `-` removes.
    public init(list: String) {
        for item in KeyFileList.split(list) {
            if item.hasPrefix("-") { removed.insert(AppID(String(item.dropFirst()))) }
            else if item.hasPrefix("+") { added.insert(AppID(String(item.dropFirst()))) }
            else { added.insert(AppID(item)) }
        }
        added.subtract(removed)
    }

    public var list: String {
        KeyFileList.join(added.sorted().map(\.rawValue) + removed.sorted().map { "-" + $0.rawValue })
    }

    public var isEmpty: Bool { added.isEmpty && removed.isEmpty }

    /// Puts `app` in (true) or out (false) whatever its categories say, or drops its edit (nil).
    public mutating func place(_ app: AppID, _ inGroup: Bool?) {
        added.remove(app)
        removed.remove(app)
        if inGroup == true { added.insert(app) }
        if inGroup == false { removed.insert(app) }
    }

    /// An app's edit as a commitment facet's value (`SettingsFacet.groupMember`), and back.
    public static let inGroup = "in"
    public static let outOfGroup = "out"
    public static func placement(facetValue: String?) -> Bool? {
        facetValue == inGroup ? true : facetValue == outOfGroup ? false : nil
    }
}

extension Settings {
    /// The groups `app` belongs to. An app made by a title rule (a site in a browser) is content
    /// unless the user's edits say otherwise; so is a site the extension named that a built-in
    /// list has (`SiteGroup`), and a site in no group is in `browsers`.
    public func groups(of app: AppInfo) -> Set<AppGroup> {
        var groups = Set<AppGroup>()
        for category in app.categories { groups.formUnion(AppGroup.byCategory[category] ?? []) }
        if titleRules.contains(where: { $0.name == app.id }) { groups.insert(.content) }
        let site = SiteApp.isSite(app)
        if site { groups.formUnion(SiteApp.builtInGroups(of: app)) }
        for (group, edit) in groupEdits {
            if edit.added.contains(app.id) { groups.insert(group) }
            if edit.removed.contains(app.id) { groups.remove(group) }
        }
        // A site of no group counts as the browser it is shown in.
        if site && groups.isEmpty { groups.insert(.browsers) }
        return groups
    }

    /// The classes a mode's allowed-apps list can name that `app` belongs to.
    public func classes(of app: AppInfo) -> Set<AppClass> {
        var classes = Set(groups(of: app).compactMap(\.appClass))
        if isEssential(app) { classes.insert(.essential) }
        if important.contains(app.id) { classes.insert(.important) }
        return classes
    }

    /// Never restricted in any mode: listed as essential, built in, or a safety-critical category.
    public func isEssential(_ app: AppInfo) -> Bool {
        isEssential(app.id) || !AppGroup.essentialCategories.isDisjoint(with: app.categories)
    }

    /// The app's own daily limit, knowing its categories: none when essential or important; its
    /// own line in `[limits]`; else the default one, which under `scope = leisure` covers only
    /// leisure (content, social apps) and apps of no known group. Its groups' limits apply too
    /// (`groupLimits(for:)`); the tighter wins.
    public func limit(for app: AppInfo) -> TimeInterval? {
        if isEssential(app) || important.contains(app.id) { return nil }
        if let own = limits[app.id] { return own }
        let groups = groups(of: app)
        let leisure = !groups.isDisjoint(with: AppGroup.leisure) || groups.isDisjoint(with: AppGroup.unlimitedInLeisureScope)
        return limitScope == .all || leisure ? defaultLimit : nil
    }

    /// The limits of the groups `app` belongs to (`limit set content 2h`), shared by the group's
    /// apps; none for an essential or important app.
    public func groupLimits(for app: AppInfo) -> [(group: AppGroup, limit: TimeInterval)] {
        if isEssential(app) || important.contains(app.id) { return [] }
        return groups(of: app).sorted { $0.rawValue < $1.rawValue }.compactMap { group in groupLimits[group].map { (group, $0) } }
    }
}
