import CX11
import Glibc
import ScreenTimeCore
import X11ErrorTraps

// The one file of this module that calls Xlib and the XScreenSaver/XSync/RandR extensions. Everything
// else sees typed values (`Window`, `Atom`, `PropertyValue`) and typed errors (`X11Error`).
//
// Errors: Xlib's exiting handlers are replaced for every X connection of the process by
// `XErrorTraps` (its own target, shared with the display filter); `checked` turns what it
// trapped into `X11Error.protocolError`, forcing it to arrive first with XSync for requests that
// have no reply (XSelectInput, XSendEvent), and a lost connection into `X11Error.connectionLost`.

/// An X window id (XID).
struct Window: Hashable, CustomStringConvertible {
    let rawValue: UInt
    static let none = Window(rawValue: 0)
    init(rawValue: UInt) { self.rawValue = rawValue }
    init(_ id: WindowID) { rawValue = UInt(truncatingIfNeeded: id.rawValue) }
    var id: WindowID { WindowID(UInt64(rawValue)) }
    var description: String { id.description }
}

/// An interned X atom.
struct Atom: Hashable {
    let rawValue: UInt
    static let none = Atom(rawValue: 0)
}

/// A window property as read: its type, format (8, 16 or 32) and items.
struct PropertyValue {
    var type: Atom
    var format: Int32
    /// The raw bytes, for format 8.
    var bytes: [UInt8]
    /// The items, for format 32 (each a 32-bit value: windows, atoms, cardinals).
    var items: [UInt]
}

/// Xlib constants the rest of the module needs, so that only this file imports CX11.
enum XConstants {
    static let propertyChangeMask = PropertyChangeMask
    static let noEventMask = NoEventMask
    static let structureNotifyMask = StructureNotifyMask
    /// ICCCM WM_STATE value of a minimized window.
    static let iconicState = UInt(IconicState)
}

/// The parts of XWindowAttributes we use.
struct WindowAttributes {
    var overrideRedirect: Bool
    /// This client's event mask on the window.
    var eventMask: Int
    var isViewable: Bool
}

/// An XSync counter (the server's IDLETIME system counter).
struct SyncCounter: Hashable {
    let rawValue: UInt
}

/// An XSync alarm: the server sends an AlarmNotify event when its counter passes its value.
struct SyncAlarm: Hashable {
    let rawValue: UInt
}

/// The alarm tests the backend uses. Comparisons, not transitions: they fire at once when
/// already true when set, so a change that happens while the alarm is being moved is not missed.
/// With a delta of 0 the alarm goes inactive after firing, until it is changed again.
enum SyncAlarmTest {
    /// Fires when the counter is at least the value (PositiveComparison).
    case atLeast
    /// Fires when the counter is at most the value (NegativeComparison).
    case atMost
}

/// The codes of the extension events the backend decodes; nil when the server lacks the extension.
struct ExtensionEventCodes {
    var syncAlarmNotify: Int32?
    var screenSaverNotify: Int32?
}

/// An event read from the connection, reduced to what the backend reacts to.
enum XEventSummary {
    /// `serial`: the last request the server had processed when it changed the property; a
    /// change with a serial below a read's request was seen by that read.
    case propertyChanged(window: Window, atom: Atom, serial: UInt)
    /// A window we selected StructureNotify on was destroyed: its id is free for another.
    case destroyed(window: Window)
    case syncAlarm(SyncAlarm)
    /// The server's screen saver started (on or cycling) or stopped.
    case screenSaver(on: Bool)
    case other
}

/// What XScreenSaverQueryInfo reports.
struct ScreenSaverInfo {
    var idleMilliseconds: UInt
    var isOn: Bool
}

/// A connected Display, with thin typed wrappers over the calls the backend makes.
struct XDisplay {
    let pointer: OpaquePointer

    /// Opens `name` (nil: $DISPLAY) and installs the error handlers described above.
    static func open(_ name: String?) throws -> XDisplay {
        XErrorTraps.installHandlers()
        guard let pointer = XOpenDisplay(name) else {
            throw X11Error.cannotOpenDisplay(name: name ?? "$DISPLAY (unset)")
        }
        XErrorTraps.opened(pointer)
        return XDisplay(pointer: pointer)
    }

    func close() {
        XErrorTraps.closed(pointer)
        XCloseDisplay(pointer)
    }

    var name: String { XDisplayString(pointer).map { String(cString: $0) } ?? "?" }
    var isLost: Bool { XErrorTraps.isLost(pointer) }
    var fileDescriptor: Int32 { XConnectionNumber(pointer) }
    var root: Window { Window(rawValue: XDefaultRootWindow(pointer)) }
    var screen: Int32 { XDefaultScreen(pointer) }

    /// The error helper: runs one Xlib call and turns a lost connection, a protocol error or a
    /// failed Status into a typed error naming the operation and window. `sync` waits for the
    /// server's verdict on requests that have no reply.
    @discardableResult
    func checked<T>(_ operation: String, window: Window? = nil, sync: Bool = false,
                    succeeded: (T) -> Bool = { _ in true }, _ call: () -> T) throws -> T {
        guard !isLost else { throw X11Error.connectionLost(display: name) }
        let (result, error) = XErrorTraps.trapping(pointer, sync: sync, call)
        guard !isLost else { throw X11Error.connectionLost(display: name) }
        if let error {
            throw X11Error.protocolError(operation: operation, window: window?.id, code: XErrorCode(error.code))
        }
        guard succeeded(result) else { throw X11Error.requestFailed(operation: operation, window: window?.id) }
        return result
    }

    /// The error helper for calls that only read what the server sent (events), and make no
    /// request: only a lost connection fails them. A trap records the errors of its own requests
    /// (from its first serial on), so an error such a call reads in, for an earlier request, was
    /// never theirs: the trap's bookkeeping is left out of every turn's reads.
    func reading<T>(_ call: () -> T) throws -> T {
        guard !isLost else { throw X11Error.connectionLost(display: name) }
        let result = call()
        guard !isLost else { throw X11Error.connectionLost(display: name) }
        return result
    }

    /// Waits until the server has handled every request sent so far.
    func sync() throws {
        try checked("XSync") { XSync(pointer, 0) }
    }

    func internAtoms(_ names: [String]) throws -> [Atom] {
        var cNames: [UnsafeMutablePointer<CChar>?] = names.map { strdup($0) }
        defer { cNames.forEach { free($0) } }
        var atoms = [UInt](repeating: 0, count: names.count)
        try checked("XInternAtoms", succeeded: { $0 != 0 }) {
            XInternAtoms(pointer, &cNames, Int32(names.count), 0, &atoms)
        }
        return atoms.map { Atom(rawValue: $0) }
    }

    func atomName(_ atom: Atom) throws -> String {
        let cName = try checked("XGetAtomName", succeeded: { $0 != nil }) { XGetAtomName(pointer, atom.rawValue) }
        guard let cName else { return "" }
        defer { XFree(cName) }
        return String(cString: cName)
    }

    /// Reads up to `maxLength` 32-bit units of a property; nil when the window lacks it.
    func property(_ window: Window, _ atom: Atom, maxLength: Int = 1024) throws -> PropertyValue? {
        var type: UInt = 0
        var format: Int32 = 0
        var count: UInt = 0
        var bytesAfter: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        try checked("XGetWindowProperty", window: window, succeeded: { $0 == Success }) {
            XGetWindowProperty(pointer, window.rawValue, atom.rawValue, 0, maxLength, 0, UInt(AnyPropertyType),
                               &type, &format, &count, &bytesAfter, &data)
        }
        guard let data else { return nil }
        defer { XFree(data) }
        guard type != 0 else { return nil }
        var value = PropertyValue(type: Atom(rawValue: type), format: format, bytes: [], items: [])
        switch format {
        case 8:
            value.bytes = Array(UnsafeBufferPointer(start: data, count: Int(count)))
        case 32:
            // Xlib hands format-32 data as an array of C long, whatever the platform's long size.
            data.withMemoryRebound(to: UInt.self, capacity: Int(count)) { longs in
                value.items = (0..<Int(count)).map { UInt(UInt32(truncatingIfNeeded: longs[$0])) }
            }
        default:
            break
        }
        return value
    }

    func attributes(_ window: Window) throws -> WindowAttributes {
        var attributes = XWindowAttributes()
        try checked("XGetWindowAttributes", window: window, succeeded: { $0 != 0 }) {
            XGetWindowAttributes(pointer, window.rawValue, &attributes)
        }
        return WindowAttributes(overrideRedirect: attributes.override_redirect != 0,
                                eventMask: attributes.your_event_mask,
                                isViewable: attributes.map_state == IsViewable)
    }

    /// Queued, not waited for: an error (BadWindow when the window just closed, which callers
    /// accept) arrives later, outside any `checked` call, and is dropped. Flush or make a round
    /// trip before waiting on the socket.
    func selectInput(_ window: Window, mask: Int) throws {
        try checked("XSelectInput", window: window) { XSelectInput(pointer, window.rawValue, mask) }
    }

    /// Sends the queued requests without waiting for the server.
    func flush() throws {
        try checked("XFlush") { XFlush(pointer) }
    }

    /// The serial the next request will get: the difference across a call counts its requests.
    var nextRequestSerial: UInt { XNextRequest(pointer) }

    func queryTree(_ window: Window) throws -> (parent: Window, children: [Window]) {
        var root: UInt = 0
        var parent: UInt = 0
        var children: UnsafeMutablePointer<UInt>?
        var count: UInt32 = 0
        try checked("XQueryTree", window: window, succeeded: { $0 != 0 }) {
            XQueryTree(pointer, window.rawValue, &root, &parent, &children, &count)
        }
        guard let children else { return (Window(rawValue: parent), []) }
        defer { XFree(children) }
        let list = UnsafeBufferPointer(start: children, count: Int(count)).map { Window(rawValue: $0) }
        return (Window(rawValue: parent), list)
    }

    /// The window with input focus: `.none`, PointerRoot (1) or a window.
    func inputFocus() throws -> Window {
        var focus: UInt = 0
        var revertTo: Int32 = 0
        try checked("XGetInputFocus") { XGetInputFocus(pointer, &focus, &revertTo) }
        return Window(rawValue: focus)
    }

    /// ICCCM iconify: a WM_CHANGE_STATE client message to the root, which the WM acts on.
    /// Flushed, not synced: the message names the window in its data, so the server has no error
    /// to give about it (and the WM acts later anyway).
    func iconify(_ window: Window) throws {
        try checked("XIconifyWindow", window: window, succeeded: { $0 != 0 }) {
            XIconifyWindow(pointer, window.rawValue, screen)
        }
        try flush()
    }

    /// Events queued now (reading whatever the socket holds, without blocking).
    func pendingEvents() throws -> Int32 {
        try reading { XPending(pointer) }
    }

    /// Events already in Xlib's queue, without reading the socket.
    func queuedEvents() -> Int32 {
        isLost ? 0 : XEventsQueued(pointer, QueuedAlready)
    }

    /// Reads one event (blocking when none is queued) and decodes the kinds in `codes`.
    func nextEvent(codes: ExtensionEventCodes) throws -> XEventSummary {
        var event = XEvent()
        try reading { XNextEvent(pointer, &event) }
        if event.type == PropertyNotify {
            return .propertyChanged(window: Window(rawValue: event.xproperty.window),
                                    atom: Atom(rawValue: event.xproperty.atom), serial: event.xproperty.serial)
        }
        if event.type == DestroyNotify {
            return .destroyed(window: Window(rawValue: event.xdestroywindow.window))
        }
        // Xlib converted extension events into the extension's struct (the extension's query
        // registered the converter), stored in the XEvent union.
        if let code = codes.syncAlarmNotify, event.type == code {
            let alarm = withUnsafePointer(to: &event) {
                $0.withMemoryRebound(to: XSyncAlarmNotifyEvent.self, capacity: 1) { $0.pointee.alarm }
            }
            return .syncAlarm(SyncAlarm(rawValue: alarm))
        }
        if let code = codes.screenSaverNotify, event.type == code {
            let state = withUnsafePointer(to: &event) {
                $0.withMemoryRebound(to: XScreenSaverNotifyEvent.self, capacity: 1) { $0.pointee.state }
            }
            return .screenSaver(on: state != ScreenSaverOff)
        }
        return .other
    }

    /// Queries (and initializes, for XSync) the extensions whose events `nextEvent` decodes.
    func extensionEventCodes() throws -> ExtensionEventCodes {
        var codes = ExtensionEventCodes()
        var eventBase: Int32 = 0
        var errorBase: Int32 = 0
        if try checked("XSyncQueryExtension", { XSyncQueryExtension(pointer, &eventBase, &errorBase) }) != 0 {
            var major: Int32 = 0
            var minor: Int32 = 0
            if try checked("XSyncInitialize", { XSyncInitialize(pointer, &major, &minor) }) != 0 {
                codes.syncAlarmNotify = eventBase + Int32(XSyncAlarmNotify)
            }
        }
        if try checked("XScreenSaverQueryExtension", { XScreenSaverQueryExtension(pointer, &eventBase, &errorBase) }) != 0 {
            codes.screenSaverNotify = eventBase + Int32(ScreenSaverNotify)
        }
        return codes
    }

    /// The XSync system counter called `name` (IDLETIME), nil when the server has none.
    func systemCounter(named name: String) throws -> SyncCounter? {
        var count: Int32 = 0
        let list = try checked("XSyncListSystemCounters") { XSyncListSystemCounters(pointer, &count) }
        guard let list else { return nil }
        defer { XSyncFreeSystemCounterList(list) }
        for counter in UnsafeBufferPointer(start: list, count: Int(count)) {
            if let cName = counter.name, String(cString: cName) == name { return SyncCounter(rawValue: counter.counter) }
        }
        return nil
    }

    func queryCounter(_ counter: SyncCounter) throws -> Int64 {
        var value = XSyncValue()
        try checked("XSyncQueryCounter", succeeded: { $0 != 0 }) { XSyncQueryCounter(pointer, counter.rawValue, &value) }
        return Int64(value.hi) << 32 | Int64(value.lo)
    }

    /// Creates an alarm on `counter` that sends this client an event when `test` holds for `value`.
    func createAlarm(on counter: SyncCounter, _ test: SyncAlarmTest, _ value: Int64) throws -> SyncAlarm {
        var attributes = Self.alarmAttributes(test, value)
        attributes.trigger.counter = counter.rawValue
        let mask = UInt(XSyncCACounter | XSyncCAValueType | XSyncCAValue | XSyncCATestType | XSyncCADelta | XSyncCAEvents)
        let alarm = try checked("XSyncCreateAlarm", sync: true, succeeded: { $0 != 0 }) {
            XSyncCreateAlarm(pointer, mask, &attributes)
        }
        return SyncAlarm(rawValue: alarm)
    }

    /// Moves an alarm to a new test and value, which also makes it active again.
    func changeAlarm(_ alarm: SyncAlarm, _ test: SyncAlarmTest, _ value: Int64) throws {
        var attributes = Self.alarmAttributes(test, value)
        let mask = UInt(XSyncCAValueType | XSyncCAValue | XSyncCATestType | XSyncCADelta | XSyncCAEvents)
        try checked("XSyncChangeAlarm", sync: true, succeeded: { $0 != 0 }) {
            XSyncChangeAlarm(pointer, alarm.rawValue, mask, &attributes)
        }
    }

    func destroyAlarm(_ alarm: SyncAlarm) throws {
        try checked("XSyncDestroyAlarm", sync: true) { XSyncDestroyAlarm(pointer, alarm.rawValue) }
    }

    private static func alarmAttributes(_ test: SyncAlarmTest, _ value: Int64) -> XSyncAlarmAttributes {
        var attributes = XSyncAlarmAttributes()
        attributes.trigger.value_type = XSyncAbsolute
        attributes.trigger.wait_value = XSyncValue(hi: Int32(truncatingIfNeeded: value >> 32),
                                                   lo: UInt32(truncatingIfNeeded: value))
        attributes.trigger.test_type = test == .atLeast ? XSyncPositiveComparison : XSyncNegativeComparison
        attributes.delta = XSyncValue(hi: 0, lo: 0)
        attributes.events = 1
        return attributes
    }

    /// Asks for ScreenSaverNotify events (the server's screen saver starting and stopping).
    func selectScreenSaverEvents() throws {
        try checked("XScreenSaverSelectInput", window: root, sync: true) {
            XScreenSaverSelectInput(pointer, root.rawValue, UInt(ScreenSaverNotifyMask))
        }
    }

    func hasScreenSaverExtension() throws -> Bool {
        var eventBase: Int32 = 0
        var errorBase: Int32 = 0
        return try checked("XScreenSaverQueryExtension") {
            XScreenSaverQueryExtension(pointer, &eventBase, &errorBase)
        } != 0
    }

    func screenSaverInfo() throws -> ScreenSaverInfo {
        guard let info = XScreenSaverAllocInfo() else {
            throw X11Error.requestFailed(operation: "XScreenSaverAllocInfo", window: nil)
        }
        defer { XFree(info) }
        try checked("XScreenSaverQueryInfo", window: root, succeeded: { $0 != 0 }) {
            XScreenSaverQueryInfo(pointer, root.rawValue, info)
        }
        return ScreenSaverInfo(idleMilliseconds: info.pointee.idle, isOn: info.pointee.state == ScreenSaverOn)
    }

    /// RandR's protocol version, nil when the extension is missing.
    func randrVersion() throws -> (major: Int, minor: Int)? {
        var eventBase: Int32 = 0
        var errorBase: Int32 = 0
        guard try checked("XRRQueryExtension", { XRRQueryExtension(pointer, &eventBase, &errorBase) }) != 0 else {
            return nil
        }
        var major: Int32 = 0
        var minor: Int32 = 0
        try checked("XRRQueryVersion", succeeded: { $0 != 0 }) { XRRQueryVersion(pointer, &major, &minor) }
        return (Int(major), Int(minor))
    }
}
