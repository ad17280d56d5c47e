import Foundation
import ScreenTimeCore

/// A game nobody's machine has a desktop entry for, installed in a test's own data folder: limited
/// by default (content), its id and name from the entry, its window found by an exact StartupWMClass.
public enum LimitedTestApp {
    public static let id = "st-notes"
    public static let name = "Solitaire Notes"
    public static let windowClass = "StNotes"
    static let entry = "[Desktop Entry]\nType=Application\nName=\(name)\nExec=st-notes\nStartupWMClass=\(windowClass)\nCategories=Game;\n"

    public struct NotFocused: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts an agent on a fresh home with the app installed.
    public static func startAgent(on desk: DesktopHarness, config: String = "[general]\nidle-after = 1h\n") throws -> AgentProcess {
        let environment = try AgentProcess.freshEnvironment(on: desk, config: config)
        try AgentProcess.installDesktopEntry(id, entry, environment: environment)
        return try AgentProcess(environment: environment, desk: desk)
    }

    /// Opens the app's window, focuses it and waits until the agent sees it.
    public static func focus(_ agent: AgentProcess, windows: TestWindowClient) throws -> TestWindow {
        let window = try windows.openWindow(class: windowClass, title: "hand 1")
        windows.activate(window)
        guard eventually(5, { (try? agent.status().focused) == AppID(id) }) else {
            throw NotFocused(description: "the agent did not see \(id) focused; log: \(agent.log)")
        }
        return window
    }
}
