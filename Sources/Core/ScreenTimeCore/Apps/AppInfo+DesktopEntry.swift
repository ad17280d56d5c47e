extension AppInfo {
    /// The app a desktop entry describes, with the categories that place it in groups.
    public init(_ entry: DesktopEntry) {
        self.init(id: AppID(entry.id), name: entry.name, icon: entry.icon, categories: entry.categories)
    }
}
