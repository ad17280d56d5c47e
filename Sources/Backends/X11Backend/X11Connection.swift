/// One connection to an X server, shared by the focus source, window control and idle source of
/// one agent (all used from one thread). Atoms are interned once, when it opens.
public final class X11Connection {
    let display: XDisplay
    let atoms: AtomTable
    let root: Window
    /// Reads this connection's events for every component that uses it.
    let events: X11EventRouter
    /// Stable facts of managed windows, shared by the focus source and the window control.
    let windowFacts: WindowFactsCache
    /// The display's name as Xlib resolved it (`:0`).
    public let displayName: String
    private var isClosed = false

    /// Opens `displayName`, or `$DISPLAY` when nil.
    public init(displayName: String? = nil) throws {
        display = try XDisplay.open(displayName)
        do {
            atoms = try AtomTable(display)
            events = X11EventRouter(display: display, codes: try display.extensionEventCodes())
        } catch {
            display.close()
            throw error
        }
        root = display.root
        fileDescriptor = display.fileDescriptor
        self.displayName = display.name
        windowFacts = WindowFactsCache(events: events, root: root, clientListAtom: atoms.netClientList)
    }

    /// Selects PropertyChangeMask on the root (keeping this client's other events there) and so
    /// enables `windowFacts`. Only for a component that drains this connection's events: nothing
    /// else would read them.
    func watchRootProperties() throws {
        guard !isWatchingRoot else { return }
        let mask = try display.attributes(root).eventMask
        try display.selectInput(root, mask: mask | XConstants.propertyChangeMask)
        try display.sync()
        isWatchingRoot = true
        windowFacts.enable()
    }

    private var isWatchingRoot = false

    deinit { close() }

    /// The Xlib `Display *`, for a component that drives its own extension on this connection
    /// (the display filter's RandR) and so gets this connection's error handling. It must not
    /// outlive the connection.
    public var unsafeDisplayPointer: OpaquePointer { display.pointer }

    /// The socket to poll for readability (ConnectionNumber), asked for at every turn.
    public let fileDescriptor: Int32

    /// To be called after each poll of `fileDescriptor`: the components draining this connection
    /// then read the socket once per wakeup between them, not once each.
    public func socketPolled() { events.socketPolled() }

    /// Whether the server went away; every call then throws `X11Error.connectionLost`.
    public var isConnectionLost: Bool { display.isLost }

    /// Events wait inside Xlib (read in during our own requests), where polling `fileDescriptor`
    /// would not see them: drain the sources before waiting again.
    public var hasQueuedEvents: Bool { !isClosed && events.hasQueuedEvents }

    /// Open and not lost: requests can still be sent.
    var isUsable: Bool { !isClosed && !display.isLost }

    /// Closes the connection (safe after it was lost). Later calls on sources using it must not happen.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        display.close()
    }
}
