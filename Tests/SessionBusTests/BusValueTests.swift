import Foundation
import SessionBus
import Harnesses
import XCTest

final class BusValueTests: XCTestCase {
    func testSignatures() {
        XCTAssertEqual(BusValue.strings([]).signature, "as")
        XCTAssertEqual(BusValue.vardict(["urgency": .byte(2)]).signature, "a{sv}")
        XCTAssertEqual(BusValue.dict(valueSignature: "s", [:]).signature, "a{ss}")
        XCTAssertEqual(BusValue.structure([.string("a"), .uint32(1)]).signature, "(su)")
        XCTAssertEqual([BusValue.string(""), .uint32(0), .int32(-1)].signature, "sui")
    }

    func testTypedViewsLookThroughVariants() {
        XCTAssertEqual(BusValue.variant(.byte(2)).byteValue, 2)
        XCTAssertEqual(BusValue.variant(.strings(["a", "b"])).stringArrayValue, ["a", "b"])
        XCTAssertNil(BusValue.uint32(1).int32Value)
        XCTAssertNil(BusValue.array(elementSignature: "u", [.uint32(1)]).stringArrayValue)
    }

    /// Every supported type survives a trip through libdbus and the bus daemon unchanged.
    func testEveryTypeRoundTripsThroughTheBus() throws {
        let desk = try DesktopHarness.shared()
        let server = try BusServingThread(address: desk.busAddress) { connection in
            try connection.export(path: "/echo", interface: "org.screentime.Echo", introspection: "") { _, args in args }
        }
        defer { server.stop() }
        let client = try BusConnection(address: desk.busAddress)
        let values: [BusValue] = [
            .string("Tom & Jerry — <b>ünïcode</b> 🎉"), .string(""), .objectPath("/org/screentime/Agent"),
            .signature("a{sv}"), .bool(true), .bool(false), .byte(255),
            .int32(Int32.min), .uint32(UInt32.max), .int64(Int64.min), .uint64(UInt64.max), .double(-0.25),
            .strings(["firefox", "org.gnome.Nautilus"]), .array(elementSignature: "s", []),
            .array(elementSignature: "as", [.strings(["a"]), .strings([])]),
            .vardict(["urgency": .byte(2), "category": .string("screentime.countdown"), "transient": .bool(true)]),
            .dict(valueSignature: "s", ["a": .string("1"), "b": .string("2")]),
            .structure([.string("x"), .uint64(7)]),
            .variant(.variant(.int32(3))),
        ]
        let reply = try client.call(destination: server.uniqueName, path: "/echo", interface: "org.screentime.Echo",
                                    method: "Echo", arguments: values)
        XCTAssertEqual(reply, values)
    }

    func testNULInsideAStringIsDroppedNotTruncating() throws {
        let desk = try DesktopHarness.shared()
        let server = try BusServingThread(address: desk.busAddress) { connection in
            try connection.export(path: "/echo", interface: "org.screentime.Echo", introspection: "") { _, args in args }
        }
        defer { server.stop() }
        let client = try BusConnection(address: desk.busAddress)
        let reply = try client.call(destination: server.uniqueName, path: "/echo", interface: "org.screentime.Echo",
                                    method: "Echo", arguments: [.string("evil\0title")])
        XCTAssertEqual(reply, [.string("eviltitle")])
    }

    func testMismatchedArrayElementIsATypedError() throws {
        let desk = try DesktopHarness.shared()
        let client = try BusConnection(address: desk.busAddress)
        XCTAssertThrowsError(try client.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                             interface: "org.freedesktop.DBus", method: "GetId",
                                             arguments: [.array(elementSignature: "s", [.uint32(1)])])) { error in
            guard case .invalidArgument = error as? BusError else { return XCTFail("\(error)") }
        }
    }
}
