import Foundation
import ScreenTimeCore
import Harnesses
import X11Backend
import XCTest

final class EWMHFocusSourceTests: X11DesktopTestCase {
    private func open(_ wmClass: String, _ title: String, pid: Int32? = nil) throws -> TestWindow {
        let window = try client.openWindow(class: wmClass, title: title, pid: pid)
        opened.append(window)
        return window
    }

    /// Activates `window` and waits for the source to report it.
    private func focus(_ window: TestWindow, with source: FocusSource) throws -> [FocusEvent] {
        client.activate(window)
        let events = try source.events { $0.focusedWindow == window.id }
        XCTAssertTrue(events.contains { $0.focusedWindow == window.id }, "no .focused(\(window)) in \(events)")
        return events
    }

    func testSwitchingFocusReportsEachWindowsFacts() throws {
        let source = try EWMHFocusSource(connection: connection)
        let alpha = try open("StAlpha", "Alpha — één", pid: getpid())
        let beta = try open("StBeta", "Beta")

        let toAlpha = try focus(alpha, with: source)
        guard case .focused(let facts?) = toAlpha.last else { return XCTFail("last event \(String(describing: toAlpha.last))") }
        XCTAssertEqual(facts.window, alpha.id)
        XCTAssertEqual(facts.wmClass, "StAlpha")
        XCTAssertEqual(facts.wmInstance, "stalpha")
        XCTAssertEqual(facts.title, "Alpha — één")
        XCTAssertEqual(facts.pid, getpid())
        // Our own pid: the executable is this test runner.
        XCTAssertEqual(facts.executable, URL(fileURLWithPath: CommandLine.arguments[0]).lastPathComponent)
        XCTAssertEqual(facts.role, .normal)
        XCTAssertEqual(try source.currentFocus()?.window, alpha.id)

        let toBeta = try focus(beta, with: source)
        guard case .focused(let betaFacts?) = toBeta.last else { return XCTFail("last event \(String(describing: toBeta.last))") }
        XCTAssertEqual(betaFacts.wmClass, "StBeta")
        XCTAssertNil(betaFacts.pid)
        XCTAssertNil(betaFacts.executable)
    }

    func testTitleChangeOfFocusedWindowIsReported() throws {
        let source = try EWMHFocusSource(connection: connection)
        let window = try open("StTitle", "Inbox (1)")
        _ = try focus(window, with: source)

        client.setTitle(window, "Inbox (2)")
        let events = try source.events { if case .titleChanged = $0 { return true } else { return false } }
        guard case .titleChanged(let facts)? = events.last else { return XCTFail("no title change in \(events)") }
        XCTAssertEqual(facts.window, window.id)
        XCTAssertEqual(facts.title, "Inbox (2)")
        XCTAssertEqual(facts.wmClass, "StTitle")
    }

    /// Titles are read and followed only where needed (an app with a title rule): elsewhere a
    /// switch costs no title read, and a rename wakes nobody (the window is not listened to).
    func testTitleIsReadAndFollowedOnlyWhereNeeded() throws {
        let source = try EWMHFocusSource(connection: connection)
        source.needsTitle = { $0.wmClass == "StRuled" }
        let ruled = try open("StRuled", "Cat videos")
        let plain = try open("StPlain", "Secret plans")

        guard case .focused(let plainFacts?) = try focus(plain, with: source).last else { return XCTFail("no focus on \(plain)") }
        XCTAssertEqual(plainFacts.title, "", "not read")
        XCTAssertEqual(plainFacts.wmClass, "StPlain")
        // What the switch itself still brings (openbox sets _NET_ACTIVE_WINDOW twice) is read first.
        var settling = pollfd(fd: source.pollDescriptor, events: Int16(POLLIN), revents: 0)
        for _ in 0..<50 {
            _ = try source.drainEvents()
            if poll(&settling, 1, 200) == 0 { break }
        }
        client.setTitle(plain, "More secret plans")
        XCTAssertTrue(client.syncWithWindowManager())
        var descriptor = pollfd(fd: source.pollDescriptor, events: Int16(POLLIN), revents: 0)
        XCTAssertEqual(poll(&descriptor, 1, 200), 0, "the rename of a window whose title is not needed reached the agent")
        XCTAssertEqual(try source.drainEvents(), [])

        // A title rule for the focused window's app arrives: its title is read and followed at once.
        source.needsTitle = { $0.wmClass == "StRuled" || $0.wmClass == "StPlain" }
        source.needsTitleChanged()
        let ruledNow = try source.events { if case .titleChanged = $0 { return true } else { return false } }
        guard case .titleChanged(let nowRead)? = ruledNow.last else { return XCTFail("no title change in \(ruledNow)") }
        XCTAssertEqual(nowRead.window, plain.id)
        XCTAssertEqual(nowRead.title, "More secret plans")
        source.needsTitle = { $0.wmClass == "StRuled" }
        source.needsTitleChanged()

        guard case .focused(let ruledFacts?) = try focus(ruled, with: source).last else { return XCTFail("no focus on \(ruled)") }
        XCTAssertEqual(ruledFacts.title, "Cat videos")
        client.setTitle(ruled, "Dog videos")
        let events = try source.events { if case .titleChanged = $0 { return true } else { return false } }
        guard case .titleChanged(let renamed)? = events.last else { return XCTFail("no title change in \(events)") }
        XCTAssertEqual(renamed.title, "Dog videos")
    }

    /// Openbox sets `_NET_ACTIVE_WINDOW` to None between two windows while focus moves: an
    /// independent witness (`xprop -spy`) sees those Nones, the source must not report them.
    func testSwitchingNeverReportsTheTransientNone() throws {
        let desk = try DesktopHarness.shared()
        let source = try EWMHFocusSource(connection: connection)
        let one = try open("StOne", "One")
        let two = try open("StTwo", "Two")
        let spy = try ActiveWindowSpy(environment: desk.environment)
        var seen: [FocusEvent] = []
        for window in [one, two, one, two, one, two] {
            client.activate(window)
            seen += try source.events { $0.focusedWindow == window.id }
        }
        // Until nothing is pending: a None that was would be reported once past its debounce.
        try Wait.until("the focus source to hold nothing pending") {
            seen += try source.drainEvents()
            return source.nextPoll(after: Date()) == nil
        }
        let values = spy.stop()
        XCTAssertTrue(values.contains(0), "openbox never set None (\(values)): the test proves nothing")
        XCTAssertFalse(seen.contains { $0.isNilFocus }, "spurious nil focus in \(seen)")
        XCTAssertEqual(seen.compactMap(\.focusedWindow).suffix(6), [one, two, one, two, one, two].map(\.id))
    }

    /// openbox leaves `_NET_ACTIVE_WINDOW` on an app's last window after it closed, and the server
    /// gives the next client to connect the same window ids: the closed window's interval ends at
    /// once, and the next app's window under the same id is reported as a new window, not as a
    /// rename of the closed one.
    func testAClosedWindowEndsAndTheNextWindowUnderItsIDIsAnother() throws {
        let source = try EWMHFocusSource(connection: connection)
        var closing: TestWindowClient? = try TestWindowClient()
        let old = try XCTUnwrap(closing).openWindow(class: "StClosedApp", title: "Terminal")
        _ = try focus(old, with: source)
        closing = nil  // the app exits: the server destroys its window
        XCTAssertTrue(client.waitUntil(timeout: 5) { !self.client.clientList().contains(old.xid) })
        let ended = try source.events { $0.isNilFocus }
        XCTAssertEqual(ended, [.focused(nil)], "the closed window's interval did not end")
        XCTAssertEqual(client.activeWindow(), old.xid, "openbox moved _NET_ACTIVE_WINDOW off the closed window: the test proves less")

        let next = try TestWindowClient()
        let new = try next.openWindow(class: "StNextApp", title: "Terminal")
        XCTAssertEqual(new.id, old.id, "the X server did not reuse the id: the test proves nothing")
        let events = try focus(new, with: source)
        guard case .focused(let facts?) = events.last else { return XCTFail("no focus on the new window: \(events)") }
        XCTAssertEqual(facts.wmClass, "StNextApp")
        next.close(new)
    }

    /// The same, with the close and the next app's window both done before the source drains: the
    /// closed window's DestroyNotify tells the two apart, and the new one's facts are read afresh.
    func testAWindowReplacedUnderItsIDBetweenTwoDrainsIsReportedAsNew() throws {
        let source = try EWMHFocusSource(connection: connection)
        var closing: TestWindowClient? = try TestWindowClient()
        let old = try XCTUnwrap(closing).openWindow(class: "StReplacedApp", title: "Same title")
        _ = try focus(old, with: source)
        closing = nil
        XCTAssertTrue(client.waitUntil(timeout: 5) { !self.client.clientList().contains(old.xid) })
        let next = try TestWindowClient()
        let new = try next.openWindow(class: "StSuccessorApp", title: "Same title")
        XCTAssertEqual(new.id, old.id, "the X server did not reuse the id: the test proves nothing")
        next.activate(new)
        XCTAssertTrue(client.waitUntil(timeout: 5) { self.client.activeWindow() == new.xid })

        let events = try source.events { $0.focusedWindow == new.id }
        guard case .focused(let facts?) = events.last else { return XCTFail("the new window was not reported as focused: \(events)") }
        XCTAssertEqual(facts.wmClass, "StSuccessorApp", "named from the closed window's cache")
        XCTAssertFalse(events.contains { if case .titleChanged = $0 { return true } else { return false } }, "\(events)")
        next.close(new)
    }

    /// A window that leaves `_NET_CLIENT_LIST` (withdrawn, as to a tray) is no longer in front,
    /// even while `_NET_ACTIVE_WINDOW` still names it; mapped again and activated, it counts again.
    func testAWindowThatLeavesTheClientListEndsItsInterval() throws {
        let source = try EWMHFocusSource(connection: connection)
        let window = try open("StToTray", "Player")
        _ = try focus(window, with: source)
        try client.withdraw(window)
        client.setActiveWindowProperty(window.xid)
        let ended = try source.events { $0.isNilFocus }
        XCTAssertTrue(ended.contains { $0.isNilFocus }, "\(ended)")
        XCTAssertFalse(ended.contains { $0.focusedWindow == window.id }, "\(ended)")
        XCTAssertEqual(try source.events(within: 0.3) { _ in false }, [], "an unlisted active window was reported")

        try client.remap(window)
        _ = try focus(window, with: source)
    }

    func testNoneThatLastsIsReportedAfterTheDebounce() throws {
        var now = Date(timeIntervalSince1970: 1_000)
        let source = try EWMHFocusSource(connection: connection, clock: { now })
        let window = try open("StNone", "None")
        _ = try focus(window, with: source)

        // None, then back to the same window within the debounce: nothing happened.
        client.setActiveWindowProperty(0)
        XCTAssertEqual(try source.events(within: 0.3) { _ in false }, [])
        XCTAssertEqual(source.nextPoll(after: now), now.addingTimeInterval(0.15))
        client.setActiveWindowProperty(window.xid)
        now += 0.1
        XCTAssertEqual(try source.events(within: 0.3) { _ in false }, [])
        XCTAssertNil(source.nextPoll(after: now))

        // None that lasts: reported once its debounce is over, not before.
        client.setActiveWindowProperty(0)
        XCTAssertEqual(try source.events(within: 0.3) { _ in false }, [])
        now += 0.1
        XCTAssertEqual(try source.drainEvents(), [])
        now += 0.06
        XCTAssertEqual(try source.drainEvents(), [.focused(nil)])
        XCTAssertNil(source.nextPoll(after: now))

        client.setActiveWindowProperty(window.xid)
        XCTAssertEqual(try source.events { $0.focusedWindow == window.id }.compactMap(\.focusedWindow), [window.id])
    }

    /// A manager that passes through None between two windows (openbox) changes
    /// `_NET_ACTIVE_WINDOW` twice per switch, after raising the window. Once it was seen doing so,
    /// a switch's first change (the raise or the None) waits for the rest, the socket not polled
    /// for input, and one read follows; a manager that names the window at once is read at once
    /// again after one such wait.
    func testAFirstChangeWaitsForTheSecondOnceTheManagerPassedThroughNone() throws {
        var now = Date(timeIntervalSince1970: 1_000)
        let source = try EWMHFocusSource(connection: connection, burstWindow: 0.0005, clock: { now })
        let alpha = try open("StBurstAlpha", "Alpha")
        let beta = try open("StBurstBeta", "Beta")
        client.setActiveWindowProperty(alpha.xid)
        XCTAssertEqual(try source.events { $0.focusedWindow == alpha.id }.compactMap(\.focusedWindow), [alpha.id])

        // Not seen passing through None yet: each change is read as it comes.
        client.setActiveWindowProperty(0)
        XCTAssertEqual(try source.events(within: 0.3) { _ in false }, [])
        XCTAssertFalse(source.isHoldingReads)
        client.setActiveWindowProperty(beta.xid)
        XCTAssertEqual(try source.events { $0.focusedWindow == beta.id }.compactMap(\.focusedWindow), [beta.id])

        // Now the None waits for the window that follows, and only that is reported.
        client.setActiveWindowProperty(0)
        XCTAssertEqual(try source.events(within: 0.3) { _ in false }, [])
        XCTAssertTrue(source.isHoldingReads)
        XCTAssertEqual(source.nextPoll(after: now), now.addingTimeInterval(0.0005))
        client.setActiveWindowProperty(alpha.xid)
        XCTAssertEqual(try source.events(within: 0.3) { _ in false }, [], "read before the burst's end")
        now += 0.001
        XCTAssertEqual(try source.drainEvents().compactMap(\.focusedWindow), [alpha.id])
        XCTAssertFalse(source.isHoldingReads)
        XCTAssertNil(source.nextPoll(after: now))

        // A raise begins a switch as well: the None and the window that follow it are read once.
        client.touchRootWindowList("_NET_CLIENT_LIST_STACKING")
        XCTAssertEqual(try source.events(within: 0.3) { _ in false }, [])
        XCTAssertTrue(source.isHoldingReads)
        client.setActiveWindowProperty(0)
        client.setActiveWindowProperty(beta.xid)
        XCTAssertEqual(try source.events(within: 0.3) { _ in false }, [])
        now += 0.001
        XCTAssertEqual(try source.drainEvents().compactMap(\.focusedWindow), [beta.id])

        // A raise alone, no switch, waits for nothing more and tells nothing of the manager: the
        // next change still waits (here for nothing: the window is named at once).
        client.touchRootWindowList("_NET_CLIENT_LIST_STACKING")
        XCTAssertEqual(try source.events(within: 0.3) { _ in false }, [])
        now += 0.001
        XCTAssertEqual(try source.drainEvents(), [])
        XCTAssertFalse(source.isHoldingReads)
        client.setActiveWindowProperty(alpha.xid)
        XCTAssertEqual(try source.events(within: 0.3) { _ in false }, [])
        XCTAssertTrue(source.isHoldingReads, "the manager no longer taken to pass through None")
        now += 0.001
        XCTAssertEqual(try source.drainEvents().compactMap(\.focusedWindow), [alpha.id])

        // That switch went straight to the window: the next change is read at once, and a raise
        // waits no more.
        client.setActiveWindowProperty(beta.xid)
        XCTAssertEqual(try source.events { $0.focusedWindow == beta.id }.compactMap(\.focusedWindow), [beta.id])
        XCTAssertFalse(source.isHoldingReads)
        client.touchRootWindowList("_NET_CLIENT_LIST_STACKING")
        XCTAssertEqual(try source.events(within: 0.3) { _ in false }, [])
        XCTAssertFalse(source.isHoldingReads, "a raise held although the manager named the window at once")
    }
}

/// Records every value `_NET_ACTIVE_WINDOW` takes, through `xprop -spy` (x11-utils), which reads
/// the property after each change.
private final class ActiveWindowSpy {
    private let process = Process()
    private let output = Pipe()

    init(environment: [String: String]) throws {
        process.executableURL = URL(fileURLWithPath: try DesktopHarness.which("xprop"))
        process.arguments = ["-spy", "-root", "_NET_ACTIVE_WINDOW"]
        process.environment = environment
        process.standardOutput = output
        try process.run()
        // xprop prints the current value once it listens.
        var first = Data()
        while !first.contains(10), process.isRunning { first += output.fileHandleForReading.availableData }
    }

    /// Stops the spy; the window ids it saw after starting (0 for None).
    func stop() -> [UInt] {
        process.terminate()
        process.waitUntilExit()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return text.split(separator: "\n").compactMap { line in
            line.split(separator: "#").last.flatMap { UInt($0.trimmingCharacters(in: .whitespaces).dropFirst(2), radix: 16) }
        }
    }
}
