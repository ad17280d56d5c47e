import FoundationEssentials
import ScreenTimeCore

/// For an output nothing can change (no CRTC ramp, no CTM): does nothing and says so.
final class DummyDisplayMethod: DisplayFilterMethod {
    static let methodName = "dummy"
    static func probe(_ info: OutputInfo) -> Bool { true }

    let info: OutputInfo
    let randr: RandRConnection
    var originals: OutputOriginals?

    init(info: OutputInfo, randr: RandRConnection) {
        self.info = info
        self.randr = randr
    }

    func start() throws -> OutputOriginals {
        let saved = OutputOriginals(outputName: info.name, crtc: info.crtc, gamma: nil, ctm: nil)
        originals = saved
        return saved
    }

    func apply(_ filter: ColorFilter) throws {}

    func limitations(for filter: ColorFilter) -> [String] {
        filter.isIdentity ? [] : ["filter not shown: no gamma ramp or CTM on \(info.name)"]
    }
}
