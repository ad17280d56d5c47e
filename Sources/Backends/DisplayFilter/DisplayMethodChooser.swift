import FoundationEssentials

/// Picks, per output, the first method in order of preference that can drive it.
enum DisplayMethodChooser {
    static let preference: [any DisplayFilterMethod.Type] = [
        RandRCTMMethod.self,
        // NVIDIA DigitalVibrance slot: a method through libXNVCtrl (vibrance −1024 is gray) would
        // go here, for the proprietary driver, which exposes neither CTM nor a desaturating ramp.
        GammaRampMethod.self,
        DummyDisplayMethod.self,
    ]

    static func method(for info: OutputInfo, randr: RandRConnection) -> any DisplayFilterMethod {
        let type = preference.first { $0.probe(info) } ?? DummyDisplayMethod.self
        return type.init(info: info, randr: randr)
    }

    /// The method to try when `failed` could not start on this output (a matrix the driver lists
    /// but will not read, a ramp it will not give): the next one in order that can drive it,
    /// down to the dummy; nil after the dummy.
    static func fallback(after failed: any DisplayFilterMethod.Type, for info: OutputInfo) -> (any DisplayFilterMethod.Type)? {
        guard let index = preference.firstIndex(where: { $0 == failed }) else { return DummyDisplayMethod.self }
        return preference[(index + 1)...].first { $0.probe(info) }
    }

    /// Starts `method`, or when its start fails, the next method that can drive its output (as
    /// the desktop's providers fall back when theirs fails): the output is filtered the best way
    /// that works. Returns the method that started.
    static func start(_ method: any DisplayFilterMethod) throws -> any DisplayFilterMethod {
        var current = method
        while true {
            do {
                try current.start()
                return current
            } catch {
                guard let next = fallback(after: type(of: current), for: current.info) else { throw error }
                current = next.init(info: current.info, randr: current.randr)
            }
        }
    }
}
