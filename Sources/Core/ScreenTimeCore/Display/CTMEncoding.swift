import FoundationEssentials

/// The wire form of the RandR `CTM` output property (DRM's `struct drm_color_ctm`): nine S31.32
/// sign-magnitude fixed-point numbers, row-major, each split into two 32-bit words with the low
/// (fraction) word first, so 18 words in all.
public enum CTMEncoding {
    public static let wordCount = 18
    private static let signBit: UInt64 = 1 << 63
    private static let scale: Double = 4_294_967_296 // 2^32

    public enum DecodingError: Error, Equatable {
        case wrongWordCount(Int)
    }

    /// Encodes a row-major 3x3 matrix. Magnitudes beyond S31.32 are clamped.
    public static func encode(_ matrix: [Double]) -> [UInt32] {
        precondition(matrix.count == 9, "a CTM is a 3x3 matrix")
        var words: [UInt32] = []
        words.reserveCapacity(wordCount)
        for value in matrix {
            let bits = fixedPoint(value)
            words.append(UInt32(truncatingIfNeeded: bits))
            words.append(UInt32(truncatingIfNeeded: bits >> 32))
        }
        return words
    }

    public static func decode(_ words: [UInt32]) throws -> [Double] {
        guard words.count == wordCount else { throw DecodingError.wrongWordCount(words.count) }
        return (0..<9).map { index in
            let bits = UInt64(words[2 * index]) | (UInt64(words[2 * index + 1]) << 32)
            let magnitude = Double(bits & ~signBit) / scale
            return bits & signBit != 0 ? -magnitude : magnitude
        }
    }

    /// The identity matrix, as drivers expose it before anyone sets it.
    public static var identity: [UInt32] { encode([1, 0, 0, 0, 1, 0, 0, 0, 1]) }

    static func fixedPoint(_ value: Double) -> UInt64 {
        let limit = Double(UInt64(1) << 62) // comfortably inside the 63 magnitude bits
        let magnitude = UInt64(min((abs(value) * scale).rounded(), limit))
        return value < 0 && magnitude != 0 ? magnitude | signBit : magnitude
    }
}
