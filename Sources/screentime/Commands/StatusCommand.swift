import Agent
import ScreenTimeCore

struct StatusCommand: Subcommand {
    static let name = "status"
    static let abstract = "The mode, why, today's use and each limit's time left"
    static let usage = ["status [--json]"]

    let json: Bool

    init(_ arguments: Arguments) throws {
        json = arguments.flag("json")
        try arguments.finish()
    }

    func run(_ context: Context) throws {
        let status = try context.agent { try $0.status() }
        context.print(json ? StatusFormat.json(status) : StatusFormat.text(status))
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
