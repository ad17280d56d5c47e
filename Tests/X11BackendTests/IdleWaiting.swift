import Synchronization
import Foundation
import Glibc
import ScreenTimeCore
import Harnesses
import X11Backend

extension X11IdleWatch {
    /// Waits as the agent does: sleeps in poll() on the connection until the server writes or the
    /// watch's own `nextPoll` (nil with alarms), then drains; returns the first transitions, or []
    /// once `timeout` passed.
    func transitions(on connection: X11Connection, within timeout: TimeInterval) throws -> [IdleTransition] {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let now = Date()
            guard now < deadline else { return [] }
            if !connection.hasQueuedEvents {
                let wake = min(deadline, nextPoll(after: now) ?? deadline)
                var descriptor = pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&descriptor, 1, Int32(max(0, (wake.timeIntervalSince(now) * 1000).rounded(.up))))
            }
            let transitions = try drainEvents()
            if !transitions.isEmpty { return transitions }
        }
    }
}

/// Moves the shared desktop's pointer somewhere it is not, so the server sees input.
enum PointerNudge {
    private static let steps = Mutex(0)

    static func move(on desk: DesktopHarness) throws {
        let step = steps.withLock { $0 += 1; return $0 }
        _ = try desk.run("xdotool", ["mousemove", "\(100 + step % 50)", "\(120 + step % 37)"])
    }
}
