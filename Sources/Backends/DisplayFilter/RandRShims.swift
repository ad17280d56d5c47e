import CX11
import FoundationEssentials
import Glibc
import ScreenTimeCore
import X11ErrorTraps

// The only file that calls Xlib/Xrandr. C handles become the small typed values below; requests
// that the server may refuse run inside `trapErrors` (`XErrorTraps`, shared with the X11 backend),
// so a refused request is a typed error, and a lost server a closed connection, instead of Xlib's
// default handlers ending the process.

/// A RandR output (a connector: HDMI-1, eDP-1, Xvfb's "screen").
struct Output: Hashable, CustomStringConvertible {
    let id: RROutput
    var description: String { "output 0x\(String(id, radix: 16))" }
}

/// A RandR CRTC: the scanout engine that owns the gamma ramp.
struct Crtc: Hashable, CustomStringConvertible {
    let id: RRCrtc
    var description: String { "CRTC 0x\(String(id, radix: 16))" }
}

/// What the server says about one output now.
struct OutputInfo: Equatable {
    let output: Output
    let name: String
    /// nil when the output is off (no CRTC drives it).
    let crtc: Crtc?
    let connected: Bool
    /// Entries per channel of the CRTC's ramp; 0 without a CRTC.
    let gammaSize: Int
    let hasCTM: Bool
}

/// A CRTC's gamma ramp: one 16-bit lookup table per channel, all of the same size.
struct GammaRamp: Equatable {
    var red: [UInt16]
    var green: [UInt16]
    var blue: [UInt16]

    var size: Int { red.count }

    /// The ramp X servers start with: a straight line from 0 to 65535.
    static func identity(size: Int) -> GammaRamp {
        let line = (0..<size).map { i in UInt16((Double(i) * 65535 / Double(max(size - 1, 1))).rounded()) }
        return GammaRamp(red: line, green: line, blue: line)
    }

    /// This ramp with each channel multiplied by its gain: the filter composed over the user's own
    /// ramp (redshift, gammastep), never replacing it.
    func scaled(red r: Double, green g: Double, blue b: Double) -> GammaRamp {
        func scale(_ channel: [UInt16], _ gain: Double) -> [UInt16] {
            if gain == 1 { return channel }
            return channel.map { UInt16(min(max((Double($0) * gain).rounded(), 0), 65535)) }
        }
        return GammaRamp(red: scale(red, r), green: scale(green, g), blue: scale(blue, b))
    }
}

/// One X connection's RandR side. Owns the connection only when it opened it.
final class RandRConnection {
    let display: OpaquePointer
    let root: Window
    let eventBase: Int32
    private let ownsDisplay: Bool
    private var ctmAtom: Atom = 0

    /// Opens a connection of its own (`nil` name: `$DISPLAY`).
    convenience init(displayName: String?) throws {
        XErrorTraps.installHandlers()
        let opened: OpaquePointer? = displayName.map { XOpenDisplay($0) } ?? XOpenDisplay(nil)
        guard let display = opened else {
            throw DisplayFilterError.cannotOpenDisplay(displayName ?? (getenv("DISPLAY").map { String(cString: $0) } ?? "(DISPLAY unset)"))
        }
        XErrorTraps.opened(display)
        do { try self.init(display: display, owns: true) } catch {
            XErrorTraps.closed(display)
            XCloseDisplay(display)
            throw error
        }
    }

    /// Uses a connection owned elsewhere (the agent's X connection).
    init(display: OpaquePointer, owns: Bool) throws {
        var eventBase: Int32 = 0
        var errorBase: Int32 = 0
        guard XRRQueryExtension(display, &eventBase, &errorBase) != 0 else { throw DisplayFilterError.randrMissing }
        var major: Int32 = 0
        var minor: Int32 = 0
        guard XRRQueryVersion(display, &major, &minor) != 0, major > 1 || (major == 1 && minor >= 2) else {
            throw DisplayFilterError.randrTooOld(major: Int(major), minor: Int(minor))
        }
        self.display = display
        self.root = XDefaultRootWindow(display)
        self.eventBase = eventBase
        self.ownsDisplay = owns
        self.ctmAtom = XInternAtom(display, "CTM", 0)
    }

    func close() {
        guard ownsDisplay else { return }
        XErrorTraps.closed(display)
        XCloseDisplay(display)
    }

    var connectionDescriptor: Int32 { XConnectionNumber(display) }

    // MARK: Outputs

    func outputs() throws -> [OutputInfo] {
        guard let resources = XRRGetScreenResourcesCurrent(display, root) else {
            throw DisplayFilterError.requestFailed("XRRGetScreenResourcesCurrent", detail: "no reply")
        }
        defer { XRRFreeScreenResources(resources) }
        var result: [OutputInfo] = []
        for index in 0..<Int(resources.pointee.noutput) {
            let id = resources.pointee.outputs[index]
            guard let info = XRRGetOutputInfo(display, resources, id) else { continue }
            defer { XRRFreeOutputInfo(info) }
            let name = String(decoding: UnsafeRawBufferPointer(start: info.pointee.name, count: Int(info.pointee.nameLen))
                                .bindMemory(to: UInt8.self), as: UTF8.self)
            let crtc = info.pointee.crtc == 0 ? nil : Crtc(id: info.pointee.crtc)
            let output = Output(id: id)
            result.append(OutputInfo(output: output, name: name, crtc: crtc,
                                     connected: info.pointee.connection == UInt16(RR_Connected),
                                     gammaSize: crtc.map(gammaSize) ?? 0,
                                     hasCTM: hasProperty(ctmAtom, on: output)))
        }
        return result
    }

    /// 0 for a CRTC the server does not have (gone with its monitor since the outputs were read).
    func gammaSize(_ crtc: Crtc) -> Int {
        var size: Int32 = 0
        do { try trapErrors("XRRGetCrtcGammaSize on \(crtc)") { size = XRRGetCrtcGammaSize(display, crtc.id) } } catch { return 0 }
        return Int(size)
    }

    // MARK: Gamma

    func gamma(of crtc: Crtc) throws -> GammaRamp {
        var read: UnsafeMutablePointer<XRRCrtcGamma>?
        try trapErrors("XRRGetCrtcGamma on \(crtc)") { read = XRRGetCrtcGamma(display, crtc.id) }
        guard let ramp = read, ramp.pointee.size > 0 else {
            read.map { XRRFreeGamma($0) }
            throw DisplayFilterError.requestFailed("XRRGetCrtcGamma", detail: "\(crtc) has no gamma ramp")
        }
        defer { XRRFreeGamma(ramp) }
        let size = Int(ramp.pointee.size)
        return GammaRamp(red: Array(UnsafeBufferPointer(start: ramp.pointee.red, count: size)),
                         green: Array(UnsafeBufferPointer(start: ramp.pointee.green, count: size)),
                         blue: Array(UnsafeBufferPointer(start: ramp.pointee.blue, count: size)))
    }

    func setGamma(_ ramp: GammaRamp, on crtc: Crtc) throws {
        let size = gammaSize(crtc)
        guard ramp.size == size, ramp.green.count == size, ramp.blue.count == size else {
            throw DisplayFilterError.gammaSizeMismatch(crtc: crtc.description, expected: size, got: ramp.size)
        }
        guard let gamma = XRRAllocGamma(Int32(size)) else {
            throw DisplayFilterError.requestFailed("XRRAllocGamma", detail: "size \(size)")
        }
        defer { XRRFreeGamma(gamma) }
        for i in 0..<size {
            gamma.pointee.red[i] = ramp.red[i]
            gamma.pointee.green[i] = ramp.green[i]
            gamma.pointee.blue[i] = ramp.blue[i]
        }
        try trapErrors("XRRSetCrtcGamma on \(crtc)") { XRRSetCrtcGamma(display, crtc.id, gamma) }
    }

    // MARK: CTM

    /// The output's CTM as its 18 raw 32-bit words, or nil when the output has none.
    func ctm(of output: Output) throws -> [UInt32]? {
        guard hasProperty(ctmAtom, on: output) else { return nil }
        var actualType: Atom = 0
        var actualFormat: Int32 = 0
        var itemCount: UInt = 0
        var bytesAfter: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        var status: Int32 = 0
        try trapErrors("XRRGetOutputProperty CTM on \(output)") {
            status = XRRGetOutputProperty(display, output.id, ctmAtom, 0, CTMEncoding.wordCount, 0, 0,
                                          XA_INTEGER, &actualType, &actualFormat, &itemCount, &bytesAfter, &data)
        }
        defer { if let data { XFree(data) } }
        guard status == Success, let data, actualFormat == 32, Int(itemCount) == CTMEncoding.wordCount else {
            throw DisplayFilterError.malformedCTM(output: output.description, format: Int(actualFormat), items: Int(itemCount))
        }
        // Xlib hands format-32 data back as C longs, one per item.
        return data.withMemoryRebound(to: Int.self, capacity: CTMEncoding.wordCount) { longs in
            (0..<CTMEncoding.wordCount).map { UInt32(truncatingIfNeeded: longs[$0]) }
        }
    }

    func setCTM(_ words: [UInt32], on output: Output) throws {
        precondition(words.count == CTMEncoding.wordCount)
        var longs = words.map { Int(Int32(bitPattern: $0)) }
        try trapErrors("XRRChangeOutputProperty CTM on \(output)") {
            longs.withUnsafeMutableBytes { bytes in
                XRRChangeOutputProperty(display, output.id, ctmAtom, XA_INTEGER, 32, PropModeReplace,
                                        bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(words.count))
            }
        }
    }

    /// Whether the output has the property; asking for a missing one would raise BadName.
    private func hasProperty(_ atom: Atom, on output: Output) -> Bool {
        var count: Int32 = 0
        guard let atoms = XRRListOutputProperties(display, output.id, &count) else { return false }
        defer { XFree(atoms) }
        return (0..<Int(count)).contains { atoms[$0] == atom }
    }

    // MARK: Events

    /// Asks for screen, CRTC and output changes on the root window (hot-plug, mode changes).
    func selectChangeEvents() {
        XRRSelectInput(display, root, Int32(RRScreenChangeNotifyMask | RRCrtcChangeNotifyMask | RROutputChangeNotifyMask))
        XFlush(display)
    }

    /// Whether the event is a RandR change; updates Xlib's cached configuration when it is.
    func isChangeEvent(_ event: UnsafeMutablePointer<XEvent>) -> Bool {
        let type = event.pointee.type
        guard type == eventBase + RRScreenChangeNotify || type == eventBase + RRNotify else { return false }
        XRRUpdateConfiguration(event)
        return true
    }

    /// Reads every queued event without blocking and counts the RandR changes among them
    /// (only meaningful on a connection this object owns: other events are dropped).
    func drainChangeEvents() -> Int {
        var changes = 0
        var event = XEvent()
        while XPending(display) > 0 {
            XNextEvent(display, &event)
            if isChangeEvent(&event) { changes += 1 }
        }
        return changes
    }

    func flush() { XFlush(display) }

    // MARK: Errors

    /// Runs requests with an error handler that records instead of exiting, then syncs so any
    /// error for them has arrived. Single-threaded use only (the agent's one loop).
    private func trapErrors(_ what: String, _ body: () -> Void) throws {
        guard !XErrorTraps.isLost(display) else { throw DisplayFilterError.connectionClosed }
        let (_, error) = XErrorTraps.trapping(display, sync: true, body)
        guard !XErrorTraps.isLost(display) else { throw DisplayFilterError.connectionClosed }
        if let error { throw DisplayFilterError.xError(what, code: error.code, request: error.request, minor: error.minor) }
    }
}
