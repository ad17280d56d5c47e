import FoundationEssentials
import ScreenTimeCore

/// What one output showed before screentime changed it: its CRTC's gamma ramp and its CTM.
/// Persisted before the first change so a crash can be undone by the next start.
struct OutputOriginals: Equatable {
    var outputName: String
    /// The CRTC that was driving the output, so its ramp can be put back even when the output is gone.
    var crtc: Crtc?
    var gamma: GammaRamp?
    /// The 18 raw words of the CTM property.
    var ctm: [UInt32]?

    /// Writes the originals back: the ramp onto the CRTC when its size still matches, the matrix
    /// onto the output when it still has a CTM.
    func restore(on randr: RandRConnection, output: Output?, crtc currentCrtc: Crtc?) throws {
        if let gamma, let target = currentCrtc ?? crtc, randr.gammaSize(target) == gamma.size {
            try randr.setGamma(gamma, on: target)
        }
        if let ctm, let output, try randr.ctm(of: output) != nil {
            try randr.setCTM(ctm, on: output)
        }
        randr.flush()
    }
}
