import Glibc
import SystemErrors

struct AgentCommand: Subcommand {
    static let name = "agent"
    static let abstract = "Run the agent in the foreground (what autostart runs)"
    static let usage = ["agent"]

    init(_ arguments: Arguments) throws { try arguments.finish() }

    /// Replaces this process with `screentime-agent` from the same directory, so the long-running
    /// agent carries none of the CLI's code and libraries.
    func run(_ context: Context) throws {
        let path = Self.agentExecutable()
        var argv: [UnsafeMutablePointer<CChar>?] = [strdup(path), nil]
        execv(path, &argv)
        throw CommandFailure(message: "cannot start \(path): \(Errno.current)")
    }

    static func agentExecutable() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let own = length > 0 ? String(cString: buffer) : CommandLine.arguments[0]
        return String(own[..<(own.lastIndex(of: "/") ?? own.startIndex)]) + "/screentime-agent"
    }
}
