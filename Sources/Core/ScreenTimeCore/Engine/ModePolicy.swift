import FoundationEssentials

extension ModeDecision {
    /// What the engine assumes until the agent tells it otherwise.
    public static let standard = ModeDecision(mode: .standard, reason: .standard)

    /// Whether a Productivity break is on at `instant`.
    public func isOnBreak(at instant: Date) -> Bool {
        guard mode == .productivity, case .onBreak(let since, let until) = productivityBreak else { return false }
        return since <= instant && instant < until
    }
}

extension ModeReason {
    /// Short word the store records (`mode_changes.reason`) and reports group by.
    public var key: String {
        switch self {
        case .cheatDay: "cheat-day"
        case .manual: "manual"
        case .scheduled: "schedule"
        case .calendar: "calendar"
        case .automatic: "automatic"
        case .standard: "standard"
        }
    }
}

extension AllowedApps {
    /// Whether daily limits count in this mode: everywhere except a mode that lifts them (Cheat Day).
    public var limitsApply: Bool {
        if case .all(limitsApply: false) = self { return false }
        return true
    }
}
