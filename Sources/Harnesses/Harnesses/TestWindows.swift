import CX11
import Foundation
import ScreenTimeCore

/// A top-level window made by `TestWindowClient`.
public struct TestWindow: Hashable, CustomStringConvertible {
    public let xid: UInt
    public init(xid: UInt) { self.xid = xid }
    public var id: WindowID { WindowID(UInt64(xid)) }
    public var description: String { id.description }
}

/// A small X client of its own, playing the user's apps (and a pager) in tests: opens windows
/// that the desktop's openbox manages, activates them as xdotool does, renames and closes them.
public final class TestWindowClient {
    public let display: OpaquePointer
    public let root: UInt
    private var atoms: [String: Atom] = [:]

    public enum Failure: Error, CustomStringConvertible {
        case cannotOpenDisplay(String)
        case notManaged(String)
        public var description: String {
            switch self {
            case .cannotOpenDisplay(let name): return "test client cannot open display \(name)"
            case .notManaged(let what): return "openbox did not manage \(what) in time"
            }
        }
    }

    /// Connects to `display` (nil: $DISPLAY, which the desktop harness sets).
    public init(display name: String? = nil) throws {
        guard let display = XOpenDisplay(name) else { throw Failure.cannotOpenDisplay(name ?? "$DISPLAY") }
        self.display = display
        root = XDefaultRootWindow(display)
    }

    deinit { XCloseDisplay(display) }

    public func atom(_ name: String) -> Atom {
        if let atom = atoms[name] { return atom }
        let atom = XInternAtom(display, name, 0)
        atoms[name] = atom
        return atom
    }

    /// Creates and maps a top-level window with WM_CLASS, WM_NAME, `_NET_WM_NAME` (unless
    /// `netWMName` is false) and `_NET_WM_PID`, then waits until the window manager manages it
    /// (it is in `_NET_CLIENT_LIST`; an override-redirect window only needs to be viewable).
    /// `applicationID` is set as `_GTK_APPLICATION_ID`, `transientFor` as WM_TRANSIENT_FOR.
    public func openWindow(class wmClass: String, instance: String? = nil, title: String, pid: Int32? = nil,
                           windowType: String? = nil, overrideRedirect: Bool = false,
                           netWMName: Bool = true, applicationID: String? = nil,
                           transientFor: TestWindow? = nil) throws -> TestWindow {
        let xid = XCreateSimpleWindow(display, root, 10, 10, 240, 160, 0, 0, 0xffffff)
        let window = TestWindow(xid: xid)
        if overrideRedirect {
            var attributes = XSetWindowAttributes()
            attributes.override_redirect = 1
            XChangeWindowAttributes(display, xid, UInt(CWOverrideRedirect), &attributes)
        }
        setClass(window, class: wmClass, instance: instance ?? wmClass.lowercased())
        setTitle(window, title, netWMName: netWMName)
        if let pid { setCardinals(window, "_NET_WM_PID", type: Atom(XA_CARDINAL), [UInt(pid)]) }
        if let applicationID { setBytes(window, "_GTK_APPLICATION_ID", type: atom("UTF8_STRING"), Array(applicationID.utf8)) }
        if let transientFor { setCardinals(window, "WM_TRANSIENT_FOR", type: Atom(XA_WINDOW), [transientFor.xid]) }
        if let windowType {
            setCardinals(window, "_NET_WM_WINDOW_TYPE", type: Atom(XA_ATOM), [atom("_NET_WM_WINDOW_TYPE_" + windowType)])
        }
        XMapWindow(display, xid)
        XSync(display, 0)
        let managed = waitUntil(timeout: 5) {
            overrideRedirect ? self.isViewable(window) : self.clientList().contains(window.xid)
        }
        guard managed else {
            throw Failure.notManaged("window \(window) (\(wmClass)); viewable: \(isViewable(window)), "
                                     + "answers a sync: \(syncWithWindowManager()), client list: \(clientList())")
        }
        return window
    }

    /// Creates and maps `count` windows at once, as a session restored or a script does, then
    /// waits until the window manager manages them all: the agent sees them arrive in one burst.
    public func openWindows(_ count: Int, class wmClass: (Int) -> String, title: (Int) -> String,
                            pid: Int32? = nil) throws -> [TestWindow] {
        let windows = (0..<count).map { index in
            let window = TestWindow(xid: XCreateSimpleWindow(display, root, 10, 10, 240, 160, 0, 0, 0xffffff))
            setClass(window, class: wmClass(index), instance: wmClass(index).lowercased())
            setTitle(window, title(index))
            if let pid { setCardinals(window, "_NET_WM_PID", type: Atom(XA_CARDINAL), [UInt(pid)]) }
            return window
        }
        for window in windows { XMapWindow(display, window.xid) }
        XSync(display, 0)
        guard waitUntil(timeout: 10, { Set(self.clientList()).isSuperset(of: windows.map(\.xid)) }) else {
            throw Failure.notManaged("a burst of \(count) windows")
        }
        return windows
    }

    /// Destroys `windows` at once.
    public func close(_ windows: [TestWindow]) {
        for window in windows { XDestroyWindow(display, window.xid) }
        XSync(display, 0)
    }

    /// Asks the window manager to activate `window` the way a pager or `xdotool windowactivate`
    /// does: a `_NET_ACTIVE_WINDOW` client message to the root, source indication 2.
    public func activate(_ window: TestWindow) {
        sendToRoot(about: window, "_NET_ACTIVE_WINDOW", (2, Int(CurrentTime), 0, 0, 0))
    }

    /// An EWMH client message about `window` to the root, as pagers send the window manager.
    private func sendToRoot(about window: TestWindow, _ type: String, _ data: (Int, Int, Int, Int, Int)) {
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.window = window.xid
        event.xclient.message_type = atom(type)
        event.xclient.format = 32
        event.xclient.data.l = data
        XSendEvent(display, root, 0, SubstructureRedirectMask | SubstructureNotifyMask, &event)
        XFlush(display)
    }

    /// Waits until the window manager has handled everything this client asked before: it answers
    /// a `_NET_REQUEST_FRAME_EXTENTS` for a fresh unmapped window by setting `_NET_FRAME_EXTENTS`
    /// on it, and handles events in order. Whether it answered within `timeout`.
    @discardableResult
    public func syncWithWindowManager(timeout: TimeInterval = 2) -> Bool {
        let probe = XCreateSimpleWindow(display, root, 0, 0, 1, 1, 0, 0, 0)
        defer { XDestroyWindow(display, probe); XSync(display, 0) }
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.window = probe
        event.xclient.message_type = atom("_NET_REQUEST_FRAME_EXTENTS")
        event.xclient.format = 32
        XSendEvent(display, root, 0, SubstructureRedirectMask | SubstructureNotifyMask, &event)
        XFlush(display)
        return waitUntil(timeout: timeout) { !cardinals(probe, "_NET_FRAME_EXTENTS").isEmpty }
    }

    /// Sets WM_NAME (Latin-1, as XStoreName does) and, unless `netWMName` is false, `_NET_WM_NAME` (UTF-8).
    public func setTitle(_ window: TestWindow, _ title: String, netWMName: Bool = true) {
        let latin1 = Array(title.unicodeScalars.map { $0.value < 256 ? UInt8($0.value) : UInt8(ascii: "?") })
        setBytes(window, "WM_NAME", type: Atom(XA_STRING), latin1)
        if netWMName { setBytes(window, "_NET_WM_NAME", type: atom("UTF8_STRING"), Array(title.utf8)) }
        XFlush(display)
    }

    /// Sets a window's WM_CLASS.
    public func setClass(_ window: TestWindow, class wmClass: String, instance: String) {
        setBytes(window, "WM_CLASS", type: Atom(XA_STRING), Array(instance.utf8) + [0] + Array(wmClass.utf8) + [0])
    }

    /// ICCCM WM_STATE as the window manager set it: 1 normal, 3 iconic; nil when unset.
    public func wmState(_ window: TestWindow) -> Int? {
        cardinals(window.xid, "WM_STATE").first.map { Int($0) }
    }

    /// `_NET_WM_PID`, when set.
    public func pid(of window: TestWindow) -> Int32? {
        cardinals(window.xid, "_NET_WM_PID").first.map { Int32(truncatingIfNeeded: $0) }
    }

    /// WM_TRANSIENT_FOR: the window `window` is a dialog of.
    public func transientFor(_ window: TestWindow) -> TestWindow? {
        cardinals(window.xid, "WM_TRANSIENT_FOR").first.map { TestWindow(xid: $0) }
    }

    /// A text property (UTF8_STRING or STRING) such as `_GTK_UNIQUE_BUS_NAME`; nil when unset.
    public func text(_ window: TestWindow, _ name: String) -> String? {
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        guard toleratingGoneWindows({ XGetWindowProperty(display, window.xid, atom(name), 0, 4096, 0, Atom(AnyPropertyType),
                                                         &type, &format, &count, &after, &data) }) == Success,
              let data else { return nil }
        defer { XFree(data) }
        guard format == 8 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(count)), as: UTF8.self)
    }

    /// `_NET_CLIENT_LIST` on the root.
    public func clientList() -> [UInt] { cardinals(root, "_NET_CLIENT_LIST") }

    /// `_NET_ACTIVE_WINDOW` on the root; nil for None.
    public func activeWindow() -> UInt? { cardinals(root, "_NET_ACTIVE_WINDOW").first.flatMap { $0 == 0 ? nil : $0 } }

    /// Writes `_NET_ACTIVE_WINDOW` on the root directly (0 for None), as the window manager does
    /// between two windows.
    public func setActiveWindowProperty(_ xid: UInt) {
        setCardinals(TestWindow(xid: root), "_NET_ACTIVE_WINDOW", type: Atom(XA_WINDOW), [xid])
        XFlush(display)
    }

    /// Sets the CARDINAL property `name` on the root: a change every client watching the root's
    /// properties is woken for.
    public func setRootProperty(_ name: String, to value: UInt) {
        setCardinals(TestWindow(xid: root), name, type: Atom(XA_CARDINAL), [value])
        XFlush(display)
    }

    /// A PropertyNotify for the root's WINDOW-typed property `name` (as the window manager's raise
    /// of a window brings for `_NET_CLIENT_LIST_STACKING`), its value unchanged: nothing appended.
    public func touchRootWindowList(_ name: String) {
        var nothing: UInt8 = 0
        XChangeProperty(display, root, atom(name), Atom(XA_WINDOW), 32, PropModeAppend, &nothing, 0)
        XFlush(display)
    }

    /// The window manager's frame around `window`: its ancestor that is a child of the root.
    public func frame(of window: TestWindow) -> UInt? {
        var current = window.xid
        while true {
            var rootReturn: UInt = 0
            var parent: UInt = 0
            var children: UnsafeMutablePointer<UInt>?
            var count: UInt32 = 0
            guard XQueryTree(display, current, &rootReturn, &parent, &children, &count) != 0 else { return nil }
            if let children { XFree(children) }
            if parent == root { return current }
            current = parent
        }
    }

    /// A mapped child window inside `window`, as toolkits make.
    public func openChild(of window: TestWindow) -> UInt {
        let child = XCreateSimpleWindow(display, window.xid, 5, 5, 50, 50, 0, 0, 0)
        XMapWindow(display, child)
        XSync(display, 0)
        return child
    }

    /// Gives the input focus to any window directly (XSetInputFocus), bypassing the window manager.
    public func setInputFocus(_ xid: UInt) {
        XSetInputFocus(display, xid, RevertToParent, UInt(CurrentTime))
        XSync(display, 0)
    }

    /// The input focus window now.
    public func inputFocus() -> UInt {
        var focus: UInt = 0
        var revert: Int32 = 0
        XGetInputFocus(display, &focus, &revert)
        return focus
    }

    public func isViewable(_ window: TestWindow) -> Bool {
        var attributes = XWindowAttributes()
        return XGetWindowAttributes(display, window.xid, &attributes) != 0 && attributes.map_state == IsViewable
    }

    /// Withdraws the window (ICCCM: unmap, plus the synthetic UnmapNotify) and waits until the
    /// window manager has dropped it from `_NET_CLIENT_LIST`.
    public func withdraw(_ window: TestWindow) throws {
        XWithdrawWindow(display, window.xid, XDefaultScreen(display))
        XSync(display, 0)
        guard waitUntil(timeout: 5, { !self.clientList().contains(window.xid) }) else {
            throw Failure.notManaged("withdrawal of \(window)")
        }
    }

    /// Maps a withdrawn window again and waits until the window manager manages it.
    public func remap(_ window: TestWindow) throws {
        XMapWindow(display, window.xid)
        XSync(display, 0)
        guard waitUntil(timeout: 5, { self.clientList().contains(window.xid) }) else {
            throw Failure.notManaged("window \(window) mapped again")
        }
    }

    /// Asks the window manager to close `window` as its close button does: a `_NET_CLOSE_WINDOW`
    /// client message to the root (openbox then sends the app WM_DELETE_WINDOW).
    public func requestClose(_ window: TestWindow) {
        sendToRoot(about: window, "_NET_CLOSE_WINDOW", (Int(CurrentTime), 2, 0, 0, 0))
    }

    /// Has the X server close the connection of the client that made `window` (XKillClient).
    public func killClient(_ window: TestWindow) {
        toleratingGoneWindows {
            XKillClient(display, window.xid)
            XSync(display, 0)
        }
    }

    /// WM_CLASS: instance and class; nil when unset.
    public func wmClass(of window: TestWindow) -> (instance: String, wmClass: String)? {
        guard let text = text(window, "WM_CLASS") else { return nil }
        let parts = text.split(separator: "\0", omittingEmptySubsequences: false).map(String.init)
        return parts.count >= 2 ? (parts[0], parts[1]) : nil
    }

    /// Destroys the window.
    public func close(_ window: TestWindow) {
        XDestroyWindow(display, window.xid)
        XSync(display, 0)
    }

    /// Polls `condition` every 10 ms until it holds or `timeout` passes; whether it held.
    @discardableResult
    public func waitUntil(timeout: TimeInterval = 2, _ condition: () throws -> Bool) rethrows -> Bool {
        try Wait.poll(timeout: timeout, every: 0.01, condition)
    }

    // MARK: - Properties

    /// Runs a read of another client's window, which may be destroyed meanwhile (a real app's):
    /// Xlib's default handler would end the test process on the BadWindow; the read just fails.
    private func toleratingGoneWindows<T>(_ read: () -> T) -> T {
        let previous = XSetErrorHandler { _, _ in 0 }
        defer { XSetErrorHandler(previous) }
        return read()
    }

    private func setBytes(_ window: TestWindow, _ name: String, type: Atom, _ bytes: [UInt8]) {
        XChangeProperty(display, window.xid, atom(name), type, 8, PropModeReplace, bytes, Int32(bytes.count))
    }

    private func setCardinals(_ window: TestWindow, _ name: String, type: Atom, _ values: [UInt]) {
        // Format-32 data goes to Xlib as C longs.
        let longs = values.map { Int(bitPattern: $0) }
        _ = longs.withUnsafeBytes { raw in
            XChangeProperty(display, window.xid, atom(name), type, 32, PropModeReplace,
                            raw.bindMemory(to: UInt8.self).baseAddress, Int32(values.count))
        }
    }

    private func cardinals(_ xid: UInt, _ name: String) -> [UInt] {
        var type: Atom = 0
        var format: Int32 = 0
        var count: UInt = 0
        var after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        guard toleratingGoneWindows({ XGetWindowProperty(display, xid, atom(name), 0, 4096, 0, Atom(AnyPropertyType), &type,
                                                         &format, &count, &after, &data) }) == Success, let data else { return [] }
        defer { XFree(data) }
        guard format == 32 else { return [] }
        return data.withMemoryRebound(to: UInt.self, capacity: Int(count)) { longs in
            (0..<Int(count)).map { UInt(UInt32(truncatingIfNeeded: longs[$0])) }
        }
    }
}
