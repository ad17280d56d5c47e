/// How a desktop entry starts its app (Desktop Entry Specification, "The Exec key"): the
/// argument vector, never a shell command line.
///
/// The value is read in two steps, as the spec says: first the string escapes every value has
/// (`\s` `\n` `\t` `\r` `\\`), then the Exec quoting (double quotes, inside which `\"` `` \` ``
/// `\$` `\\` stand for the character). Like GLib, which most desktops launch with, an unquoted
/// backslash escapes the next character and single quotes enclose an argument without escapes; other
/// reserved characters are taken as written (real entries write `--name=value` unquoted), and
/// field codes are expanded inside quotes too.
/// Field codes: `%f %F %u %U` are dropped (a card starts an app with no files), `%i` becomes
/// `--icon ICON` when the entry has an icon, `%c` the name, `%k` the entry's file, `%%` a
/// percent sign; the deprecated `%d %D %n %N %v %m` are removed.
public struct DesktopEntryExec: Equatable, Sendable {
    public var id: String
    /// The entry's file (`%k`).
    public var path: String
    public var name: String
    public var icon: String?
    /// The `Exec=` value as written in the file.
    public var exec: String
    /// A program that must exist for the entry to be used (a name looked up in PATH, or a path).
    public var tryExec: String?
    /// The app wants a terminal (`Terminal=true`).
    public var terminal: Bool

    public init(id: String, path: String, name: String, icon: String? = nil, exec: String, tryExec: String? = nil,
                terminal: Bool = false) {
        self.id = id
        self.path = path
        self.name = name
        self.icon = icon
        self.exec = exec
        self.tryExec = tryExec
        self.terminal = terminal
    }

    /// Reads the launch keys of an application entry; the error names the file and what is wrong.
    public init(id: String, path: String, text: String) throws {
        let file: KeyFile
        do { file = try KeyFile(parsing: text) } catch let error as KeyFile.ParseError {
            throw DesktopEntryExecError(path: path, message: "line \(error.line): \(error.message)")
        }
        let section = "Desktop Entry"
        func value(_ key: String) -> String? {
            file.value(key, in: section).map(Self.unescapedString).flatMap { $0.isEmpty ? nil : $0 }
        }
        guard file.value("Type", in: section) == "Application" else {
            throw DesktopEntryExecError(path: path, message: "is not an application entry (Type=Application)")
        }
        guard let exec = value("Exec") else { throw DesktopEntryExecError(path: path, message: "has no Exec= line to start the app with") }
        self.init(id: id, path: path, name: value("Name") ?? id, icon: value("Icon"), exec: exec, tryExec: value("TryExec"),
                  terminal: file.value("Terminal", in: section) == "true")
    }

    /// The program and its arguments. A `Terminal=true` app is run in `terminal`
    /// (`x-terminal-emulator -e PROGRAM ARGS…`).
    public func arguments(terminal terminalCommand: [String] = ["x-terminal-emulator", "-e"]) throws -> [String] {
        var arguments: [String] = []
        for word in try Self.words(exec, path: path) {
            arguments += try expand(word)
        }
        guard !arguments.isEmpty else { throw DesktopEntryExecError(path: path, message: "Exec= names no program") }
        return terminal ? terminalCommand + arguments : arguments
    }

    /// One word of the command line: literal text and field codes, in order.
    enum Piece: Equatable {
        case text(String)
        case field(Character)
    }

    private func expand(_ word: [Piece]) throws -> [String] {
        if word == [.field("i")] { return icon.map { ["--icon", $0] } ?? [] }
        if word.count == 1, case .field(let code) = word[0], "FUDN".contains(code) { return [] }
        var text = ""
        var onlyFields = true
        for piece in word {
            switch piece {
            case .text(let literal):
                text += literal
                onlyFields = false
            case .field(let code):
                switch code {
                case "f", "u", "d", "n", "v", "m": break
                case "F", "U", "D", "N":
                    throw DesktopEntryExecError(path: path, message: "%\(code) in Exec= must be an argument on its own")
                case "i": text += icon ?? ""
                case "c": text += name
                case "k": text += path
                default: throw DesktopEntryExecError(path: path, message: "%\(code) in Exec= is not a field code")
                }
            }
        }
        // A word made only of dropped field codes (`%U`) is no argument at all.
        return onlyFields && text.isEmpty ? [] : [text]
    }

    /// Splits the Exec value (its string escapes undone) into words.
    static func words(_ exec: String, path: String) throws -> [[Piece]] {
        enum Quote { case none, double, single }
        var words: [[Piece]] = []
        var word: [Piece] = []
        var literal = ""
        var inWord = false
        var quote = Quote.none
        var characters = exec.makeIterator()
        func endLiteral() {
            if !literal.isEmpty { word.append(.text(literal)) }
            literal = ""
        }
        // A quoted part is text even when empty: `""` is an empty argument, not nothing.
        func startQuote() {
            endLiteral()
            word.append(.text(""))
            inWord = true
        }
        func fail(_ message: String) -> DesktopEntryExecError { DesktopEntryExecError(path: path, message: "Exec=\(exec): \(message)") }
        func fieldCode() throws {
            guard let code = characters.next() else { throw fail("ends with a lone %") }
            if code == "%" { literal.append("%") } else {
                endLiteral()
                word.append(.field(code))
            }
        }
        while let character = characters.next() {
            switch quote {
            case .double:
                if character == "\"" { quote = .none; continue }
                if character == "\\" {
                    guard let next = characters.next() else { throw fail("ends inside a quoted argument") }
                    guard "\"`$\\".contains(next) else { throw fail("`\\\(next)` is not an escape inside quotes (use \\\" \\` \\$ \\\\)") }
                    literal.append(next)
                } else if character == "%" {
                    // Undefined by the spec inside quotes; expanded as GLib does (in single quotes too).
                    try fieldCode()
                } else {
                    literal.append(character)
                }
            case .single:
                if character == "'" { quote = .none } else if character == "%" { try fieldCode() } else { literal.append(character) }
            case .none:
                switch character {
                case " ", "\t", "\n":
                    endLiteral()
                    if inWord { words.append(word) }
                    word = []
                    inWord = false
                case "\"":
                    quote = .double
                    startQuote()
                case "'":
                    quote = .single
                    startQuote()
                case "\\":
                    guard let next = characters.next() else { throw fail("ends with a lone backslash") }
                    literal.append(next)
                    inWord = true
                case "%":
                    try fieldCode()
                    inWord = true
                default:
                    literal.append(character)
                    inWord = true
                }
            }
        }
        guard quote == .none else { throw fail("a quote is not closed") }
        endLiteral()
        if inWord { words.append(word) }
        return words
    }

    /// The spec's escapes of string values: `\s` space, `\n` newline, `\t` tab, `\r` return, `\\` backslash;
    /// any other backslash stays as written (the Exec quoting reads it next).
    public static func unescapedString(_ value: String) -> String {
        var result = ""
        var characters = value.makeIterator()
        while let character = characters.next() {
            guard character == "\\", let next = characters.next() else {
                result.append(character)
                continue
            }
            switch next {
            case "s": result.append(" ")
            case "n": result.append("\n")
            case "t": result.append("\t")
            case "r": result.append("\r")
            case "\\": result.append("\\")
            default: result += "\\\(next)"
            }
        }
        return result
    }
}

/// A desktop entry that cannot be started as written, naming its file.
public struct DesktopEntryExecError: Error, Equatable, CustomStringConvertible {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
