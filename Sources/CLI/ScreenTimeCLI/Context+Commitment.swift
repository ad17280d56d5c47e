import AgentControl
import FoundationEssentials
import ScreenTimeCore

/// Loosening waits, from the command line too: an edit is reconciled with the commitment book at
/// once, so the command can say when it applies, and the book is kept whether the agent runs or not.
extension Context {
    package var commitments: CommitmentFile { CommitmentFile(environment: environment) }

    /// Reconciles `wanted` (the file just written) with the book; a book that holds nothing yet
    /// judges the edit against the file as it was (`before`). Returns the loosenings this edit left waiting.
    func keep(_ wanted: Settings, judgedAgainst before: Settings?) -> [PendingChange] {
        var book = commitments.load(warn: { printError("screentime: warning: \($0)") })
        if book.effective == nil, let before { book.effective = before.facets }
        let outcome = book.reconciled(wanted: wanted, now: now, zone: zone)
        if outcome.book != book {
            do { try commitments.save(outcome.book) } catch { printError("screentime: warning: \(commitments.path) cannot be written: \(error)") }
        }
        return outcome.newlyPending(since: book)
    }

    /// What holds now and what waits: the config file's settings reconciled with the book (nothing written).
    package func keptSettings() throws -> (settings: Settings, pending: [PendingChange]) {
        let wanted = try settings()
        let outcome = commitments.load(warn: { _ in }).reconciled(wanted: wanted, now: now, zone: zone)
        return (outcome.settings, outcome.book.pending)
    }

    /// The words for each waiting change, against the settings in force.
    package func pendingLines(_ pending: [PendingChange], settings: Settings) -> [String] {
        let now = self.now
        return pending.map { PendingChangeText.line($0, settings: settings, now: now, zone: zone) }
    }

    /// `line` when the edit took effect; when it left loosenings waiting, what each will be and when.
    package func tell(_ line: String, pending: [PendingChange]) {
        guard !pending.isEmpty else { return print(line) }
        let settings = (try? keptSettings().settings) ?? Settings()
        for text in pendingLines(pending, settings: settings) { print(text) }
    }
}
