import CX11
import SystemErrors
import Glibc

// The benchmark's floor: the least an event-driven X client can do for the agent's job. On each
// `_NET_ACTIVE_WINDOW` change it reads the active window's WM_CLASS and iconifies it when the
// class is the one named. No config, no store, no bus: what is left of its cost is X itself.
// Usage: screentime-floor CLASS (on $DISPLAY)

guard CommandLine.arguments.count == 2, let display = XOpenDisplay(nil) else {
    StandardStream.error.write("usage: screentime-floor CLASS (with $DISPLAY set)\n")
    exit(2)
}
let target = CommandLine.arguments[1]
let root = XDefaultRootWindow(display)
let activeAtom = XInternAtom(display, "_NET_ACTIVE_WINDOW", 0)
XSelectInput(display, root, PropertyChangeMask)

func activeWindow() -> Window {
    var type: Atom = 0
    var format: Int32 = 0
    var count: UInt = 0
    var after: UInt = 0
    var data: UnsafeMutablePointer<UInt8>?
    guard XGetWindowProperty(display, root, activeAtom, 0, 1, 0, XA_WINDOW, &type, &format, &count, &after, &data) == Success,
          let data else { return 0 }
    defer { XFree(data) }
    return count == 1 ? data.withMemoryRebound(to: Window.self, capacity: 1) { $0.pointee } : 0
}

func className(_ window: Window) -> String? {
    var hint = XClassHint()
    guard XGetClassHint(display, window, &hint) != 0 else { return nil }
    defer { XFree(hint.res_name); XFree(hint.res_class) }
    return hint.res_class.map { String(cString: $0) }
}

// A window gone between the event and the read is no error worth dying for.
XSetErrorHandler { _, _ in 0 }
print("ready")
StandardStream.output.flush()
var event = XEvent()
while true {
    XNextEvent(display, &event)
    guard event.type == PropertyNotify, event.xproperty.atom == activeAtom else { continue }
    let window = activeWindow()
    if window != 0, className(window) == target {
        XIconifyWindow(display, window, XDefaultScreen(display))
        XFlush(display)
    }
}
