import Agent
import FoundationEssentials

struct AgentCommand: Subcommand {
    static let name = "agent"
    static let abstract = "Run the agent in the foreground (what autostart runs)"
    static let usage = ["agent"]

    init(_ arguments: Arguments) throws { try arguments.finish() }

    func run(_ context: Context) throws {
        let runner: AgentRunner
        do { runner = try AgentRunner(options: .init(environment: context.environment)) } catch {
            throw CommandFailure(message: "\(error)")
        }
        let status: Int32
        do { status = try runner.run() } catch let error as AgentError {
            throw CommandFailure(message: error.description)
        }
        if status != 0 { throw CommandFailure(message: "stopped with status \(status)") }
    }
}
