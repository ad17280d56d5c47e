import FoundationEssentials

extension Duration {
    /// The duration in seconds, for arithmetic with dates (a monotonic-clock span as a TimeInterval).
    public var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
