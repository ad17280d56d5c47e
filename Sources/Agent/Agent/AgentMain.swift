import Logging
import Glibc

/// The agent executable's whole life: start, run, and the exit status (1 with a message on failure).
public enum AgentMain {
    public static func run(environment: [String: String]) -> Int32 {
        // libxcb writes without MSG_NOSIGNAL: a server gone mid-write must not kill the agent.
        signal(SIGPIPE, SIG_IGN)
        do {
            return try AgentRunner(options: .init(environment: environment)).run()
        } catch {
            Log.error("\(error)")
            return 1
        }
    }
}
