import ScreenTimeCore

extension AgentRunner {
    /// Watches the desktop-entry folders as they are now (new subfolders included).
    func watchDesktopEntries() {
        desktopEntryWatch.watch(DesktopEntryIndex.directoriesToWatch(environment: options.environment))
    }

    /// An entry was written, replaced or removed: the next window is named by the entries as they are now.
    func desktopEntriesChanged() {
        desktopEntryWatch.drain()
        watchDesktopEntries()
        resolver = AppResolver(entries: DesktopEntryIndex.load(environment: options.environment))
    }
}
