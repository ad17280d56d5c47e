import FoundationEssentials
import ScreenTimeCore

/// A provider's own connection to the compositor and its registry: the `DesktopConnection` part
/// every Wayland provider shares. Events are dispatched only from `handleReadable`, on the agent's
/// loop; nothing waits for the compositor after the connect-time round trips.
public class WaylandClient: DesktopConnection {
    let display: WaylandDisplay
    let registry: RegistryProxy

    /// The connection and its registry, read once (`RegistryProxy.connect`); the provider has
    /// bound what it needs before.
    init(display: WaylandDisplay, registry: RegistryProxy) {
        self.display = display
        self.registry = registry
    }

    public var pollDescriptor: Int32 { display.descriptor }
    public var wantsToWrite: Bool { display.wantsToWrite }
    /// libwayland queues what it read and `handleReadable` dispatches all of it.
    public var hasBufferedInput: Bool { false }
    public func handleReadable() throws { try display.readAndDispatch() }
    public func nextDeadline(after now: Date) -> Date? { nil }
    public func handleDeadline(now: Date) throws {}
    public func close() { display.disconnect() }
}
