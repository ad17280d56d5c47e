/// The edits `screentime group` and `screentime rule` make to the config file, kept in the
/// user's `[groups]` and `[rules]` sections line by line (comments stay).
extension KeyFile {
    /// Puts `app` in `group` (true) or takes it out (false), even where its Categories put it in;
    /// nil drops the edit (its Categories decide again).
    public mutating func setGroupMember(_ group: AppGroup, _ app: AppID, _ on: Bool?) {
        var edit = GroupEdit(list: value(group.rawValue, in: ConfigKey.groups) ?? "")
        edit.place(app, on)
        if edit.isEmpty { remove(group.rawValue, in: ConfigKey.groups) } else {
            set(group.rawValue, to: edit.list, in: ConfigKey.groups)
        }
    }

    /// Adds a window-title match to the rule `name`, creating the rule (a built-in one keeps its matches).
    public mutating func addTitleRule(_ name: AppID, _ match: TitleRule.Match) {
        let builtIn = TitleRule.builtIn.first { $0.name == name }?.matches.map(\.text) ?? []
        var items = value(name.rawValue, in: ConfigKey.rules).map(KeyFileList.split) ?? builtIn
        if !items.contains(match.text) { items.append(match.text) }
        set(name.rawValue, to: KeyFileList.join(items), in: ConfigKey.rules)
    }

    /// Removes the rule `name`. A built-in rule stays off as `NAME =` (a line removed would bring
    /// it back); returns whether there was a rule to remove.
    @discardableResult
    public mutating func removeTitleRule(_ name: AppID) -> Bool {
        guard TitleRule.builtIn.contains(where: { $0.name == name }) else { return remove(name.rawValue, in: ConfigKey.rules) }
        let wasOn = value(name.rawValue, in: ConfigKey.rules).map { !KeyFileList.split($0).isEmpty } ?? true
        set(name.rawValue, to: "", in: ConfigKey.rules)
        return wasOn
    }
}
