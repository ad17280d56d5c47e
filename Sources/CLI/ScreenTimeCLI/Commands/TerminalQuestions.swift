import Glibc
import SystemErrors
import ScreenTimeCore

/// Asks on the terminal: the prompt, a line typed, and the same question again with the hint
/// while the answer is not taken.
struct TerminalQuestions {
    func ask(_ prompt: String, take: (String) throws(SurveyHint) -> Void) throws {
        while true {
            StandardStream.output.write(TerminalText.printable(prompt))
            StandardStream.output.flush()
            guard let line = readLine(strippingNewline: true) else {
                throw CommandFailure(message: "the questions ended before the last one; nothing was written")
            }
            do {
                try take(line)
                return
            } catch {
                StandardStream.output.write(TerminalText.printable("  \(error.message)\n"))
            }
        }
    }
}
