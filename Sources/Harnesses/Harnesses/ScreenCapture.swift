import CX11
import Foundation

extension TestWindowClient {
    public struct CaptureError: Error, CustomStringConvertible {
        public let description: String
    }

    /// What the X server shows in the root window (XGetImage), as RGBA pixels: screenshots of
    /// the harness's Xvfb (24-bit depth, 32 bits a pixel, no compositor).
    public func screenshot() throws -> PNGImage {
        var attributes = XWindowAttributes()
        XGetWindowAttributes(display, root, &attributes)
        return try screenshot(x: 0, y: 0, width: Int(attributes.width), height: Int(attributes.height))
    }

    /// A part of the screen: quick to take where a test polls it for a latency.
    public func screenshot(x: Int, y: Int, width: Int, height: Int) throws -> PNGImage {
        guard let image = XGetImage(display, root, Int32(x), Int32(y), UInt32(width), UInt32(height), ~0, ZPixmap) else {
            throw CaptureError(description: "XGetImage of the root window failed")
        }
        defer { _ = image.pointee.f.destroy_image?(image) }
        let picture = image.pointee
        guard picture.bits_per_pixel == 32, let data = picture.data else {
            throw CaptureError(description: "a \(picture.bits_per_pixel)-bit screen; screenshots read 32-bit pixels")
        }
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        data.withMemoryRebound(to: UInt8.self, capacity: Int(picture.bytes_per_line) * height) { bytes in
            for y in 0..<height {
                for x in 0..<width {
                    // Little-endian 0x00RRGGBB: blue first.
                    let source = y * Int(picture.bytes_per_line) + x * 4, target = (y * width + x) * 4
                    pixels[target] = bytes[source + 2]
                    pixels[target + 1] = bytes[source + 1]
                    pixels[target + 2] = bytes[source]
                }
            }
        }
        return PNGImage(width: width, height: height, pixels: pixels)
    }

    /// The managed top-level windows whose WM_CLASS instance is `instance`.
    public func windows(withInstance instance: String) -> [TestWindow] {
        clientList().map(TestWindow.init).filter { text($0, "WM_CLASS")?.hasPrefix(instance + "\u{0}") == true }
    }
}
