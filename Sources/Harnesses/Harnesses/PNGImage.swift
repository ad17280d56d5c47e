import CPNG
import Foundation

/// A PNG file read as 8-bit RGBA pixels (libpng's simplified API): the screenshots GNOME Shell
/// writes, for checks on the screen's colours. The only file calling libpng.
public struct PNGImage: Equatable {
    public let width: Int
    public let height: Int
    /// RGBA, row after row.
    public let pixels: [UInt8]

    public struct ReadError: Error, CustomStringConvertible {
        public let description: String
    }

    public init(contentsOf path: String) throws {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        guard png_image_begin_read_from_file(&image, path) != 0 else {
            throw ReadError(description: "cannot read PNG \(path): \(Self.message(image))")
        }
        image.format = screentime_png_format_rgba
        width = Int(image.width)
        height = Int(image.height)
        var buffer = [UInt8](repeating: 0, count: width * height * 4)
        let finished = buffer.withUnsafeMutableBytes { bytes in
            png_image_finish_read(&image, nil, bytes.baseAddress, 0, nil)
        }
        guard finished != 0 else {
            png_image_free(&image)
            throw ReadError(description: "cannot decode PNG \(path): \(Self.message(image))")
        }
        pixels = buffer
    }

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 4, "RGBA pixels for \(width)x\(height)")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Writes the image as an RGBA PNG (golden screenshots).
    public func write(to path: String) throws {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        image.width = UInt32(width)
        image.height = UInt32(height)
        image.format = screentime_png_format_rgba
        let written = pixels.withUnsafeBytes { png_image_write_to_file(&image, path, 0, $0.baseAddress, 0, nil) }
        guard written != 0 else { throw ReadError(description: "cannot write PNG \(path): \(Self.message(image))") }
    }

    /// How many pixels differ from `other`'s (same size) by more than `threshold` in a channel
    /// (antialiasing and hinting move a few levels; a missing bar or button moves thousands of pixels).
    public func differingPixels(from other: PNGImage, threshold: Int = 64) -> Int {
        guard width == other.width, height == other.height else { return width * height }
        var count = 0
        for index in stride(from: 0, to: pixels.count, by: 4) {
            for channel in 0..<3 where abs(Int(pixels[index + channel]) - Int(other.pixels[index + channel])) > threshold {
                count += 1
                break
            }
        }
        return count
    }

    /// The pixel at (`x`, `y`): red, green, blue.
    public func color(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let index = (y * width + x) * 4
        return (pixels[index], pixels[index + 1], pixels[index + 2])
    }

    private static func message(_ image: png_image) -> String {
        withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// The largest max(r,g,b) - min(r,g,b) over the rows `rows`: 0 on a gray screen.
    public func maximumChroma(rows: Range<Int>) -> Int {
        var most = 0
        for row in rows.clamped(to: 0..<height) {
            var index = row * width * 4
            for _ in 0..<width {
                let r = pixels[index], g = pixels[index + 1], b = pixels[index + 2]
                most = max(most, Int(max(r, g, b)) - Int(min(r, g, b)))
                index += 4
            }
        }
        return most
    }

    /// The mean of each of red, green and blue over the rows `rows`.
    public func meanChannels(rows: Range<Int>) -> (red: Double, green: Double, blue: Double) {
        let clamped = rows.clamped(to: 0..<height)
        var sums = [0, 0, 0]
        for index in stride(from: clamped.lowerBound * width * 4, to: clamped.upperBound * width * 4, by: 4) {
            for channel in 0..<3 { sums[channel] += Int(pixels[index + channel]) }
        }
        let count = Double(max(clamped.count * width, 1))
        return (Double(sums[0]) / count, Double(sums[1]) / count, Double(sums[2]) / count)
    }

    /// The pixels of the rows `rows`, to compare two screenshots there.
    public func rows(_ rows: Range<Int>) -> ArraySlice<UInt8> {
        let clamped = rows.clamped(to: 0..<height)
        return pixels[clamped.lowerBound * width * 4..<clamped.upperBound * width * 4]
    }
}
