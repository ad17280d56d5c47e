import FoundationEssentials

/// The user's to-do list, read from a todo.txt file (`x ` done, `(A)` priority, creation and
/// completion dates, `due:YYYY-MM-DD`; `+project` and `@context` stay in the text) or a plain list
/// (one item a line, with or without a `- `, `* `, `[ ]` or `[x]` bullet). Pure: the caller reads the file.
public struct TodoList: Equatable, Sendable {
    public struct Item: Equatable, Sendable {
        public var text: String
        public var done: Bool
        /// `A`…`Z`, A first; nil when the item has none.
        public var priority: Character?
        public var due: CivilDate?
        /// 1-based line in the file.
        public var line: Int

        public init(text: String, done: Bool = false, priority: Character? = nil, due: CivilDate? = nil, line: Int) {
            self.text = text
            self.done = done
            self.priority = priority
            self.due = due
            self.line = line
        }
    }

    /// Every item, in file order.
    public var items: [Item]

    public init(parsing text: String) {
        items = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated().compactMap { index, line in
            Self.item(String(line), line: index + 1)
        }
    }

    /// The open items: by priority (A first, none last), then due date (earliest first, none last), then file order.
    public var open: [Item] {
        items.filter { !$0.done }.sorted { a, b in
            let (ap, bp) = (a.priority.map(String.init) ?? "~", b.priority.map(String.init) ?? "~")
            if ap != bp { return ap < bp }
            let (ad, bd) = (a.due?.daysSinceEpoch ?? .max, b.due?.daysSinceEpoch ?? .max)
            if ad != bd { return ad < bd }
            return a.line < b.line
        }
    }

    /// The open items due on `date` or before (overdue), in the order of `open`.
    public func due(on date: CivilDate) -> [Item] {
        open.filter { $0.due.map { $0 <= date } ?? false }
    }

    private static func item(_ raw: String, line: Int) -> Item? {
        var rest = raw.drop(while: \.isWhitespace)
        while rest.last?.isWhitespace == true { rest = rest.dropLast() }
        guard !rest.isEmpty, !rest.hasPrefix("#") else { return nil }
        var done = false
        for (bullet, isDone) in [("[x] ", true), ("[X] ", true), ("[ ] ", false), ("- ", false), ("* ", false)] where rest.hasPrefix(bullet) {
            done = isDone
            rest = rest.dropFirst(bullet.count)
            if bullet.hasPrefix("-") || bullet.hasPrefix("*") {
                // "- [ ] item", the Markdown task list.
                if rest.hasPrefix("[x] ") || rest.hasPrefix("[X] ") { done = true; rest = rest.dropFirst(4) }
                else if rest.hasPrefix("[ ] ") { rest = rest.dropFirst(4) }
            }
            break
        }
        if rest.hasPrefix("x ") {
            done = true
            rest = rest.dropFirst(2)
            // The completion date, then the creation date.
            rest = dropDate(dropDate(rest))
        }
        var priority: Character?
        if rest.count >= 4, rest.first == "(", let letter = rest.dropFirst().first, letter.isUppercase, letter.isASCII,
           rest.dropFirst(2).hasPrefix(") ") {
            priority = letter
            rest = rest.dropFirst(4)
        }
        rest = dropDate(rest)
        var due: CivilDate?
        let words = rest.split(separator: " ", omittingEmptySubsequences: true).filter { word in
            guard word.hasPrefix("due:"), let date = CivilDate(parsing: String(word.dropFirst(4))) else { return true }
            due = date
            return false
        }
        let text = words.joined(separator: " ")
        guard !text.isEmpty else { return nil }
        return Item(text: text, done: done, priority: priority, due: due, line: line)
    }

    /// `text` without a leading `YYYY-MM-DD ` (todo.txt's dates).
    private static func dropDate(_ text: Substring) -> Substring {
        let word = text.prefix { $0 != " " }
        guard word.count == 10, CivilDate(parsing: String(word)) != nil else { return text }
        return text.dropFirst(11)
    }
}
