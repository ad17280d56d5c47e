import FoundationEssentials
import ScreenTimeCore

/// Warmth and dimming through the CRTC's gamma ramp, on every driver. Composes onto the user's
/// saved ramp (`new[i] = saved[i] · whitepoint · brightness`), so redshift's or gammastep's curve
/// stays under ours. Ramps map each channel alone, so grayscale is out of reach: the screen is
/// dimmed in its place (`ColorFilter.gammaRampStandIn`), and the report says so.
final class GammaRampMethod: DisplayFilterMethod {
    static let methodName = "randr-gamma"
    static func probe(_ info: OutputInfo) -> Bool { info.crtc != nil && info.gammaSize > 1 }

    let info: OutputInfo
    let randr: RandRConnection
    var originals: OutputOriginals?

    init(info: OutputInfo, randr: RandRConnection) {
        self.info = info
        self.randr = randr
    }

    func start() throws -> OutputOriginals {
        guard let crtc = info.crtc else { throw DisplayFilterError.notStarted(output: info.name) }
        let saved = OutputOriginals(outputName: info.name, crtc: crtc, gamma: try randr.gamma(of: crtc), ctm: nil)
        originals = saved
        return saved
    }

    func apply(_ filter: ColorFilter) throws {
        let originals = try requireOriginals()
        guard let gamma = originals.gamma, let crtc = info.crtc else { return }
        let gains = filter.gammaRampStandIn.channelGains
        try randr.setGamma(gamma.scaled(red: gains.red, green: gains.green, blue: gains.blue), on: crtc)
        randr.flush()
    }

    func limitations(for filter: ColorFilter) -> [String] {
        guard filter.needsColorMatrix else { return [] }
        let percent = Int((ColorFilter.grayscaleStandInBrightness * 100).rounded())
        return ["grayscale: unavailable on \(info.name): the driver has no CTM (dimmed to \(percent) % instead)"]
    }
}
