import Foundation

/// Waiting for something observable, the one way the harnesses and tests do it: a condition polled
/// until it holds, against a deadline that, when it passes, names what was awaited. (The one nap
/// between two looks is here, so a wait is never "long enough by now".)
public enum Wait {
    /// A deadline passed before what was awaited was seen.
    public struct Timeout: Error, CustomStringConvertible {
        public var what: String
        public var seconds: TimeInterval
        public var detail: String
        public var description: String {
            "waited \(seconds) s for \(what) in vain" + (detail.isEmpty ? "" : "; \(detail)")
        }
    }

    /// Polls `condition` every `interval` until it holds or `timeout` passes; whether it held (it is
    /// looked at once more at the deadline).
    @discardableResult
    public static func poll(timeout: TimeInterval, every interval: TimeInterval = 0.02,
                            _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if try condition() { return true }
            usleep(UInt32(max(interval, 0.001) * 1_000_000))
        } while Date() < deadline
        return try condition()
    }

    /// Returns once `condition` holds; throws `Timeout` naming `what` (and `detail`, such as the
    /// agent's log) when `timeout` passes first.
    public static func until(_ what: @autoclosure () -> String, timeout: TimeInterval = 5, every interval: TimeInterval = 0.02,
                             detail: @autoclosure () -> String = "", _ condition: () throws -> Bool) throws {
        guard try poll(timeout: timeout, every: interval, condition) else {
            throw Timeout(what: what(), seconds: timeout, detail: detail())
        }
    }
}
