import FoundationEssentials
import LocalSystem
import ScreenTimeCore

extension AgentRunner {
    /// Watches the desktop-entry folders as they are now (new subfolders included).
    func watchDesktopEntries() {
        desktopEntryWatch.watch(DesktopEntryIndex.directoriesToWatch(environment: options.environment))
    }

    /// An entry was written, replaced or removed: windows are named by the entries as they are now,
    /// the focused one at once (an app installed while it is open stops being a stranger).
    func desktopEntriesChanged(at now: Date) {
        watchDesktopEntries()
        desktopEntries = DesktopEntryIndex.load(environment: options.environment)
        resolver = AppResolver(entries: desktopEntries)
        guard let desktop else { return }
        do {
            let facts = try desktop.focus.currentFocus()
            // The engine's focused app is after title rules: compare like with like.
            let app = focusedApp(facts).map { engine.settings.titleRules.app(for: $0.app, title: $0.title).id }
            if app != engine.focused?.app.id { focusMoved(to: facts, at: now) }
        } catch {
            desktopLost(error, at: now)
        }
    }
}
