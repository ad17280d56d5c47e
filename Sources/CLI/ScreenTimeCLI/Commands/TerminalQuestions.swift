import Glibc
import ScreenTimeCore

/// Asks on the terminal: the prompt, a line typed, and the same question again with the hint
/// while the answer is not taken.
struct TerminalQuestions {
    func ask(_ prompt: String, take: (String) throws(SurveyHint) -> Void) throws {
        while true {
            fputs(TerminalText.printable(prompt), stdout)
            fflush(stdout)
            guard let line = readLine(strippingNewline: true) else {
                throw CommandFailure(message: "the questions ended before the last one; nothing was written")
            }
            do {
                try take(line)
                return
            } catch {
                fputs(TerminalText.printable("  \(error.message)\n"), stdout)
            }
        }
    }
}
