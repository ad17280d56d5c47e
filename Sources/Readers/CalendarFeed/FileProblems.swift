/// One file's problems, each once, the first `limit` kept and the others counted: a damaged file's
/// first problems say what is wrong, and thousands of them cost no more than a count. A message
/// quoting a long line or summary is cut to `longestMessage` characters.
struct FileProblems {
    let path: String
    let limit: Int
    private(set) var kept: [CalendarProblem] = []
    private var seen: Set<CalendarProblem> = []
    private var unshown = 0

    init(path: String, limit: Int) {
        self.path = path
        self.limit = limit
    }

    var isFull: Bool { kept.count >= limit }

    static let longestMessage = 300
    /// Problems remembered to tell repeats (a Cheat Day event's, once an occurrence); past these
    /// they are only counted, so that memory does not grow with the size of the file.
    static let remembered = 10_000

    mutating func add(_ problem: CalendarProblem) {
        var problem = problem
        if problem.message.count > Self.longestMessage { problem.message = problem.message.prefix(Self.longestMessage) + "…" }
        if seen.count < Self.remembered {
            guard seen.insert(problem).inserted else { return }
        }
        if isFull { unshown += 1 } else { kept.append(problem) }
    }

    /// Counts a problem not worth describing once the list is full (its line is not even looked up).
    mutating func addUnshown() { unshown += 1 }

    /// The kept problems, and a last one saying how many more there were.
    var all: [CalendarProblem] {
        kept + (unshown > 0 ? [CalendarProblem(path: path, message: "\(unshown) more problems not shown")] : [])
    }
}
