@testable import Agent
import ScreenTimeCore
import Harnesses
import XCTest

/// One notice per app while the server has not answered yet (a slow or stopped server).
final class AppNotificationsTests: XCTestCase {
    struct Refused: Error {}

    let server = ScriptedNotifier()
    lazy var notifications = AppNotifications(notifier: server)
    let notes = AppID("notes")

    func notice(_ summary: String) -> NotificationRequest {
        NotificationRequest(icon: "notes", summary: summary, body: "", actions: [], urgency: .normal, expireTimeout: 0)
    }

    func testTheNewestUpdateWaitsForTheIdAndReplacesIt() throws {
        try notifications.notify(notes, notice("4 s left"))
        try notifications.notify(notes, notice("3 s left"))
        try notifications.notify(notes, notice("2 s left"))
        XCTAssertEqual(server.calls, [.show(summary: "4 s left", replacing: 0)], "one Notify in flight per app")
        server.answer(.success(11))
        XCTAssertEqual(server.calls.last, .show(summary: "2 s left", replacing: 11), "the newest replaces the first")
        server.answer(.success(11))
        XCTAssertEqual(notifications.app(for: 11), notes)
        try notifications.notify(notes, notice("1 s left"))
        XCTAssertEqual(server.calls.last, .show(summary: "1 s left", replacing: 11))
    }

    func testACloseWaitsForTheIdAndDropsAWaitingUpdate() throws {
        try notifications.notify(notes, notice("4 s left"))
        try notifications.notify(notes, notice("3 s left"))
        try notifications.close(notes)
        server.answer(.success(5))
        XCTAssertEqual(server.calls, [.show(summary: "4 s left", replacing: 0), .close(5)])
        XCTAssertNil(notifications.app(for: 5))
    }

    func testAFailedNoticeStartsAfreshAndAClosedOneIsNotReplaced() throws {
        try notifications.notify(notes, notice("4 s left"))
        server.answer(.failure(Refused()))
        try notifications.notify(notes, notice("3 s left"))
        XCTAssertEqual(server.calls.last, .show(summary: "3 s left", replacing: 0))
        server.answer(.success(8))
        notifications.closed(8)
        try notifications.notify(notes, notice("2 s left"))
        XCTAssertEqual(server.calls.last, .show(summary: "2 s left", replacing: 0), "the user dismissed it: a new one")
    }
}
