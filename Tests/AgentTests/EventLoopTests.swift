import Foundation
import Glibc
import XCTest
@testable import Agent

/// The loop's quiet turns, with real pipes: after a turn that served one source alone and
/// quietly, the next asks that source alone; the others' descriptors are still polled.
final class EventLoopTests: XCTestCase {
    /// A pipe, polled; counts how often it is asked for its descriptors and served.
    final class PipeSource: LoopSource {
        let read: Int32, write: Int32
        var quiet: Bool
        var extraDescriptors: [Int32] = []
        private(set) var asked = 0, served = 0
        private(set) var servedQuietly = false

        init(quiet: Bool) {
            var ends: [Int32] = [0, 0]
            precondition(pipe(&ends) == 0)
            (read, write, self.quiet) = (ends[0], ends[1], quiet)
            _ = fcntl(read, F_SETFL, O_NONBLOCK)
        }

        deinit { close(read); close(write) }

        func poke() { var byte: UInt8 = 1; _ = Glibc.write(write, &byte, 1) }

        func pollRequests(into requests: inout PollRequests) {
            asked += 1
            requests.add(read)
            for descriptor in extraDescriptors { requests.add(descriptor) }
        }

        func handle(ready: [Int32], now: Date) {
            served += 1
            var buffer = [UInt8](repeating: 0, count: 64)
            while Glibc.read(read, &buffer, buffer.count) > 0 {}
            servedQuietly = quiet
        }
    }

    private let now = Date(timeIntervalSince1970: 1_780_300_800)

    private func turn(_ loop: EventLoop) throws { try loop.turn(now: now, maximumWait: 0) { now } }

    func testAfterAQuietTurnOnlyTheQuietSourceIsAskedAndTheOthersAreStillHeard() throws {
        let desktop = PipeSource(quiet: true), bus = PipeSource(quiet: false), config = PipeSource(quiet: false)
        let loop = EventLoop(sources: [config, desktop, bus])
        desktop.poke()
        try turn(loop)
        XCTAssertEqual([config.asked, desktop.asked, bus.asked], [1, 1, 1])
        XCTAssertEqual(desktop.served, 1)
        // Quiet: only the desktop is asked again, and a ready bus is still served.
        bus.poke()
        try turn(loop)
        XCTAssertEqual([config.asked, desktop.asked, bus.asked], [1, 2, 1])
        XCTAssertEqual(bus.served, 1, "the bus's descriptor was polled though it was not asked")
        // The bus's turn was not quiet: everyone is asked.
        try turn(loop)
        XCTAssertEqual([config.asked, desktop.asked, bus.asked], [2, 3, 2])
    }

    func testAQuietTurnWithAnotherSourceServedIsNotQuiet() throws {
        let desktop = PipeSource(quiet: true), bus = PipeSource(quiet: false)
        let loop = EventLoop(sources: [desktop, bus])
        desktop.poke()
        bus.poke()
        try turn(loop)
        try turn(loop)
        XCTAssertEqual([desktop.asked, bus.asked], [2, 2], "two sources served: every source asked")
    }

    func testAQuietSourceWithOtherDescriptorsMakesEverySourceAsked() throws {
        let desktop = PipeSource(quiet: true), bus = PipeSource(quiet: false)
        let loop = EventLoop(sources: [desktop, bus])
        desktop.poke()
        try turn(loop)
        let extra = PipeSource(quiet: false)
        desktop.extraDescriptors = [extra.read]
        extra.poke()
        try turn(loop)
        XCTAssertEqual([desktop.asked, bus.asked], [3, 2], "asked alone, then with everyone when its descriptors changed")
        XCTAssertEqual(desktop.served, 2, "its new descriptor was polled")
    }
}
