import AgentControl
import SystemErrors

/// `status --next`: waits for the agent's next change (a `StatusChanged` signal, or its bus name
/// gained or lost), prints the status after it and exits. For widgets that can run a command and
/// read its output only once it exits (Plasma 5's executable engine): they run it again each time,
/// so they wake only when the agent signals, never on a timer. A change between two runs is not
/// lost: `--shown` names the mode the caller shows, and a status in another mode (or none, `off`)
/// is printed at once; the first run, given no mode or an empty one, prints the status at once.
extension StatusCommand {
    /// Thrown from the follower's callback to leave its loop once the change is printed.
    private struct Printed: Error {}

    func runUntilNextChange(_ context: Context) throws {
        let follower: AgentStatusFollower
        do { follower = try AgentStatusFollower(environment: context.environment) } catch is AgentClient.NotRunning {
            throw AgentNotRunning()
        }
        // The follower hands over the status as it is now first: what the change is measured from.
        var before: AgentStatusFollower.Update?
        do {
            try follower.run { update in
                defer { before = update }
                if let before {
                    // No agent before and none answering yet (one starting): not a change to show.
                    guard !(before == .notRunning && update == .notRunning) else { return }
                } else {
                    // The status now, measured against what the caller shows.
                    guard let shownMode, shownMode != Self.modeWord(update) else { return }
                }
                switch update {
                case .status(let status): show(render(status, context: context), context: context)
                case .notRunning: show(notRunning, context: context)
                }
                StandardStream.output.flush()
                throw Printed()
            }
        } catch is Printed { return }
        throw AgentNotRunning(message: "the session bus went away")
    }

    /// What `--shown` compares: the mode's name as in the document, `off` without an agent.
    static func modeWord(_ update: AgentStatusFollower.Update) -> String {
        switch update {
        case .status(let status): status.mode
        case .notRunning: "off"
        }
    }
}
