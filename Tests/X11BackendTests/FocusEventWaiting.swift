import Foundation
import Harnesses
import ScreenTimeCore
import X11Backend

extension FocusSource {
    /// Drains every 10 ms until an event satisfies `match` or `timeout` passes; returns all
    /// events seen, in order.
    func events(within timeout: TimeInterval = 3, until match: (FocusEvent) -> Bool) throws -> [FocusEvent] {
        var seen: [FocusEvent] = []
        try Wait.poll(timeout: timeout, every: 0.01) {
            seen += try drainEvents()
            return seen.contains(where: match)
        }
        return seen
    }
}

extension FocusEvent {
    /// The window this event reports focus on (nil for `.focused(nil)` and title changes).
    var focusedWindow: WindowID? {
        if case .focused(let facts?) = self { return facts.window }
        return nil
    }

    var isNilFocus: Bool { self == .focused(nil) }
}
