import FoundationEssentials
import ScreenTimeCore

/// True grayscale through the output's RandR `CTM` property (modesetting in Xorg 21.1+, amdgpu).
/// The matrix carries the desaturation; the CRTC ramp carries the warmth and dimming, composed
/// over the user's own ramp exactly as on outputs without a CTM, so every screen looks alike.
final class RandRCTMMethod: DisplayFilterMethod {
    static let methodName = "randr-ctm"
    static func probe(_ info: OutputInfo) -> Bool { info.hasCTM }

    let info: OutputInfo
    let randr: RandRConnection
    var originals: OutputOriginals?

    init(info: OutputInfo, randr: RandRConnection) {
        self.info = info
        self.randr = randr
    }

    func start() throws -> OutputOriginals {
        let gamma = try info.crtc.flatMap { info.gammaSize > 0 ? try randr.gamma(of: $0) : nil }
        let saved = OutputOriginals(outputName: info.name, crtc: info.crtc, gamma: gamma, ctm: try randr.ctm(of: info.output))
        originals = saved
        return saved
    }

    func apply(_ filter: ColorFilter) throws {
        let originals = try requireOriginals()
        if let gamma = originals.gamma, let crtc = info.crtc {
            let gains = filter.channelGains
            try randr.setCTM(CTMEncoding.encode(filter.saturationMatrix()), on: info.output)
            try randr.setGamma(gamma.scaled(red: gains.red, green: gains.green, blue: gains.blue), on: crtc)
        } else {
            // No ramp to carry the tint: the whole filter goes into the matrix.
            try randr.setCTM(CTMEncoding.encode(filter.matrix()), on: info.output)
        }
        randr.flush()
    }

    func limitations(for filter: ColorFilter) -> [String] { [] }
}
