import FoundationEssentials
import ScreenTimeCore
import SessionBus

/// What a switch of mode did: `switched` (nothing was left early), `ask` (it would leave a
/// restrictive mode early and was not confirmed: `words` say so), `continue` (the mode steps aside
/// for `granted` seconds) or `ended`.
public struct ModeSwitchResult: Equatable, Sendable {
    public var outcome: String
    public var granted: TimeInterval
    public var words: String

    public init(outcome: String, granted: TimeInterval = 0, words: String = "") {
        self.outcome = outcome
        self.granted = granted
        self.words = words
    }
}

extension AgentClient {
    /// `LeaveMode`: the switch as the terminal asks it, confirmed or not (`ModeSwitchResult`).
    public func leaveMode(_ mode: String, confirmed: Bool) throws -> ModeSwitchResult {
        let reply = try call(AgentInterface.Method.leaveMode, [.string(mode), .bool(confirmed)])
        guard reply.count == 3, let outcome = reply[0].stringValue, case .double(let granted) = reply[1], let words = reply[2].stringValue else {
            throw BusError.unexpectedReply(context: "LeaveMode", signature: "")
        }
        return ModeSwitchResult(outcome: outcome, granted: granted, words: words)
    }
}
