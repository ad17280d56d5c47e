import Foundation
import ScreenTimeCore
import SessionBus
import Harnesses
import XCTest

/// Dispatches `connection` until `condition` holds, failing after `timeout` seconds.
func pump(_ connection: BusConnection, timeout: TimeInterval = 5, _ what: String,
          file: StaticString = #filePath, line: UInt = #line, until condition: () -> Bool) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        guard Date() < deadline else {
            XCTFail("timed out after \(timeout) s waiting for \(what)", file: file, line: line)
            return
        }
        var entry = pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0)
        _ = poll(&entry, 1, 20)
        try connection.dispatchPending()
    }
}

/// Shows a notification and dispatches `connection` until the server's answer: its id, or the
/// error it reported.
func shown(_ client: NotificationsClient, _ request: NotificationRequest, replacing id: UInt32 = 0,
           on connection: BusConnection, file: StaticString = #filePath, line: UInt = #line) throws -> UInt32 {
    var answer: Result<UInt32, Error>?
    try client.show(request, replacing: id) { answer = $0 }
    try pump(connection, "the answer to Notify", file: file, line: line) { answer != nil }
    return try XCTUnwrap(answer, file: file, line: line).get()
}
