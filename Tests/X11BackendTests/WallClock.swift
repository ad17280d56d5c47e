import Foundation
@testable import X11Backend

// The backend reads no clock of its own: the agent hands it the loop's instant. These tests,
// which drive a real X server in real time, give it the wall clock.

extension X11Backend {
    static func makeFocusSource(connection: X11Connection) throws -> (FocusSource, reason: String) {
        try makeFocusSource(connection: connection, clock: { Date() })
    }
}

extension EWMHFocusSource {
    convenience init(connection: X11Connection) throws {
        try self.init(connection: connection, clock: { Date() })
    }
}

extension X11IdleWatch {
    convenience init(connection: X11Connection, threshold: TimeInterval, mechanism: Mechanism = .syncAlarms) throws {
        try self.init(connection: connection, threshold: threshold, mechanism: mechanism, clock: { Date() })
    }
}
