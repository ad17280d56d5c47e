import FoundationEssentials
import Logging
import PrivateFiles
import ScreenTimeCore

/// The commitment book on disk: `$XDG_STATE_HOME/screentime/commitments.json`, the facets in force,
/// the loosenings waiting and the tightenings just made. The agent and the CLI (after it edits the
/// config) both reconcile and write it; both compute the same book from the same file and clock,
/// and each write replaces the file whole.
public struct CommitmentFile {
    public let path: String

    public init(environment: [String: String]) {
        path = XDGPaths.stateDirectory(environment: environment) + "/commitments.json"
    }

    public init(path: String) { self.path = path }

    /// The book; an empty one when there is none yet. A damaged file is a warning naming it, and
    /// an empty book: the settings as they are now become what holds.
    public func load(warn: (String) -> Void = { Log.warning($0) }) -> CommitmentBook {
        guard let data = FileManager.default.contents(atPath: path) else { return CommitmentBook() }
        do { return try JSONDecoder().decode(CommitmentBook.self, from: data) } catch {
            warn("\(path) cannot be read (\(error)); the settings as they are now hold from here")
            return CommitmentBook()
        }
    }

    public func save(_ book: CommitmentBook) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(book)
        try PrivateFiles.makeFolder(ConfigEditor.directory(of: path))
        try PrivateFiles.write(Array(data), to: path)
    }

    /// Reconciles `wanted` with the book at `now` and keeps the result when it changed.
    @discardableResult
    public func reconcile(wanted: Settings, now: Date, zone: LocalTimeZone, warn: (String) -> Void = { Log.warning($0) }) -> (before: CommitmentBook, outcome: CommitmentOutcome) {
        let before = load(warn: warn)
        let outcome = before.reconciled(wanted: wanted, now: now, zone: zone)
        if outcome.book != before {
            do { try save(outcome.book) } catch { warn("\(path) cannot be written: \(error)") }
        }
        return (before, outcome)
    }
}
