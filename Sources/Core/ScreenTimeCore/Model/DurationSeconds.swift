import FoundationEssentials

extension Duration {
    /// The duration in seconds, for arithmetic with dates (a monotonic-clock span as a TimeInterval).
    /// From the attoseconds' two 64-bit halves: `components` divides a 128-bit integer, and
    /// `Double(attoseconds)` converts it bit by bit: 3 and 100 times slower. The loop converts a
    /// span at every turn.
    public var timeInterval: TimeInterval {
        // The magnitude's halves: the low half of a small negative span is near 2^64, where a
        // double has no room left for its digits.
        let magnitude = attoseconds.magnitude
        let high = TimeInterval(UInt64(truncatingIfNeeded: magnitude >> 64))
        let low = TimeInterval(UInt64(truncatingIfNeeded: magnitude))
        let seconds = (high * 0x1p64 + low) / 1e18
        return attoseconds < 0 ? -seconds : seconds
    }
}
