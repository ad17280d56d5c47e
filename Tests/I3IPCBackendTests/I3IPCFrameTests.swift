@testable import I3IPCBackend
import XCTest

final class I3IPCFrameTests: XCTestCase {
    func testFramesArrivingInPiecesAreCutWhole() throws {
        let first = I3IPCFrame(.runCommand, #"[{"success":true}]"#)
        let second = I3IPCFrame(type: I3IPCMessageType.windowEvent.rawValue, payload: Array(#"{"change":"focus"}"#.utf8))
        let stream = first.encoded + second.encoded
        var parser = I3IPCFrameParser()
        var frames: [I3IPCFrame] = []
        for byte in stream {
            parser.append([byte])
            while let frame = try parser.next() { frames.append(frame) }
        }
        XCTAssertEqual(frames, [first, second])
        XCTAssertFalse(frames[0].isEvent)
        XCTAssertTrue(frames[1].isEvent)
        XCTAssertFalse(parser.hasFrame)
    }

    func testHeaderIsMagicLengthAndTypeInHostOrder() {
        XCTAssertEqual(I3IPCFrame(.subscribe, "[]").encoded,
                       Array("i3-ipc".utf8) + [2, 0, 0, 0] + [2, 0, 0, 0] + Array("[]".utf8))
    }

    func testLostFramingIsAnError() {
        var parser = I3IPCFrameParser()
        parser.append(Array("i3-ipx\u{2}\0\0\0\0\0\0\0[]".utf8))
        XCTAssertThrowsError(try parser.next()) { XCTAssertEqual($0 as? I3IPCFrameParser.Failure, .badMagic) }
    }

    func testImplausibleLengthIsAnError() {
        var parser = I3IPCFrameParser()
        parser.append(Array("i3-ipc".utf8) + [0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0])
        XCTAssertThrowsError(try parser.next()) { XCTAssertEqual($0 as? I3IPCFrameParser.Failure, .tooLong(0x7fff_ffff)) }
    }
}
