import FoundationEssentials
import ScreenTimeCore

/// One way of changing one output's colours, with an explicit lifecycle like redshift's gamma
/// methods: probe, start (read the originals, change nothing), apply, restore.
protocol DisplayFilterMethod: AnyObject {
    /// Shown by `screentime doctor`: "randr-ctm", "randr-gamma", "dummy".
    static var methodName: String { get }
    /// Whether the method can drive this output.
    static func probe(_ info: OutputInfo) -> Bool

    init(info: OutputInfo, randr: RandRConnection)

    var info: OutputInfo { get }
    var randr: RandRConnection { get }
    /// What the output showed before any filter; nil until started.
    var originals: OutputOriginals? { get set }

    /// Reads the output's current ramps and matrix into `originals`, changing nothing, so the
    /// controller can persist them before the first change.
    @discardableResult func start() throws -> OutputOriginals
    /// Shows the filter, composed over the originals.
    func apply(_ filter: ColorFilter) throws
    /// What this method cannot show of `filter` on this output, in words for the user.
    func limitations(for filter: ColorFilter) -> [String]
}

extension DisplayFilterMethod {
    /// Puts the originals back exactly. Does nothing when not started.
    func restore() throws {
        guard let originals else { return }
        try originals.restore(on: randr, output: info.output, crtc: info.crtc)
    }

    func report(for filter: ColorFilter) -> DisplayOutputReport {
        DisplayOutputReport(name: info.name, gammaSize: info.gammaSize, hasCTM: info.hasCTM,
                            method: Self.methodName, limitations: limitations(for: filter))
    }

    /// The originals, or an error naming the output when `start()` was skipped.
    func requireOriginals() throws -> OutputOriginals {
        guard let originals else { throw DisplayFilterError.notStarted(output: info.name) }
        return originals
    }
}
