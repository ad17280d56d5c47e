import FoundationEssentials

/// Why a card's button could not start what it names; each case says what to do.
public enum LaunchError: Error, Equatable, CustomStringConvertible {
    case nothingToStart
    /// No desktop entry of that id in the XDG data folders.
    case notInstalled(id: String)
    /// The entry's `TryExec` program is not installed: the entry is not to be used.
    case tryExecMissing(entry: String, program: String)
    case programNotFound(program: String, path: String)
    case unreadable(path: String)
    case spawnFailed(program: String, errno: Int32)
    case invalidEntry(String)

    public var description: String {
        switch self {
        case .nothingToStart: "nothing to start"
        case .notInstalled(let id): "no desktop entry `\(id)` is installed (looked in the XDG data folders' applications)"
        case .tryExecMissing(let entry, let program): "\(entry): its TryExec program `\(program)` is not installed"
        case .programNotFound(let program, let path): "`\(program)` is not an executable in PATH (\(path))"
        case .unreadable(let path): "\(path) cannot be read"
        case .spawnFailed(let program, let code): "\(program) could not be started: \(ProcessShims.describe(errno: code))"
        case .invalidEntry(let message): message
        }
    }
}
