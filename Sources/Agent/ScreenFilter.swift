import DisplayFilter
import FoundationEssentials
import ScreenTimeCore
import X11Backend

/// The display filter on a connection of its own (its RandR events stay apart from the focus
/// source's), opened through X11Backend so that the X server going away is an error, not an exit.
/// Starting it restores whatever a crashed run left on screen.
final class ScreenFilter {
    let connection: X11Connection
    let controller: DisplayFilterController
    let outputs: [DisplayOutputReport]

    init(displayName: String?, runtimeDirectory: String) throws {
        connection = try X11Connection(displayName: displayName)
        controller = try DisplayFilterController(sharing: connection.unsafeDisplayPointer, runtimeDirectory: runtimeDirectory)
        outputs = try controller.start()
    }

    /// When the fade wants its next step; nil while nothing is changing.
    private(set) var nextStep: Date?

    /// Fades to `filter` (about 2 s).
    func set(_ filter: ColorFilter, now: Date) throws {
        nextStep = try controller.setFilter(filter, now: now)
    }

    /// One step of a fade.
    func step(now: Date) throws {
        nextStep = try controller.step(now: now)
    }

    /// Outputs plugged in get the current filter.
    func handleEvents() throws { try controller.drainEvents() }

    /// Puts the screen back as it was; the exit path.
    func restoreAndClose() {
        do { try controller.restore() } catch { Log.warning("could not restore the display: \(error)") }
        controller.close()
        connection.close()
    }
}
