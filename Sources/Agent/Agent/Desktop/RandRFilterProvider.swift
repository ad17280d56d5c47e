import Logging
import DisplayFilter
import FoundationEssentials
import ScreenTimeCore
import X11Backend

/// Grayscale and warmth on X11, on a connection of its own (its RandR events stay apart from the
/// focus source's), opened through X11Backend so that the X server going away is an error, not an
/// exit. Starting it restores whatever a crashed run left on screen.
final class RandRFilterProvider: ScreenFilterProvider, DesktopConnection {
    let connection: X11Connection
    let controller: DisplayFilterController
    let outputs: [DisplayOutputReport]
    let abilities: ScreenFilterAbilities

    init(displayName: String?, runtimeDirectory: String) throws {
        connection = try X11Connection(displayName: displayName)
        controller = try DisplayFilterController(sharing: connection.unsafeDisplayPointer, runtimeDirectory: runtimeDirectory)
        outputs = try controller.start()
        // Without a colour matrix on every output, grayscale shows as dimming there.
        abilities = ScreenFilterAbilities(grayscale: !outputs.isEmpty && outputs.allSatisfy(\.hasCTM), warmth: !outputs.isEmpty)
    }

    var providerName: String {
        "RandR: " + (outputs.isEmpty ? "no outputs" : outputs.map(\.description).joined(separator: "; "))
    }

    /// Fades to `filter` (about 2 s); returns when to step next.
    func set(_ filter: ColorFilter, now: Date) throws -> Date? { try controller.setFilter(filter, now: now) }

    func step(now: Date) throws -> Date? { try controller.step(now: now) }

    var pollDescriptor: Int32 { connection.fileDescriptor }
    let wantsToWrite = false
    let hasBufferedInput = false

    /// Outputs plugged in get the current filter.
    func handleReadable() throws { _ = try controller.drainEvents() }
    func nextDeadline(after now: Date) -> Date? { nil }
    func handleDeadline(now: Date) throws {}

    func restore() {
        do { try controller.restore() } catch { Log.warning("could not restore the display: \(error)") }
    }

    func close() {
        controller.close()
        connection.close()
    }
}
