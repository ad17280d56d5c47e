import FoundationEssentials

// The agent loop talks to the desktop only through these small protocols. Each capability (focus,
// window control, idle, screen filter) is filled at start from an ordered list of providers chosen
// by probing the session (`DesktopSelection`), with a dummy last; one provider object may fill
// several capabilities over one connection (an X display, a sway IPC socket, a Wayland display, a
// shell extension on the session bus).

/// Something that provides a capability, named for `doctor` and the log.
public protocol DesktopProvider: AnyObject {
    /// "sway IPC", "GNOME Shell extension", "EWMH (openbox)"...
    var providerName: String { get }
    /// How it fills one capability, where that says more than its name.
    func describe(_ capability: DesktopCapability) -> String
}

extension DesktopProvider {
    public func describe(_ capability: DesktopCapability) -> String { providerName }
}

/// A connection a provider reads from. Its descriptor joins the agent's one poll loop: nothing
/// blocks, no thread is started, and nothing polls where the compositor sends events.
public protocol DesktopConnection: AnyObject {
    /// Polled for input; -1 when the provider rides on a connection the agent polls anyway (the
    /// session bus).
    var pollDescriptor: Int32 { get }
    /// Output is queued that the socket did not take yet: poll for POLLOUT too.
    var wantsToWrite: Bool { get }
    /// Input waits until the provider's deadline (the rest of a burst of events is let in at
    /// once): poll without POLLIN meanwhile.
    var holdsInput: Bool { get }
    /// Input already read into a buffer, which the descriptor will not signal again.
    var hasBufferedInput: Bool { get }
    /// Reads (and writes) what is pending without blocking; events go to the capabilities'
    /// handlers (`onFocus`, `onIdle`) before it returns. Throws when the connection is lost.
    func handleReadable() throws
    /// When the provider wants to run without input (a polling fallback, a reply's time limit);
    /// nil: only when input arrives.
    func nextDeadline(after now: Date) -> Date?
    func handleDeadline(now: Date) throws
    /// Puts back what the provider changed (the screen's colours) and closes. Safe to call twice.
    func close()
}

extension DesktopConnection {
    public var holdsInput: Bool { false }
}

/// Tells which window has focus, as events.
public protocol FocusProvider: DesktopProvider {
    /// Every focus or focused-title change, called from `handleReadable`.
    var onFocus: ((FocusEvent) -> Void)? { get set }
    /// Whether a window's title is needed (a title rule may apply to its app): where titles cost
    /// round trips, others are not read and count as empty.
    var needsTitle: (WindowFacts) -> Bool { get set }
    /// The focused window now; asked once after connecting (it may wait for the answer then).
    func currentFocus() throws -> WindowFacts?
    /// The title rules changed: the focused window's title may be needed now, or no longer.
    func titleRulesChanged()
}

/// Hides an app's windows.
public protocol WindowMinimizer: DesktopProvider {
    /// Minimizes (or moves to the scratchpad) every normal window that counts as `app`, as
    /// `identify` names a window's app (title rules included). Does not wait for the compositor:
    /// the work may finish when its answers arrive.
    func minimize(_ app: AppID, identify: @escaping (WindowFacts) -> AppID) throws
}

/// Tells when the user leaves the keyboard and mouse and comes back.
public protocol IdleProvider: DesktopProvider {
    /// Each crossing of the threshold, dated when it happened, called from `handleReadable` or
    /// `handleDeadline`.
    var onIdle: ((IdleTransition) -> Void)? { get set }
    /// A new watch starts from "active" and reports a user already away as a transition.
    func setThreshold(_ threshold: TimeInterval) throws
    /// The wall clock jumped: a provider that reads idle time at wall-clock deadlines reads it now.
    func clockJumped() throws
}

extension IdleProvider {
    /// Providers the compositor tells of idle time keep no wall-clock deadlines.
    public func clockJumped() throws {}
}

/// Changes the screen's colours: grayscale and warmth, faded.
public protocol ScreenFilterProvider: DesktopProvider {
    /// What the screen can show through this provider.
    var abilities: ScreenFilterAbilities { get }
    /// Starts fading to `filter`; returns when `step` wants to run next (nil: done, or the
    /// compositor fades by itself).
    func set(_ filter: ColorFilter, now: Date) throws -> Date?
    func step(now: Date) throws -> Date?
    /// The screen as it was before the first change; the exit path.
    func restore()
}

/// What a screen filter provider can show.
public struct ScreenFilterAbilities: Equatable, Sendable, CustomStringConvertible {
    /// True grayscale (a colour matrix), not the dimming stand-in.
    public var grayscale: Bool
    public var warmth: Bool
    /// What the provider cannot show and why, said instead of the generic wording
    /// ("grayscale unavailable before Plasma 6.6; warm tint only").
    public var limitation: String?

    public init(grayscale: Bool, warmth: Bool, limitation: String? = nil) {
        self.grayscale = grayscale
        self.warmth = warmth
        self.limitation = limitation
    }

    public static let none = ScreenFilterAbilities(grayscale: false, warmth: false)

    public var description: String {
        if let limitation { return limitation }
        switch (grayscale, warmth) {
        case (true, true): return "grayscale and warm tint"
        case (true, false): return "grayscale only"
        case (false, true): return "warm tint only; grayscale shown as dimming"
        case (false, false): return "nothing"
        }
    }
}

/// Why a provider did not start: the next one is tried.
public struct ProviderUnavailable: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
