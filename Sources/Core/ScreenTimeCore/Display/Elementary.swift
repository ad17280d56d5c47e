import FoundationEssentials

/// Natural logarithm and exponential in plain Swift: the core imports no C module, so libm's
/// `log`/`pow` are out of reach. Accurate to a few ulps, which is far finer than a colour needs.
enum Elementary {
    static let ln2 = 0.693147180559945309417232121458

    static func log(_ x: Double) -> Double {
        precondition(x > 0 && x.isFinite, "log of \(x)")
        // x = m · 2^e with m in [1, 2); ln m = 2·atanh((m − 1)/(m + 1)), a series in s² ≤ 1/9.
        let e = Double(x.exponent)
        let m = x.significand
        let s = (m - 1) / (m + 1)
        let s2 = s * s
        var term = s
        var sum = 0.0
        var k = 1.0
        while abs(term / k) > 1e-18 {
            sum += term / k
            term *= s2
            k += 2
        }
        return e * ln2 + 2 * sum
    }

    static func exp(_ x: Double) -> Double {
        // x = n·ln2 + r with |r| ≤ ln2/2; e^r by its Taylor series, then scaled by 2^n.
        let n = (x / ln2).rounded()
        let r = x - n * ln2
        var term = 1.0
        var sum = 1.0
        var k = 1.0
        while abs(term) > 1e-18 {
            term *= r / k
            sum += term
            k += 1
        }
        return Double(sign: .plus, exponent: Int(n), significand: sum)
    }

    /// `base` to the power `exponent`, for a positive base.
    static func pow(_ base: Double, _ exponent: Double) -> Double {
        exp(exponent * log(base))
    }
}
