import DoNotDisturb
import Agent
import ScreenTimeCLI
import Glibc
import DisplayFilter
import ScreenTimeCore

struct DisplayCommand: DescribedCommand {
    typealias Description = DisplayDescription

    init(_ arguments: Arguments) throws {
        let action = try arguments.next("an action (restore)")
        guard action == "restore" else { throw UsageError(message: "unknown action `\(action)`") }
        try arguments.finish()
    }

    func run(_ context: Context) throws {
        if let server = DoNotDisturbRestore.run(environment: context.environment, now: { SystemClock().read().wall }) {
            context.print("gave \(server) its own do-not-disturb state back")
        }
        if SessionFacts(environment: context.environment).isWayland {
            // The compositor's own filter (a shell extension, Night Light, gamma control) is put back
            // by its provider, which restores what a crashed agent left.
            let provider = DesktopConnector.restoreScreen(environment: context.environment)
            return context.print(provider == "none" ? "nothing to restore: no screen filter on this desktop"
                                                    : "restored the colours through \(provider)")
        }
        let runtime = XDGPaths.runtimeDirectory(environment: context.environment, uid: getuid())
        let filter: DisplayFilterController
        do { filter = try DisplayFilterController(displayName: context.environment["DISPLAY"], runtimeDirectory: runtime) } catch {
            throw CommandFailure(message: "cannot open the display: \(error)")
        }
        defer { filter.close() }
        let restored = try filter.restoreFromSavedState()
        context.print(restored.isEmpty ? "nothing to restore: no filter was left on screen"
                                       : "restored the colours of " + restored.joined(separator: ", "))
    }
}
