import FoundationEssentials

/// Whether the user is at the computer, from every source that says so: the input (idle time),
/// the session's lock (logind, the screen saver services), sleep (logind's PrepareForSleep) and
/// media playing in the focused app. The engine gets the answer as `.activity(active:)`.
public struct SessionActivity: Equatable, Sendable {
    /// Input within the idle threshold.
    public var inputActive = true
    /// Locked, as logind says (`Lock`/`Unlock`, `LockedHint`).
    public var locked = false
    /// A screen saver service blanked or locked the screen (`ActiveChanged`).
    public var screenSaverActive = false
    /// Between PrepareForSleep(true) and PrepareForSleep(false).
    public var asleep = false
    /// The focused app's media player is playing: watching a video is using the app.
    public var mediaPlaying = false

    public init() {}

    /// Locked by logind or behind a screen saver: its end is an unlock.
    public var isLocked: Bool { locked || screenSaverActive }

    /// Asleep, locked or behind the screen saver: nothing counts. Otherwise input, or media
    /// playing without input.
    public var isActive: Bool { !asleep && !isLocked && (inputActive || mediaPlaying) }
}
