import Foundation
import ScreenTimeCore
import XCTest
@testable import DisplayFilter

final class SavedDisplayStateTests: XCTestCase {
    private var runtime: String!

    override func setUpWithError() throws {
        runtime = FileManager.default.temporaryDirectory.appendingPathComponent("saved-state-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: runtime)
    }

    private let sample = OutputOriginals(
        outputName: "HDMI-1", crtc: Crtc(id: 0x3f),
        gamma: GammaRamp(red: [0, 30000, 65535], green: [0, 20000, 54000], blue: [1, 2, 3]),
        ctm: CTMEncoding.identity)

    func testOriginalsRoundTripThroughTheFile() throws {
        let state = SavedDisplayState(runtimeDirectory: runtime)
        XCTAssertTrue(state.isEmpty)
        try state.save(sample)
        try state.save(OutputOriginals(outputName: "eDP-1", crtc: nil, gamma: nil, ctm: nil))
        XCTAssertEqual(state.directory, runtime + "/display-originals")
        let loaded = try state.load().map(\.originals)
        XCTAssertEqual(loaded, [sample, OutputOriginals(outputName: "eDP-1", crtc: nil, gamma: nil, ctm: nil)])
        state.remove(outputName: "HDMI-1")
        XCTAssertEqual(try state.load().map(\.originals.outputName), ["eDP-1"])
        state.removeAll()
        XCTAssertTrue(state.isEmpty)
    }

    func testAnOutputNameCannotLeaveTheDirectory() throws {
        let state = SavedDisplayState(runtimeDirectory: runtime)
        var hostile = sample
        hostile.outputName = "../../escape"
        try state.save(hostile)
        XCTAssertFalse(FileManager.default.fileExists(atPath: runtime + "/escape"))
        let loaded = try state.load()
        XCTAssertEqual(loaded.count, 1)
        XCTAssertTrue(loaded[0].file.hasPrefix(state.directory + "/output-"))
        XCTAssertEqual(loaded[0].originals.outputName, "../../escape", "the name itself is kept to find the output")
    }

    func testTruncatedOrForeignFilesAreRejectedWithThePath() {
        let path = "/run/x/output-HDMI-1"
        let truncated = SavedDisplayState.encode(sample).replacingOccurrences(of: " 54000", with: "")
        XCTAssertThrowsError(try SavedDisplayState.decode(truncated, path: path)) { error in
            XCTAssertEqual(error as? DisplayFilterError,
                           .savedState(path: path, reason: "green: expected 3 numbers, found 2"))
        }
        XCTAssertThrowsError(try SavedDisplayState.decode("hello\n", path: path))
        XCTAssertThrowsError(try SavedDisplayState.decode(SavedDisplayState.header + "\ncrtc 1\n", path: path))
    }
}
