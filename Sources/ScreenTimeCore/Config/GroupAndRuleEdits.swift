/// The edits `screentime group` and `screentime rule` make to the config file, kept in the
/// user's `[groups]` and `[rules]` sections line by line (comments stay).
extension KeyFile {
    /// Puts `app` in `group` (on) or takes it out (off), even where its Categories put it in.
    public mutating func setGroupMember(_ group: AppGroup, _ app: AppID, _ on: Bool) {
        var edit = GroupEdit(list: value(group.rawValue, in: ConfigKey.groups) ?? "")
        edit.added.remove(app)
        edit.removed.remove(app)
        if on { edit.added.insert(app) } else { edit.removed.insert(app) }
        set(group.rawValue, to: edit.list, in: ConfigKey.groups)
    }

    /// Adds a window-title match to the rule `name`, creating the rule.
    public mutating func addTitleRule(_ name: AppID, _ match: TitleRule.Match) {
        var items = KeyFileList.split(value(name.rawValue, in: ConfigKey.rules) ?? "")
        if !items.contains(match.text) { items.append(match.text) }
        set(name.rawValue, to: KeyFileList.join(items), in: ConfigKey.rules)
    }

    @discardableResult
    public mutating func removeTitleRule(_ name: AppID) -> Bool { remove(name.rawValue, in: ConfigKey.rules) }
}
