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
}
