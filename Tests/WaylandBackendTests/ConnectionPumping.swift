import Foundation
import ScreenTimeCore

extension DesktopConnection {
    /// Runs the provider as the agent's loop would (poll its descriptor, `handleReadable`) until
    /// `condition` holds or `timeout` passes; false on timeout.
    func pump(timeout: TimeInterval = 5, until condition: () -> Bool) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return false }
            var entry = pollfd(fd: pollDescriptor, events: Int16(POLLIN | (wantsToWrite ? POLLOUT : 0)), revents: 0)
            if poll(&entry, 1, Int32(min(left, 0.1) * 1000)) > 0 { try handleReadable() }
        }
        return true
    }

    /// Pumps until `events()` holds a `.focused` event whose window `matches`; returns its facts.
    func focusedEvent(in events: () -> [FocusEvent], where matches: (WindowFacts) -> Bool) throws -> WindowFacts? {
        var found: WindowFacts?
        _ = try pump {
            found = events().compactMap { event -> WindowFacts? in
                if case .focused(let facts?) = event, matches(facts) { return facts }
                return nil
            }.first
            return found != nil
        }
        return found
    }
}
