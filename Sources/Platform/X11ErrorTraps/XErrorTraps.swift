import CX11

// Xlib's default handlers exit the process: a protocol error (BadWindow when a window we were
// reading closed, which is routine) and an I/O error (the server went away) both end in exit(1).
// Every X connection of the process (the focus backend's, the display filter's) shares these:
// - XSetErrorHandler: the handler only records the error for the display while a `trapping` call
//   is open; errors outside one are dropped.
// - XSetIOErrorHandler (process-wide): Xlib calls it first when the connection breaks; the
//   default prints and exits and never returns, so replacing it is mandatory. Ours marks the
//   display lost and returns.
// - XSetIOErrorExitHandler (libX11 >= 1.7.99, per display, set by `opened` right after
//   XOpenDisplay): Xlib calls it after the handler above and exits when it is the default. Ours
//   returns, so Xlib unwinds the call in progress, which fails; every later call on that display
//   returns at once (XlibDisplayIOError), and XCloseDisplay on it is safe.
// Limits: an I/O error inside XOpenDisplay's handshake, before a display exists to hang the exit
// handler on, still exits (only longjmp out of the handler could avoid it, which Swift cannot
// do safely). The handlers are process-wide: a library that replaces them later takes over.

/// Process-wide state behind the C error handlers, which cannot capture context. The agent
/// talks to X from its one thread (so do the tests): the state is only touched there.
public enum XErrorTraps {
    /// The first error a trapped call brought: its code and the request that failed.
    public struct Trapped: Equatable, Sendable {
        public let code: UInt8
        public let request: UInt8
        public let minor: UInt8
    }

    /// Displays inside a `trapping` call, innermost last: the request serial it started at and the
    /// first error since. A stack rather than a dictionary: there are one or two displays and
    /// calls nest rarely, and every X read of a focus switch goes through here.
    nonisolated(unsafe) private static var open: [(display: OpaquePointer, startSerial: UInt, error: Trapped?)] = []
    /// Displays whose connection broke (almost always none).
    nonisolated(unsafe) private static var lost: [OpaquePointer] = [] {
        didSet { lostCount = lost.count }
    }
    /// `lost.count`, read by every X call: a constant-initialized global needs no lazy
    /// initialization check, where the array does.
    nonisolated(unsafe) private static var lostCount = 0
    nonisolated(unsafe) private static var installed = false

    /// Replaces Xlib's exiting handlers, once; call before the first XOpenDisplay.
    public static func installHandlers() {
        guard !installed else { return }
        installed = true
        _ = XSetErrorHandler { display, event in
            guard let display, let event, let index = XErrorTraps.open.lastIndex(where: { $0.display == display }) else { return 0 }
            let trap = XErrorTraps.open[index]
            if trap.error == nil && event.pointee.serial >= trap.startSerial {
                XErrorTraps.open[index].error = Trapped(code: event.pointee.error_code, request: event.pointee.request_code,
                                                        minor: event.pointee.minor_code)
            }
            return 0
        }
        _ = XSetIOErrorHandler { display in
            if let display { XErrorTraps.markLost(display) }
            return 0
        }
    }

    /// A display just opened: a broken connection marks it lost instead of ending the process.
    public static func opened(_ display: OpaquePointer) {
        lost.removeAll { $0 == display }
        XSetIOErrorExitHandler(display, { display, _ in
            if let display { XErrorTraps.markLost(display) }
        }, nil)
    }

    /// Forgets `display` before XCloseDisplay.
    public static func closed(_ display: OpaquePointer) {
        lost.removeAll { $0 == display }
        open.removeAll { $0.display == display }
    }

    public static func isLost(_ display: OpaquePointer) -> Bool { lostCount > 0 && lost.contains(display) }

    private static func markLost(_ display: OpaquePointer) {
        if !lost.contains(display) { lost.append(display) }
    }

    /// Runs `call` with the errors its requests bring recorded rather than dropped; with `sync`,
    /// waits for the server's verdict on requests that have no reply. Returns the call's result
    /// and the first error (nested calls each see their own).
    public static func trapping<T>(_ display: OpaquePointer, sync: Bool, _ call: () -> T) -> (result: T, error: Trapped?) {
        open.append((display, XNextRequest(display), nil))
        let result = call()
        if sync { XSync(display, 0) }
        guard let index = open.lastIndex(where: { $0.display == display }) else { return (result, nil) }  // closed meanwhile
        return (result, open.remove(at: index).error)
    }
}
