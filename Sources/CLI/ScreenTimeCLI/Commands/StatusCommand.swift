import AgentControl
import SystemErrors
import FoundationEssentials
import Glibc
import ScreenTimeCore

struct StatusCommand: Subcommand {
    static let name = "status"
    static let abstract = "The mode, why, today's use and each limit's time left"
    static let usage = ["status [--json | --waybar | --i3blocks] [--follow | --next [--shown MODE|off]]"]

    enum Form { case text, json, waybar, i3blocks }

    let form: Form
    /// A line on every change the agent signals, until the session ends.
    let follow: Bool
    /// One line at the next change the agent signals, then exit (StatusCommand+Next).
    let next: Bool
    /// With `--next`, the mode the caller shows (`off`: no agent); another one now is printed at once.
    let shownMode: String?
    /// Followed or waited for, a status is one line.
    var oneLine: Bool { follow || next }

    init(_ arguments: Arguments) throws {
        let chosen = [("json", Form.json), ("waybar", .waybar), ("i3blocks", .i3blocks)].filter { arguments.flag($0.0) }
        guard chosen.count <= 1 else { throw UsageError(message: "choose one of --json, --waybar and --i3blocks") }
        form = chosen.first?.1 ?? .text
        follow = arguments.flag("follow")
        next = arguments.flag("next")
        guard !(follow && next) else { throw UsageError(message: "choose one of --follow and --next") }
        shownMode = try arguments.option("shown")
        guard shownMode == nil || next else { throw UsageError(message: "--shown goes with --next") }
        try arguments.finish()
    }

    func run(_ context: Context) throws {
        if next { return try runUntilNextChange(context) }
        guard follow else {
            let status = try context.agent { try $0.status() }
            return show(render(status, context: context) + waiting(context), context: context)
        }
        // Bars start the follower at login, perhaps before the agent: it says "not running" and
        // waits rather than exiting, which would leave the bar without the module for the session.
        let follower: AgentStatusFollower
        do { follower = try AgentStatusFollower(environment: context.environment) } catch is AgentClient.NotRunning {
            throw AgentNotRunning()
        }
        try follower.run { update in
            switch update {
            case .status(let status): show(render(status, context: context), context: context)
            case .notRunning: show(notRunning, context: context)
            }
            StandardStream.output.flush()
        }
        throw AgentNotRunning(message: "the session bus went away")
    }

    /// JSON keeps its strings faithfully (control characters escaped); text is made printable.
    func show(_ rendered: String, context: Context) {
        switch form {
        case .json, .waybar: context.printVerbatim(rendered)
        case .text, .i3blocks: context.print(rendered)
        }
    }

    /// One status in the chosen form; on a single line when following.
    func render(_ status: StatusSnapshot, context: Context) -> String {
        switch form {
        case .text where oneLine: StatusBarLine(status, now: context.now, zone: context.zone).text
        case .text: StatusFormat.text(status)
        case .json: StatusFormat.json(status, oneLine: oneLine)
        case .waybar: StatusBarFormat.waybar(StatusBarLine(status, now: context.now, zone: context.zone))
        case .i3blocks: StatusBarFormat.i3blocks(StatusBarLine(status, now: context.now, zone: context.zone), following: oneLine)
        }
    }

    /// In the text form, the loosenings waiting for their time (`pending`), one line each, and the
    /// last span the agent was not there to count.
    func waiting(_ context: Context) -> String {
        guard form == .text else { return "" }
        var text = ""
        if let (settings, pending) = try? context.keptSettings() {
            text += context.pendingLines(pending, settings: settings).map { "\nWaiting: " + $0 }.joined()
        }
        if let store = try? context.openStore(), let span = try? store.lastUntracked() {
            text += "\nLast not tracked: " + span.line(in: context.zone, withDate: true)
        }
        return text
    }

    var notRunning: String {
        switch form {
        case .text, .i3blocks: StatusBarFormat.i3blocks(.notRunning, following: true)
        case .json: #"{"running":false}"#
        case .waybar: StatusBarFormat.waybar(.notRunning)
        }
    }
}

extension Context {
    /// Runs `body` against the running agent; exit 69 when there is none.
    func agent<T>(_ body: (AgentClient) throws -> T) throws -> T {
        do { return try body(AgentClient(environment: environment)) } catch is AgentClient.NotRunning {
            throw AgentNotRunning()
        }
    }
}
