import FoundationEssentials

/// The user left the keyboard and mouse or came back, dated when it really happened (usually
/// a little before it was noticed).
public enum IdleTransition: Equatable, Sendable {
    /// The idle threshold was crossed, or a screen saver started.
    case becameIdle(at: Date)
    /// The first input after being idle.
    case becameActive(at: Date)

    public var isActive: Bool {
        if case .becameActive = self { return true }
        return false
    }

    public var date: Date {
        switch self {
        case .becameIdle(let at), .becameActive(let at): return at
        }
    }
}
