/// The words after the subcommand, taken one by one with clear usage errors.
package final class Arguments {
    private var words: [String]

    package init(_ words: [String]) { self.words = words }

    package var isEmpty: Bool { words.isEmpty }

    /// The next positional word, or a usage error naming what was expected.
    package func next(_ what: String) throws -> String {
        guard let index = words.firstIndex(where: { !$0.hasPrefix("--") }) else { throw UsageError(message: "missing \(what)") }
        return words.remove(at: index)
    }

    package func nextIfAny() -> String? {
        guard let index = words.firstIndex(where: { !$0.hasPrefix("--") }) else { return nil }
        return words.remove(at: index)
    }

    /// Whether `--name` is present (and takes it).
    package func flag(_ name: String) -> Bool {
        guard let index = words.firstIndex(of: "--\(name)") else { return false }
        words.remove(at: index)
        return true
    }

    /// The value of `--name VALUE` or `--name=VALUE`.
    package func option(_ name: String) throws -> String? {
        if let index = words.firstIndex(where: { $0.hasPrefix("--\(name)=") }) {
            return String(words.remove(at: index).dropFirst(name.count + 3))
        }
        guard let index = words.firstIndex(of: "--\(name)") else { return nil }
        guard index + 1 < words.count else { throw UsageError(message: "--\(name) needs a value") }
        words.remove(at: index)
        return words.remove(at: index)
    }

    /// Every word left, as given (for a command another executable runs).
    package func remaining() -> [String] {
        defer { words = [] }
        return words
    }

    /// Fails on anything left over.
    package func finish() throws {
        if let extra = words.first { throw UsageError(message: "unexpected `\(extra)`") }
    }
}
