import FoundationEssentials

// Times and durations computed from outside numbers (a config, a stored row, the clock) can be
// absurd; converting or ordering them must still never trap.

extension TimeInterval {
    /// The farthest from 1970 (either way) that whole-second conversions keep: about 31,700 years,
    /// far beyond any real date, far inside `Int` even after calendar arithmetic.
    static let representableSeconds: TimeInterval = 1e12

    /// Whole seconds (rounded as `rule` says), saturated at ±`representableSeconds`; NaN is 0.
    func saturatedSeconds(_ rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Int {
        guard !isNaN else { return 0 }
        let bound = TimeInterval.representableSeconds
        return Int(Swift.min(Swift.max(rounded(rule), -bound), bound))
    }
}

extension TimeInterval {
    /// A wait as `poll(2)` takes it: milliseconds rounded up, from 0 to `Int32.max` (about 24.8 days;
    /// the loop wakes then and asks again). A deadline a month away, as after the clock stepped
    /// back, must not trap the conversion.
    public var pollMilliseconds: Int32 {
        guard !isNaN else { return 0 }
        return Int32(Swift.min(Swift.max((self * 1000).rounded(.up), 0), Double(Int32.max)))
    }
}

extension Range {
    /// `lower..<upper`, or the empty range at `lower` when `upper` comes first: a span built from
    /// computed ends never traps.
    init(from lower: Bound, upTo upper: Bound) {
        self = lower..<Swift.max(lower, upper)
    }
}
