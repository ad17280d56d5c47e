import ScreenTimeCore

/// What went wrong talking to the X server, with the operation and window it concerned.
public enum X11Error: Error, Equatable, CustomStringConvertible {
    /// XOpenDisplay failed: no server at that name, or access refused.
    case cannotOpenDisplay(name: String)
    /// The connection to the X server broke (server exited or crashed). The connection is
    /// unusable: close it and reconnect or exit.
    case connectionLost(display: String)
    /// The server answered a request with a protocol error (BadWindow when the window vanished).
    case protocolError(operation: String, window: WindowID?, code: XErrorCode)
    /// A call failed without a protocol error (a Status of 0).
    case requestFailed(operation: String, window: WindowID?)
    /// A required extension (MIT-SCREEN-SAVER, RANDR) is not offered by the server.
    case extensionMissing(String)
    /// The window manager does not allow this action on the window (`_NET_WM_ALLOWED_ACTIONS`).
    case actionNotAllowed(action: String, window: WindowID)

    /// The request failed because the window no longer exists: normal when windows close.
    public var isWindowGone: Bool {
        if case .protocolError(_, _, let code) = self { return code == .badWindow }
        return false
    }

    public var description: String {
        switch self {
        case .cannotOpenDisplay(let name): return "cannot open X display \(name)"
        case .connectionLost(let display): return "connection to X display \(display) lost"
        case .protocolError(let operation, let window, let code):
            return "\(operation)\(window.map { " on window \($0)" } ?? ""): X error \(code)"
        case .requestFailed(let operation, let window):
            return "\(operation)\(window.map { " on window \($0)" } ?? "") failed"
        case .extensionMissing(let name): return "X server lacks the \(name) extension"
        case .actionNotAllowed(let action, let window):
            return "window manager does not allow \(action) on window \(window)"
        }
    }
}

/// A core X protocol error code (X.h), named where it is one we expect.
public struct XErrorCode: Equatable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    public static let badValue = XErrorCode(2)
    public static let badWindow = XErrorCode(3)
    public static let badAtom = XErrorCode(5)
    public static let badMatch = XErrorCode(8)
    public static let badDrawable = XErrorCode(9)
    public static let badAccess = XErrorCode(10)
    public static let badAlloc = XErrorCode(11)

    public var description: String {
        let names: [UInt8: String] = [1: "BadRequest", 2: "BadValue", 3: "BadWindow", 4: "BadPixmap",
                                       5: "BadAtom", 6: "BadCursor", 7: "BadFont", 8: "BadMatch",
                                       9: "BadDrawable", 10: "BadAccess", 11: "BadAlloc", 12: "BadColor",
                                       13: "BadGC", 14: "BadIDChoice", 15: "BadName", 16: "BadLength",
                                       17: "BadImplementation"]
        return names[rawValue] ?? "code \(rawValue)"
    }
}

/// Runs a read of a window that may close at any moment: a vanished window gives nil, any other
/// error (a lost connection) is thrown.
func ignoringVanishedWindow<T>(_ read: () throws -> T?) throws -> T? {
    do { return try read() } catch let error as X11Error where error.isWindowGone { return nil }
}
