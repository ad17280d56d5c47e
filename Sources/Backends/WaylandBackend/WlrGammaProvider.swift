import FoundationEssentials
import ScreenTimeCore

/// The warm tint on wlroots compositors through `zwlr_gamma_control_manager_v1`. A gamma control
/// is exclusive and the compositor puts the original ramps back when it is destroyed, so controls
/// are held only while a filter is on. Ramps map each channel alone: grayscale is shown as
/// dimming (`ColorFilter.gammaRampStandIn`), as with the X11 gamma method.
public final class WlrGammaProvider: WaylandClient, ScreenFilterProvider {
    public let providerName = "wlr gamma control"
    public let abilities = ScreenFilterAbilities(grayscale: false, warmth: true)
    /// The filter on screen now (mid-fade: the blend shown at the last step).
    public private(set) var shown: ColorFilter = .none
    /// The filter being faded to, or on screen when no fade runs.
    public private(set) var target: ColorFilter = .none
    /// Outputs whose gamma the compositor refused since the filter went on, said plainly.
    public var refusals: [String] { outputs.filter(\.refused).map(Self.refusal) }
    /// Told of each refusal as it arrives (from `handleReadable`), for the log.
    public var onRefusal: ((String) -> Void)?
    /// Outputs showing the filter now (their control answered with a ramp size).
    public var outputsFiltered: Int { outputs.filter { $0.rampSize != nil }.count }

    private let manager: GammaControlManagerProxy
    private var outputs: [Output] = []
    private var fade: ColorFilterFade?

    private final class Output {
        let registryName: UInt32
        let output: OpaquePointer
        var control: GammaControlProxy?
        var rampSize: Int?
        var refused = false

        init(registryName: UInt32, output: OpaquePointer) {
            self.registryName = registryName
            self.output = output
        }
    }

    /// Connects to the compositor `environment` names and binds its outputs; nothing changes on
    /// screen until `set`.
    public init(environment: [String: String]) throws {
        let (display, registry) = try RegistryProxy.connect(environment: environment)
        manager = try registry.require(DesktopSelection.gammaGlobal, registry.bindGammaControlManager)
        super.init(display: display, registry: registry)
        registry.all("wl_output").forEach(addOutput)
        registry.onAdd = { [unowned self] global in
            guard global.interface == "wl_output" else { return }
            addOutput(global)
            if !target.isIdentity || fade != nil { acquire() }
        }
        registry.onRemove = { [unowned self] name in
            // Its control dies with it; destroyed first so no event reaches the freed output.
            outputs.filter { $0.registryName == name }.forEach { $0.control?.destroy() }
            outputs.removeAll { $0.registryName == name }
        }
        try display.flush()
    }

    // MARK: ScreenFilterProvider

    public func set(_ filter: ColorFilter, now: Date) throws -> Date? {
        target = filter
        if filter == shown {
            fade = nil
            if filter.isIdentity { try release() }
            return nil
        }
        acquire()
        fade = ColorFilterFade(from: shown, to: filter, start: now)
        return try step(now: now)
    }

    public func step(now: Date) throws -> Date? {
        guard let fade else { return nil }
        let frame = fade.frame(at: now)
        shown = frame.filter
        if frame.next == nil {
            self.fade = nil
            if fade.to.isIdentity {
                try release()
                return nil
            }
        }
        for output in outputs { try show(shown, on: output) }
        try display.flush()
        return frame.next
    }

    public func restore() {
        fade = nil
        target = .none
        try? release()
    }

    // MARK: DesktopConnection

    override public func close() {
        restore()
        super.close()
    }

    // MARK: Outputs

    private func addOutput(_ global: RegistryProxy.Global) {
        guard let output = registry.bindOutput(global) else { return }
        outputs.append(Output(registryName: global.name, output: output))
    }

    /// Takes every output's gamma that is not held yet; each answers with its ramp size (then
    /// the filter shown now goes on it) or `failed`.
    private func acquire() {
        for output in outputs where output.control == nil && !output.refused {
            guard let control = manager.control(output: output.output) else { continue }
            output.control = control
            control.onGammaSize = { [unowned self, unowned output] size in
                output.rampSize = size
                try? show(shown, on: output)
            }
            control.onFailed = { [unowned self, unowned output] in
                output.control?.destroy()
                output.control = nil
                output.rampSize = nil
                output.refused = true
                onRefusal?(Self.refusal(output))
            }
        }
    }

    /// Gives every output back: the compositor restores its ramps.
    private func release() throws {
        for output in outputs {
            output.control?.destroy()
            output.control = nil
            output.rampSize = nil
            output.refused = false
        }
        shown = .none
        if display.isConnected { try display.flush() }
    }

    private func show(_ filter: ColorFilter, on output: Output) throws {
        guard let control = output.control, let size = output.rampSize, size > 1 else { return }
        try control.setGamma(Self.ramps(size: size, filter: filter))
    }

    private static func refusal(_ output: Output) -> String {
        "output \(output.registryName): the compositor refused its gamma (another program such as gammastep holds it, or the output has none)"
    }

    /// The red, green and blue ramps, one after the other, for `filter` from a linear ramp.
    static func ramps(size: Int, filter: ColorFilter) -> [UInt16] {
        let gains = filter.gammaRampStandIn.channelGains
        return [gains.red, gains.green, gains.blue].flatMap { gain in
            (0..<size).map { index in
                UInt16(min(max(Double(index) / Double(size - 1) * gain * 65535, 0), 65535).rounded())
            }
        }
    }
}
