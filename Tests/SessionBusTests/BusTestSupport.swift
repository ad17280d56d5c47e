import Foundation
import ScreenTimeCore
import SessionBus
import Harnesses
import XCTest

/// Runs a connection's dispatch loop on its own thread, so a test can make blocking calls to
/// objects it exports. The connection is created and used only on that thread; the state shared
/// with the test's thread is guarded by `lock`.
final class ServingThread: @unchecked Sendable {
    private let lock = NSCondition()
    private var started = false
    private var stopRequested = false
    private var finished = false
    private var startError: Error?
    private(set) var uniqueName = ""

    /// `setUp` runs on the serving thread with its fresh connection (export objects there).
    init(address: String, setUp: @escaping (BusConnection) throws -> Void) throws {
        nonisolated(unsafe) let setUp = setUp
        Thread.detachNewThread { [self] in serve(address: address, setUp: setUp) }
        lock.lock()
        while !started { lock.wait() }
        let error = startError
        lock.unlock()
        if let error { throw error }
    }

    private func serve(address: String, setUp: (BusConnection) throws -> Void) {
        do {
            let connection = try BusConnection(address: address)
            try setUp(connection)
            signal { started = true; uniqueName = connection.uniqueName }
            while !locked({ stopRequested }) {
                var entry = pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0)
                _ = poll(&entry, 1, 20)
                try connection.dispatchPending()
                connection.flush()
            }
            connection.close()
        } catch {
            signal { if !started { startError = error; started = true } }
        }
        signal { finished = true }
    }

    func stop() {
        signal { stopRequested = true }
        lock.lock()
        while !finished { lock.wait() }
        lock.unlock()
    }

    private func signal(_ change: () -> Void) {
        lock.lock()
        change()
        lock.broadcast()
        lock.unlock()
    }

    private func locked<T>(_ read: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return read()
    }
}

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
