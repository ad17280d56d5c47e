import FoundationEssentials
import ScreenTimeCore
import Harnesses
import XCTest

/// The browser's framing taken apart in any pieces, oversized and empty frames refused without
/// losing step, and the extension's JSON read into messages or errors that say what is wrong.
final class NativeMessagingTests: XCTestCase {
    private func frame(_ text: String) -> [UInt8] { NativeMessageFrames.frame(Array(text.utf8))! }

    func testMessagesInAnyPiecesComeOutWhole() {
        let stream = frame(#"{"type":"hello"}"#) + frame(#"{"type":"tab","host":"a.com"}"#)
        for cut in 0...stream.count {
            var frames = NativeMessageFrames()
            let items = frames.feed(stream[..<cut]) + frames.feed(stream[cut...])
            XCTAssertEqual(items, [.message(Array(#"{"type":"hello"}"#.utf8)), .message(Array(#"{"type":"tab","host":"a.com"}"#.utf8))])
            XCTAssertEqual(frames.pendingBytes, 0)
        }
    }

    func testOversizedAndEmptyFramesAreRefusedAndSkipped() {
        var frames = NativeMessageFrames()
        let big = NativeMessageFrames.largestMessage + 1
        var stream = withUnsafeBytes(of: UInt32(big)) { Array($0) } + [UInt8](repeating: 0x41, count: big)
        stream += [0, 0, 0, 0] + frame(#"{"type":"hello"}"#)
        var items: [NativeMessageFrames.Item] = []
        var offset = 0
        while offset < stream.count {
            let end = min(stream.count, offset + 65536)
            items += frames.feed(stream[offset..<end])
            offset = end
        }
        XCTAssertEqual(items.count, 3)
        guard case .refused(let reason) = items[0] else { return XCTFail("\(items[0])") }
        XCTAssertTrue(reason.contains("over the 1048576-byte limit"), reason)
        XCTAssertEqual(items[1], .refused("an empty message"))
        XCTAssertEqual(items[2], .message(Array(#"{"type":"hello"}"#.utf8)))
        XCTAssertNil(NativeMessageFrames.frame([UInt8](repeating: 0, count: big)))
    }

    func testTheExtensionsMessagesAreRead() throws {
        XCTAssertEqual(try BrowserMessage(json: Array(#"{"type":"hello","browser":"chromium"}"#.utf8)), .hello(browser: "chromium"))
        XCTAssertEqual(try BrowserMessage(json: Array(#"{"type":"tab","focused":true,"tab":3,"host":"www.youtube.com","audible":true,"incognito":false}"#.utf8)),
                       .tab(BrowserTab(focused: true, tab: 3, site: Site(domain: "youtube.com"), audible: true, incognito: false)))
        // A private window names no site, whatever the extension sent.
        XCTAssertEqual(try BrowserMessage(json: Array(#"{"type":"tab","tab":3,"host":"secret.example","incognito":true}"#.utf8)),
                       .tab(BrowserTab(focused: true, tab: 3, site: nil, audible: false, incognito: true)))
        XCTAssertEqual(try BrowserMessage(json: Array(#"{"type":"tab","focused":false}"#.utf8)),
                       .tab(BrowserTab(focused: false, tab: -1, site: nil, audible: false, incognito: false)))
        XCTAssertEqual(try BrowserMessage(json: Array(#"{"type":"choice","tab":3,"site":"youtube.com","choice":"continue"}"#.utf8)),
                       .choice(tab: 3, site: Site(domain: "youtube.com")!, choice: "continue"))
        let refused: [(String, String)] = [
            (#"[1,2]"#, "JSON object"), (#"{"type":"nope"}"#, "unknown message type"), (#"{"host":"a.com"}"#, "no `type`"),
            (#"{"type":"tab","host":"bad host"}"#, "`host`"), (#"{"type":"tab","audible":"yes"}"#, "wrong type"),
            (#"{"type":"choice","tab":1,"site":"www.youtube.com","choice":"continue"}"#, "`site`"),
            (#"{"type":"choice","tab":1,"site":"youtube.com","choice":"rm -rf"}"#, "`choice`"), ("{", "not valid JSON"),
        ]
        for (json, reason) in refused {
            XCTAssertThrowsError(try BrowserMessage(json: Array(json.utf8)), json) { error in
                XCTAssertTrue("\(error)".contains(reason), "\(json): \(error)")
            }
        }
        XCTAssertThrowsError(try BrowserMessage(json: [0x7b, 0xff, 0x7d])) { XCTAssertEqual("\($0)", "the message is not UTF-8") }
    }

    /// Seeded random byte streams (frames with lengths near the limits, random and truncated JSON):
    /// the framer and the reader always answer, and bytes never go missing from well-formed frames.
    func testSeededRandomStreamsNeverTrap() {
        let seeds = SplitMix64.seeds(count: 8, environment: ProcessInfo.processInfo.environment)
        let fragments = [#"{"type":"tab","host":"#, #""www.youtube.com""#, "}", #"{"type":"choice","tab":"#, "1", ",", #""site":"a.com""#,
                         #","choice":"close-tab"}"#, "[", "]", "\u{1}", "null", "1e999", #"{"type":"hello","browser":"x"}"#, "\"", "\\"]
        var messages = 0
        for seed in seeds {
            var random = SplitMix64(seed: seed)
            var frames = NativeMessageFrames()
            var sentWhole = 0
            var gotWhole = 0
            for _ in 0..<300 {
                var bytes: [UInt8]
                switch random.next() % 4 {
                case 0: bytes = (0..<Int(random.next() % 40)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                default: bytes = Array((0..<Int(random.next() % 6)).map { _ in fragments[Int(random.next() % UInt64(fragments.count))] }.joined().utf8)
                }
                if !bytes.isEmpty { sentWhole += 1 }
                var stream = NativeMessageFrames.frame(bytes)!
                if random.next() % 10 == 0 { stream = withUnsafeBytes(of: UInt32(NativeMessageFrames.largestMessage + 1 + Int(random.next() % 3))) { Array($0) }; sentWhole += 0 }
                var offset = 0
                while offset < stream.count {
                    let end = min(stream.count, offset + 1 + Int(random.next() % 16))
                    for item in frames.feed(stream[offset..<end]) {
                        if case .message(let body) = item {
                            gotWhole += 1
                            if let message = try? BrowserMessage(json: body) { messages += 1; _ = message }
                        }
                    }
                    offset = end
                }
                if frames.pendingBytes > 0 { frames = NativeMessageFrames() }
            }
            XCTAssertLessThanOrEqual(gotWhole, sentWhole, "seed \(seed)")
        }
        print("NativeMessaging random runs: \(seeds.count * 300) frames, \(messages) messages read, seeds \(seeds.map(String.init).joined(separator: ","))")
    }
}
