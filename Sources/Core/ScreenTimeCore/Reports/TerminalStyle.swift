import FoundationEssentials

/// How wide the terminal text may be and whether it may use colour.
public struct TerminalStyle: Equatable, Sendable {
    public var width: Int
    public var colour: Bool

    public init(width: Int, colour: Bool) {
        self.width = width
        self.colour = colour
    }

    /// `COLUMNS` when set, else the terminal's own width, else 80; colour only on a terminal and
    /// never with `NO_COLOR` set to anything (no-color.org).
    public init(environment: [String: String], terminalColumns: Int?) {
        let columns = environment["COLUMNS"].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil }
        width = columns ?? terminalColumns ?? 80
        colour = terminalColumns != nil && (environment["NO_COLOR"] ?? "").isEmpty
    }
}
