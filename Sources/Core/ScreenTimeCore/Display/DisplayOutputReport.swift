import FoundationEssentials

/// One output as `screentime doctor` shows it: what the hardware offers and what the filter does with it.
public struct DisplayOutputReport: Equatable, Sendable, CustomStringConvertible {
    public var name: String
    /// Entries per channel in the CRTC's gamma ramp; 0 when the output has no CRTC or no ramp.
    public var gammaSize: Int
    /// Whether the output exposes a RandR `CTM` property (true grayscale possible).
    public var hasCTM: Bool
    /// The method chosen for this output, e.g. "randr-ctm", "randr-gamma", "dummy".
    public var method: String
    /// What the method cannot show that the current filter asks for, said plainly;
    /// e.g. "grayscale: unavailable on HDMI-1: the driver has no CTM (dimmed to 70 % instead)".
    public var limitations: [String]

    public init(name: String, gammaSize: Int, hasCTM: Bool, method: String, limitations: [String] = []) {
        self.name = name
        self.gammaSize = gammaSize
        self.hasCTM = hasCTM
        self.method = method
        self.limitations = limitations
    }

    public var description: String {
        var line = "\(name): gamma size \(gammaSize), CTM \(hasCTM ? "yes" : "no"), method \(method)"
        for limitation in limitations { line += "; \(limitation)" }
        return line
    }
}
