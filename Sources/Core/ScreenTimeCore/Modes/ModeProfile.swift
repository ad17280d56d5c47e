import FoundationEssentials

/// What a mode does: DESIGN.md's mode table as data. Every field is a default that the
/// configuration can override.
public struct ModeProfile: Equatable, Sendable {
    public var allowedApps: AllowedApps
    public var displayFilter: DisplayFilterName
    public var notifications: NotificationPolicy
    public var onDisallowedApp: DisallowedAppResponse
    /// How long a bypass ("Continue", "3 more minutes") lets a disallowed app run; nil when nothing is
    /// ever disallowed.
    public var bypassGrant: TimeInterval?
    /// Whether a bypass lets every app the mode holds back run, not only the one it was asked for:
    /// the evening's leisure is one thing to the user, and a card per app would come every few minutes.
    public var bypassCoversHeldBackApps: Bool

    public init(allowedApps: AllowedApps, displayFilter: DisplayFilterName, notifications: NotificationPolicy,
                onDisallowedApp: DisallowedAppResponse, bypassGrant: TimeInterval?, bypassCoversHeldBackApps: Bool = false) {
        self.allowedApps = allowedApps
        self.displayFilter = displayFilter
        self.notifications = notifications
        self.onDisallowedApp = onDisallowedApp
        self.bypassGrant = bypassGrant
        self.bypassCoversHeldBackApps = bypassCoversHeldBackApps
    }

    /// The table's row for `mode`.
    public static func defaults(for mode: Mode) -> ModeProfile {
        let evening: [AppClass] = [.clock, .communication, .essential, .important]
        switch mode {
        case .standard:
            return ModeProfile(allowedApps: .all(limitsApply: true), displayFilter: .none, notifications: .normal,
                               onDisallowedApp: .countdownThenDisable, bypassGrant: 3600)
        case .productivity:
            return ModeProfile(allowedApps: .only([.productivity, .communication, .browsers, .system, .important, .essential]),
                               displayFilter: .grayscale, notifications: .silenced,
                               onDisallowedApp: .disableShowingBreakAndAgenda, bypassGrant: 3 * 60)
        case .social:
            return ModeProfile(allowedApps: .only([.communication, .essential, .important, .chosenSocial]),
                               displayFilter: .none, notifications: .onlyCallsMessagesAndChosenApps,
                               onDisallowedApp: .quickNavigation, bypassGrant: 15 * 60)
        case .windDown:
            return ModeProfile(allowedApps: .only(evening), displayFilter: .warmGrayscale, notifications: .silenced,
                               onDisallowedApp: .offerCalmAlternatives, bypassGrant: 3600, bypassCoversHeldBackApps: true)
        case .sleep:
            return ModeProfile(allowedApps: .only(evening), displayFilter: .warmGrayscale, notifications: .silenced,
                               onDisallowedApp: .sleepShortcuts, bypassGrant: 3600, bypassCoversHeldBackApps: true)
        case .wakeUp:
            return ModeProfile(allowedApps: .all(limitsApply: true), displayFilter: .none,
                               notifications: .heldAndSummarised, onDisallowedApp: .morningReminder,
                               bypassGrant: 15 * 60)
        case .cheatDay:
            return ModeProfile(allowedApps: .all(limitsApply: false), displayFilter: .none, notifications: .normal,
                               onDisallowedApp: .nothing, bypassGrant: nil)
        }
    }

    /// The Productivity break: apps as in Productivity, but colour and notifications come back.
    public static let productivityBreak = ModeProfile(
        allowedApps: .only([.productivity, .communication, .browsers, .system, .important, .essential]), displayFilter: .none,
        notifications: .normal, onDisallowedApp: .suggestActivityAwayFromDesk, bypassGrant: 3 * 60)
}

/// Which apps a mode lets run.
public enum AllowedApps: Equatable, Sendable {
    /// Every app; with `limitsApply` the daily limits still count.
    case all(limitsApply: Bool)
    /// Only apps of these classes.
    case only([AppClass])
}

/// A class of apps a mode can allow: built-in groups (by their config names) and exemptions.
public enum AppClass: String, CaseIterable, Sendable {
    case productivity
    case communication
    case important
    case essential
    /// The clock app (alarms for the morning).
    case clock
    /// The social apps the user chose for Social mode.
    case chosenSocial = "social-apps"
    /// Web browsers (their content sites are apps of their own, by the title rules).
    case browsers
    /// The system's own tools.
    case system
}

/// The colour filter the display backend applies while the mode is active.
public enum DisplayFilterName: String, Sendable {
    case none
    case grayscale
    case warmGrayscale = "warm-grayscale"
}

public enum NotificationPolicy: String, Sendable {
    case normal
    /// Do-not-disturb on.
    case silenced
    /// Do-not-disturb, except calls, messages and the apps chosen for Social.
    case onlyCallsMessagesAndChosenApps = "calls-messages-chosen"
    /// Held overnight and summarised in the morning run-down.
    case heldAndSummarised = "held-summarised"
}

/// What the user sees on opening an app the mode does not allow (DESIGN.md's last column).
public enum DisallowedAppResponse: String, Sendable {
    case countdownThenDisable = "countdown"
    case disableShowingBreakAndAgenda = "break-and-agenda"
    case suggestActivityAwayFromDesk = "away-from-desk"
    case quickNavigation = "quick-navigation"
    case offerCalmAlternatives = "calm-alternatives"
    case sleepShortcuts = "sleep-shortcuts"
    case morningReminder = "morning-reminder"
    case nothing
}
