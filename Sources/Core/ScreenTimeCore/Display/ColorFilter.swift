import FoundationEssentials

/// What the display filter does to the screen's colours: desaturation, a warm tint and dimming.
///
/// A value type so the engine can name a mode's look without knowing how X shows it, and so a fade
/// is a plain interpolation between two values.
public struct ColorFilter: Equatable, Sendable, CustomStringConvertible {
    /// 1 keeps the colours, 0 is gray (BT.709 luma).
    public var saturation: Double
    /// Colour temperature of white, in kelvin; `ColorFilter.neutralTemperature` changes nothing.
    public var temperature: Double
    /// Multiplies every channel; 1 leaves the brightness alone.
    public var brightness: Double

    /// The temperature whose whitepoint is (1, 1, 1), as in redshift: the sRGB white, D65.
    public static let neutralTemperature: Double = 6500
    /// The warm tint used by Wind Down and Sleep.
    public static let defaultWarmTemperature: Double = 4000
    /// Temperatures outside this range are clamped; the approximation is fitted on it.
    public static let temperatureRange: ClosedRange<Double> = 1000...25000

    public init(saturation: Double = 1, temperature: Double = ColorFilter.neutralTemperature, brightness: Double = 1) {
        self.saturation = min(max(saturation, 0), 1)
        self.temperature = min(max(temperature, Self.temperatureRange.lowerBound), Self.temperatureRange.upperBound)
        self.brightness = min(max(brightness, 0), 1)
    }

    /// The screen as it was: no change at all.
    public static let none = ColorFilter()
    /// True grayscale (needs a colour transformation matrix on the output; elsewhere it is dimmed instead).
    public static let grayscale = ColorFilter(saturation: 0)
    /// Grayscale tinted toward the warm whitepoint of `kelvin`.
    public static func warmGrayscale(kelvin: Double = defaultWarmTemperature) -> ColorFilter {
        ColorFilter(saturation: 0, temperature: kelvin)
    }
    /// Only the warm tint (what gamma ramps alone can show).
    public static func warm(kelvin: Double = defaultWarmTemperature) -> ColorFilter {
        ColorFilter(temperature: kelvin)
    }
    /// Only dimming.
    public static func dim(_ brightness: Double) -> ColorFilter {
        ColorFilter(brightness: brightness)
    }

    public var isIdentity: Bool { self == .none }
    /// Whether showing this filter needs a colour matrix (gamma ramps cannot mix channels).
    public var needsColorMatrix: Bool { saturation < 1 }
    /// How bright full grayscale leaves a screen whose driver has no colour matrix: ramps cannot
    /// desaturate, so the mode dims instead and still looks different.
    public static let grayscaleStandInBrightness: Double = 0.7

    /// What per-channel gamma ramps show of this filter: the tint and the dimming, with the
    /// desaturation they cannot show stood in for by dimming (full grayscale: 70 %, half: 85 %),
    /// so a fade toward grayscale dims smoothly.
    public var gammaRampStandIn: ColorFilter {
        let standIn = saturation + (1 - saturation) * Self.grayscaleStandInBrightness
        return ColorFilter(saturation: 1, temperature: temperature, brightness: brightness * standIn)
    }

    /// Per-channel gains that gamma ramps multiply by: the whitepoint times the brightness.
    public var channelGains: (red: Double, green: Double, blue: Double) {
        let white = Whitepoint.of(kelvin: temperature)
        return (white.red * brightness, white.green * brightness, white.blue * brightness)
    }

    /// The desaturation alone, row-major 3x3 (out = M · in): `s·I + (1−s)·L`, where every row of L
    /// holds the BT.709 luma weights.
    public func saturationMatrix() -> [Double] {
        let luma = Self.luma709
        var m = [Double](repeating: 0, count: 9)
        for row in 0..<3 {
            for column in 0..<3 {
                let identity: Double = row == column ? 1 : 0
                m[row * 3 + column] = saturation * identity + (1 - saturation) * luma[column]
            }
        }
        return m
    }

    /// The whole filter as one row-major 3x3 matrix: the desaturation with each output row
    /// multiplied by that channel's whitepoint gain and the brightness (a tinted gray when s = 0).
    public func matrix() -> [Double] {
        var m = saturationMatrix()
        let gains = channelGains
        let rowGains = [gains.red, gains.green, gains.blue]
        for row in 0..<3 {
            for column in 0..<3 { m[row * 3 + column] *= rowGains[row] }
        }
        return m
    }

    /// The filter `fraction` of the way from `self` to `target` (0 is `self`, 1 is `target`), for fades.
    /// Temperature moves in mireds (1e6/K), which is how the eye perceives steps of warmth.
    public func blended(toward target: ColorFilter, fraction: Double) -> ColorFilter {
        let f = min(max(fraction, 0), 1)
        if f == 0 { return self }
        if f == 1 { return target }
        func mix(_ a: Double, _ b: Double) -> Double { a + (b - a) * f }
        let mired = mix(1e6 / temperature, 1e6 / target.temperature)
        return ColorFilter(saturation: mix(saturation, target.saturation),
                           temperature: 1e6 / mired,
                           brightness: mix(brightness, target.brightness))
    }

    /// BT.709 (sRGB) luma weights for red, green and blue.
    public static let luma709: [Double] = [0.2126, 0.7152, 0.0722]

    public var description: String {
        if isIdentity { return "none" }
        var parts: [String] = []
        if saturation < 1 { parts.append(saturation == 0 ? "grayscale" : "saturation \(Self.format(saturation))") }
        if temperature != Self.neutralTemperature { parts.append("\(Int(temperature.rounded())) K") }
        if brightness < 1 { parts.append("brightness \(Self.format(brightness))") }
        return parts.joined(separator: ", ")
    }

    private static func format(_ value: Double) -> String {
        let hundredths = Int((value * 100).rounded())
        return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
    }
}

extension DisplayFilterName {
    /// The colours a mode's filter name stands for.
    public var colorFilter: ColorFilter {
        switch self {
        case .none: return .none
        case .grayscale: return .grayscale
        case .warmGrayscale: return .warmGrayscale()
        }
    }
}
