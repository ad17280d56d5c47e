import CX11
import Foundation

/// Another X client on the test desktop, playing the parts the filter shares the screen with:
/// a night-light tool that sets its own ramps, and a driver that exposes a `CTM` property.
/// It uses its own connection and raw Xrandr calls, independent of the code under test.
public final class RandRFixture {
    public let display: OpaquePointer
    public let root: Window
    public let output: RROutput
    public let outputName: String
    public let crtc: RRCrtc
    public let ctmAtom: Atom

    public init(displayName: String) throws {
        guard let display = XOpenDisplay(displayName) else { throw Failure("cannot open \(displayName)") }
        self.display = display
        root = XDefaultRootWindow(display)
        guard let resources = XRRGetScreenResourcesCurrent(display, root) else { throw Failure("no screen resources") }
        defer { XRRFreeScreenResources(resources) }
        var found: (RROutput, String, RRCrtc)?
        for index in 0..<Int(resources.pointee.noutput) {
            let id = resources.pointee.outputs[index]
            guard let info = XRRGetOutputInfo(display, resources, id) else { continue }
            defer { XRRFreeOutputInfo(info) }
            if info.pointee.crtc != 0 {
                found = (id, String(cString: info.pointee.name), info.pointee.crtc)
                break
            }
        }
        guard let found else { throw Failure("no output with a CRTC") }
        (output, outputName, crtc) = found
        ctmAtom = XInternAtom(display, "CTM", 0)
    }

    deinit { XCloseDisplay(display) }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    public struct Ramp: Equatable {
        public var red: [UInt16], green: [UInt16], blue: [UInt16]

        public init(red: [UInt16], green: [UInt16], blue: [UInt16]) {
            self.red = red
            self.green = green
            self.blue = blue
        }
    }

    public var gammaSize: Int { Int(XRRGetCrtcGammaSize(display, crtc)) }

    public func gamma() -> Ramp {
        let ramp = XRRGetCrtcGamma(display, crtc)!
        defer { XRRFreeGamma(ramp) }
        let n = Int(ramp.pointee.size)
        return Ramp(red: Array(UnsafeBufferPointer(start: ramp.pointee.red, count: n)),
                    green: Array(UnsafeBufferPointer(start: ramp.pointee.green, count: n)),
                    blue: Array(UnsafeBufferPointer(start: ramp.pointee.blue, count: n)))
    }

    public func setGamma(_ ramp: Ramp) {
        let n = ramp.red.count
        let gamma = XRRAllocGamma(Int32(n))!
        defer { XRRFreeGamma(gamma) }
        for i in 0..<n {
            gamma.pointee.red[i] = ramp.red[i]
            gamma.pointee.green[i] = ramp.green[i]
            gamma.pointee.blue[i] = ramp.blue[i]
        }
        XRRSetCrtcGamma(display, crtc, gamma)
        XSync(display, 0)
    }

    /// The straight ramp an X server starts with.
    public func identityRamp() -> Ramp {
        let n = gammaSize
        let line = (0..<n).map { UInt16(Double($0) * 65535 / Double(n - 1)) }
        return Ramp(red: line, green: line, blue: line)
    }

    /// What a night-light tool leaves: a warm curve with a gamma bend, no channel a straight line.
    public func nightLightRamp() -> Ramp {
        let n = gammaSize
        func curve(_ gain: Double, _ exponent: Double) -> [UInt16] {
            (0..<n).map { UInt16((pow(Double($0) / Double(n - 1), exponent) * gain * 65535).rounded()) }
        }
        return Ramp(red: curve(1.0, 0.9), green: curve(0.83, 1.0), blue: curve(0.61, 1.1))
    }

    // MARK: CTM, as a driver exposes it

    public var hasCTM: Bool {
        var count: Int32 = 0
        guard let atoms = XRRListOutputProperties(display, output, &count) else { return false }
        defer { XFree(atoms) }
        return (0..<Int(count)).contains { atoms[$0] == ctmAtom }
    }

    /// Creates `CTM` like modesetting does: not pending, no range, 18 INTEGER items of format 32,
    /// holding the identity matrix.
    public func createCTM() {
        var noValues: [Int] = []
        XRRConfigureOutputProperty(display, output, ctmAtom, 0, 0, 0, &noValues)
        var identity = [Int](repeating: 0, count: 18)
        for diagonal in [1, 9, 17] { identity[diagonal] = 1 }
        identity.withUnsafeMutableBytes { bytes in
            XRRChangeOutputProperty(display, output, ctmAtom, XA_INTEGER, 32, PropModeReplace,
                                    bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), 18)
        }
        XSync(display, 0)
    }

    public func deleteCTM() {
        if hasCTM { XRRDeleteOutputProperty(display, output, ctmAtom) }
        XSync(display, 0)
    }

    /// The CTM's 18 words as the server holds them.
    public func ctmWords() -> [UInt32] {
        var type: Atom = 0
        var format: Int32 = 0
        var items: UInt = 0
        var after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        XRRGetOutputProperty(display, output, ctmAtom, 0, 18, 0, 0, XA_INTEGER, &type, &format, &items, &after, &data)
        guard let data, format == 32 else { return [] }
        defer { XFree(data) }
        return data.withMemoryRebound(to: Int.self, capacity: Int(items)) { longs in
            (0..<Int(items)).map { UInt32(truncatingIfNeeded: longs[$0]) }
        }
    }
}
