import FoundationEssentials

/// The RGB gains that make white look like a black body at a given temperature.
///
/// Tanner Helland's curve fit of Mitchell Charity's blackbody table
/// (https://tannerhelland.com/2012/09/18/convert-temperature-rgb-algorithm-code.html),
/// rescaled like redshift's table so that exactly 6500 K is (1, 1, 1).
public enum Whitepoint {
    public static func of(kelvin: Double) -> (red: Double, green: Double, blue: Double) {
        let k = min(max(kelvin, ColorFilter.temperatureRange.lowerBound), ColorFilter.temperatureRange.upperBound)
        let raw = helland(k)
        let neutral = helland(ColorFilter.neutralTemperature)
        return (min(raw.red / neutral.red, 1), min(raw.green / neutral.green, 1), min(raw.blue / neutral.blue, 1))
    }

    /// Helland's fit, in 0...255 per channel.
    static func helland(_ kelvin: Double) -> (red: Double, green: Double, blue: Double) {
        let t = kelvin / 100
        let red = t <= 66 ? 255 : 329.698727446 * Elementary.pow(t - 60, -0.1332047592)
        let green = t <= 66
            ? 99.4708025861 * Elementary.log(t) - 161.1195681661
            : 288.1221695283 * Elementary.pow(t - 60, -0.0755148492)
        let blue: Double
        if t >= 66 { blue = 255 } else if t <= 19 { blue = 0 } else { blue = 138.5177312231 * Elementary.log(t - 10) - 305.0447927307 }
        func clamp(_ v: Double) -> Double { min(max(v, 0), 255) }
        return (clamp(red), clamp(green), clamp(blue))
    }
}
