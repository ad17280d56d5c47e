import Foundation
import SessionBus
import Harnesses
import XCTest

final class BusConnectionTests: XCTestCase {
    private let path = "/org/screentime/Test"
    private let interface = "org.screentime.Test1"
    private let introspection = """
      <interface name="org.screentime.Test1">
        <method name="Echo"><arg type="s" direction="in"/><arg type="s" direction="out"/></method>
      </interface>
    """

    private func echoServer(_ desk: DesktopHarness) throws -> BusServingThread {
        try BusServingThread(address: desk.busAddress) { [path, interface, introspection] connection in
            try connection.export(path: path, interface: interface, introspection: introspection) { member, args in
                switch member {
                case "Echo": return args
                case "Fail": throw BusMethodError(name: "org.screentime.Test1.Error.Refused", message: "refused: \(args.first?.stringValue ?? "")")
                case "Crash": throw BusError.invalidArgument(context: "Crash", reason: "not a method error")
                default: throw BusMethodError(name: BusMethodError.unknownMethod, message: member)
                }
            }
        }
    }

    func testMethodCallRoundTripBetweenTwoConnections() throws {
        let desk = try DesktopHarness.shared()
        let server = try echoServer(desk)
        defer { server.stop() }
        let client = try BusConnection(address: desk.busAddress)

        let reply = try client.call(destination: server.uniqueName, path: path, interface: interface, method: "Echo",
                                    arguments: [.string("hello"), .uint64(42)])
        XCTAssertEqual(reply, [.string("hello"), .uint64(42)])
    }

    func testSessionBusIsTheDefault() throws {
        let desk = try DesktopHarness.shared()
        let onSession = try BusConnection()
        let onAddress = try BusConnection(address: desk.busAddress)
        // Both reach the harness's bus: each sees the other's unique name owned.
        let reply = try onSession.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                       interface: "org.freedesktop.DBus", method: "NameHasOwner",
                                       arguments: [.string(onAddress.uniqueName)])
        XCTAssertEqual(reply, [.bool(true)])
        XCTAssertTrue(onSession.uniqueName.hasPrefix(":"))
        XCTAssertGreaterThanOrEqual(onSession.fileDescriptor, 0)
    }

    func testHandlerErrorsBecomeErrorReplies() throws {
        let desk = try DesktopHarness.shared()
        let server = try echoServer(desk)
        defer { server.stop() }
        let client = try BusConnection(address: desk.busAddress)

        XCTAssertThrowsError(try client.call(destination: server.uniqueName, path: path, interface: interface,
                                             method: "Fail", arguments: [.string("no")])) { error in
            XCTAssertEqual(error as? BusMethodError,
                           BusMethodError(name: "org.screentime.Test1.Error.Refused", message: "refused: no"))
        }
        XCTAssertThrowsError(try client.call(destination: server.uniqueName, path: path, interface: interface,
                                             method: "Crash")) { error in
            XCTAssertEqual((error as? BusMethodError)?.name, BusMethodError.failed)
        }
        XCTAssertThrowsError(try client.call(destination: server.uniqueName, path: path, interface: "org.screentime.Other",
                                             method: "Echo")) { error in
            XCTAssertEqual((error as? BusMethodError)?.name, BusMethodError.unknownInterface)
        }
        XCTAssertThrowsError(try client.call(destination: server.uniqueName, path: "/not/exported", interface: interface,
                                             method: "Echo")) { error in
            XCTAssertEqual((error as? BusMethodError)?.name, BusMethodError.unknownMethod)
        }
    }

    func testCallingAnAbsentServiceThrowsServiceUnknown() throws {
        let desk = try DesktopHarness.shared()
        let client = try BusConnection(address: desk.busAddress)
        XCTAssertThrowsError(try client.call(destination: "org.screentime.Nobody", path: path, interface: interface,
                                             method: "Echo")) { error in
            XCTAssertTrue((error as? BusMethodError)?.meansNoService == true, "\(error)")
        }
    }

    func testCallTimesOutWhenTheServerDoesNotAnswer() throws {
        let desk = try DesktopHarness.shared()
        let silent = try BusConnection(address: desk.busAddress) // never dispatched
        let client = try BusConnection(address: desk.busAddress)
        let start = Date()
        XCTAssertThrowsError(try client.call(destination: silent.uniqueName, path: path, interface: interface,
                                             method: "Echo", timeout: .milliseconds(200))) { error in
            XCTAssertEqual((error as? BusMethodError)?.name, BusMethodError.noReply)
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
    }

    func testInvalidNamesAreTypedErrors() throws {
        let desk = try DesktopHarness.shared()
        let client = try BusConnection(address: desk.busAddress)
        XCTAssertThrowsError(try client.call(destination: "org.screentime.Test", path: "not a path", interface: interface,
                                             method: "Echo")) { error in
            guard case .invalidArgument = error as? BusError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try client.call(destination: "org.screentime.Test", path: path, interface: interface,
                                             method: "Echo", arguments: [.objectPath("bad//path")])) { error in
            guard case .invalidArgument = error as? BusError else { return XCTFail("\(error)") }
        }
    }

    func testIntrospectReturnsTheExportedInterface() throws {
        let desk = try DesktopHarness.shared()
        let server = try echoServer(desk)
        defer { server.stop() }
        let client = try BusConnection(address: desk.busAddress)

        let reply = try client.call(destination: server.uniqueName, path: path,
                                    interface: "org.freedesktop.DBus.Introspectable", method: "Introspect")
        let xml = try XCTUnwrap(reply.first?.stringValue)
        XCTAssertTrue(xml.contains(#"<interface name="org.screentime.Test1">"#), xml)
        XCTAssertTrue(xml.contains(#"<interface name="org.freedesktop.DBus.Introspectable">"#), xml)
        // Parents list the child node so tools can walk down to the object.
        let parent = try client.call(destination: server.uniqueName, path: "/org/screentime",
                                     interface: "org.freedesktop.DBus.Introspectable", method: "Introspect")
        XCTAssertTrue(parent.first?.stringValue?.contains(#"<node name="Test"/>"#) == true, "\(parent)")
    }

    func testRequestNameRefusesASecondOwner() throws {
        let desk = try DesktopHarness.shared()
        let first = try BusConnection(address: desk.busAddress)
        let second = try BusConnection(address: desk.busAddress)
        let name = "org.screentime.TestOwner\(getpid())"

        XCTAssertTrue(try first.requestName(name))
        XCTAssertTrue(try first.requestName(name), "asking again as the owner is fine")
        XCTAssertFalse(try second.requestName(name))
        XCTAssertFalse(try second.requestName(name), "not queued: still refused")

        first.close()
        // The name is free once its owner has gone.
        let taken = try Wait.poll(timeout: 5, every: 0.01) { try second.requestName(name) }
        XCTAssertTrue(taken)
        try second.releaseName(name)
    }

    func testSignalEmissionAndReception() throws {
        let desk = try DesktopHarness.shared()
        let emitter = try BusConnection(address: desk.busAddress)
        let listener = try BusConnection(address: desk.busAddress)
        try listener.addMatch("type='signal',interface='\(interface)'")
        var received: [BusMessage] = []
        listener.onSignal(interface: interface, member: "Changed") { received.append($0) }
        var anyMember: [String?] = []
        listener.onSignal(interface: interface) { anyMember.append($0.member) }

        try emitter.emitSignal(path: path, interface: interface, member: "Changed", arguments: [.string(#"{"mode":"sleep"}"#)])
        try emitter.emitSignal(path: path, interface: interface, member: "Other")
        emitter.flush()

        try pump(listener, "both signals") { anyMember.count == 2 }
        XCTAssertEqual(anyMember, ["Changed", "Other"])
        XCTAssertEqual(received.count, 1)
        XCTAssertEqual(received.first?.arguments, [.string(#"{"mode":"sleep"}"#)])
        XCTAssertEqual(received.first?.sender, emitter.uniqueName)
        XCTAssertEqual(received.first?.path, path)
    }

    func testClosedConnectionReportsDisconnected() throws {
        let desk = try DesktopHarness.shared()
        let connection = try BusConnection(address: desk.busAddress)
        try connection.dispatchPending()
        XCTAssertTrue(connection.isConnected)
        connection.close()
        XCTAssertFalse(connection.isConnected)
        XCTAssertThrowsError(try connection.dispatchPending()) { XCTAssertEqual($0 as? BusError, .disconnected) }
        XCTAssertThrowsError(try connection.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                                 interface: "org.freedesktop.DBus", method: "GetId")) {
            XCTAssertEqual($0 as? BusError, .disconnected)
        }
    }

    /// A bus daemon of its own, stopped under the connection: the shared one must stay up.
    func testBusGoingAwayIsReportedAsDisconnectedWithoutExiting() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("screentime-bus-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: try DesktopHarness.which("dbus-daemon"))
        daemon.arguments = ["--session", "--nofork", "--nopidfile", "--print-address=1", "--address=unix:path=\(folder.path)/bus"]
        let out = Pipe()
        daemon.standardOutput = out
        try daemon.run()
        defer { if daemon.isRunning { daemon.terminate(); daemon.waitUntilExit() } }
        var address = ""
        let addressDeadline = Date().addingTimeInterval(5)
        while !address.hasSuffix("\n") && Date() < addressDeadline {
            address += String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
        }
        let connection = try BusConnection(address: address.trimmingCharacters(in: .whitespacesAndNewlines))
        try connection.dispatchPending()

        daemon.terminate()
        daemon.waitUntilExit()
        var outcome: Error?
        Wait.poll(timeout: 5, every: 0.01) {
            do { try connection.dispatchPending() } catch { outcome = error }
            return outcome != nil
        }
        XCTAssertEqual(outcome as? BusError, .disconnected)
        XCTAssertFalse(connection.isConnected)
    }

    func testConnectingToAMissingBusIsATypedError() {
        XCTAssertThrowsError(try BusConnection(address: "unix:path=/nonexistent/screentime-bus")) { error in
            guard case .failed(let context, let name, _) = error as? BusError else { return XCTFail("\(error)") }
            XCTAssertTrue(context.contains("/nonexistent/screentime-bus"))
            XCTAssertTrue(name.hasPrefix("org.freedesktop.DBus.Error."))
        }
    }

    func testSendHandsTheReplyOrErrorToItsHandlerFromDispatch() throws {
        let desk = try DesktopHarness.shared()
        let server = try echoServer(desk)
        defer { server.stop() }
        let client = try BusConnection(address: desk.busAddress)

        var answers: [String: Result<[BusValue], Error>] = [:]
        try client.send(destination: server.uniqueName, path: path, interface: interface, method: "Echo",
                        arguments: [.string("hello")]) { answers["echo"] = $0 }
        try client.send(destination: server.uniqueName, path: path, interface: interface, method: "Fail",
                        arguments: [.string("no")]) { answers["fail"] = $0 }
        XCTAssertTrue(answers.isEmpty, "nothing is answered before dispatch")
        try pump(client, "both answers") { answers.count == 2 }
        XCTAssertEqual(try answers["echo"]?.get(), [.string("hello")])
        XCTAssertThrowsError(try answers["fail"]?.get()) {
            XCTAssertEqual($0 as? BusMethodError, BusMethodError(name: "org.screentime.Test1.Error.Refused", message: "refused: no"))
        }
        XCTAssertNil(client.nextReplyDeadline(now: Date()), "no call is waiting any more")
    }

    /// The agent's start: a call sent without waiting, then a blocking AddMatch. The bus daemon
    /// answers in order, so the first reply is read during the AddMatch and queued; the socket has
    /// nothing more to say, and only `hasQueuedIncoming` tells a poll loop the reply is there.
    func testAReplyReadDuringABlockingCallIsReportedAsQueued() throws {
        let desk = try DesktopHarness.shared()
        let client = try BusConnection(address: desk.busAddress)
        var busID: String?
        try client.send(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                        method: "GetId") { busID = (try? $0.get())?.first?.stringValue }
        try client.addMatch("type='signal',interface='org.screentime.Test1'")

        XCTAssertTrue(client.hasQueuedIncoming, "the GetId reply came in during AddMatch")
        var entry = pollfd(fd: client.fileDescriptor, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&entry, 1, 50), 0, "the descriptor does not announce it")
        XCTAssertNil(busID)
        try client.dispatchPending()
        XCTAssertEqual(busID?.count, 32)
        XCTAssertFalse(client.hasQueuedIncoming)
    }

    /// A peer that owns its name but never reads (as a stopped process): the call gives up at its
    /// timeout, without the caller ever waiting.
    func testSendGivesUpAtTheTimeout() throws {
        let desk = try DesktopHarness.shared()
        let silent = try BusConnection(address: desk.busAddress)
        let client = try BusConnection(address: desk.busAddress)
        var answer: Result<[BusValue], Error>?
        let sent = Date()
        try client.send(destination: silent.uniqueName, path: path, interface: interface, method: "Echo",
                        timeout: .milliseconds(200)) { answer = $0 }
        XCTAssertLessThan(Date().timeIntervalSince(sent), 0.05, "sending does not wait")
        let deadline = try XCTUnwrap(client.nextReplyDeadline(now: sent))
        XCTAssertEqual(deadline.timeIntervalSince(sent), 0.2, accuracy: 0.05)

        client.expireOverdueReplies()
        try client.dispatchPending()
        XCTAssertNil(answer, "not before the timeout")
        // The reply's deadline passing is what is awaited (not a fixed 250 ms): expiring before it does nothing.
        Wait.poll(timeout: 1, every: 0.01) { Date() >= deadline }
        client.expireOverdueReplies()
        XCTAssertThrowsError(try XCTUnwrap(answer).get()) {
            XCTAssertEqual(($0 as? BusMethodError)?.name, BusMethodError.noReply)
        }
    }
}
