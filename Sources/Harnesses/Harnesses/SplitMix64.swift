/// A small seeded generator (Steele, Lea and Flood's SplitMix64): the same seed gives the same
/// sequence on every machine, so a random run that fails is replayed from the seed it printed.
public struct SplitMix64: RandomNumberGenerator {
    public let seed: UInt64
    private var state: UInt64

    public init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Seeds for a run: `SCREENTIME_SEEDS=1,2,3` replays given ones, else `count` fixed ones
    /// (fixed so CI is reproducible; the variety is in how many steps each covers).
    public static func seeds(count: Int, environment: [String: String]) -> [UInt64] {
        if let given = environment["SCREENTIME_SEEDS"] {
            return given.split(separator: ",").compactMap { UInt64($0) }
        }
        return (0..<UInt64(count)).map { 0x5EED_0000 + $0 }
    }
}
