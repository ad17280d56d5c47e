import FoundationEssentials
import ScreenTimeCore
import SessionBus

/// The warm tint on KDE through KWin's own Night Light: kwinrc's `[NightColor]` set to a constant
/// temperature, then KConfig's change notification, which KWin follows (fading by itself). KWin
/// has no grayscale before Plasma 6.6. The user's own Night Light settings are saved in the
/// runtime folder before the first change and put back by `restore()` (or by the next agent,
/// after a crash).
public final class KWinNightLight: ScreenFilterProvider, DesktopConnection {
    static let group = "NightColor"
    static let keys = ["Active", "Mode", "NightTemperature"]

    public let providerName = "KWin Night Light"
    public let abilities = ScreenFilterAbilities(grayscale: false, warmth: true,
                                                 limitation: "grayscale unavailable before Plasma 6.6; warm tint only")

    private let bus: BusConnection
    private let kwinrc: String
    private let savedPath: String
    /// The user's `[NightColor]` keys before the first change (absent keys absent); nil while unchanged.
    private var original: [String: String]?

    /// `configDirectory`: where kwinrc lives (`XDG_CONFIG_HOME`, else ~/.config).
    public init(bus: BusConnection, configDirectory: String, runtimeDirectory: String) throws {
        self.bus = bus
        kwinrc = configDirectory + "/kwinrc"
        savedPath = runtimeDirectory + "/screentime-kwin-night-color"
        try KWinShims.checkRuntimeFolder(runtimeDirectory)
        if let saved = try? String(contentsOf: URL(filePath: savedPath), encoding: .utf8) {
            // Left by an agent that did not restore (killed, crashed): those are the user's
            // settings, put back now rather than at this agent's first change.
            original = try Self.nightColor(in: Self.parse(saved, path: savedPath))
            restore()
        }
    }

    public func set(_ filter: ColorFilter, now: Date) throws -> Date? {
        guard filter.temperature < ColorFilter.neutralTemperature else {
            restore()
            return nil
        }
        var document = try read()
        if original == nil {
            let user = Self.nightColor(in: document)
            var saved = KeyFile()
            for key in Self.keys { if let value = user[key] { saved.set(key, to: value, in: Self.group) } }
            try KWinShims.writeAtomically(saved.text, to: savedPath)
            original = user
        }
        let kelvin = Int(min(max(filter.temperature, 1000), ColorFilter.neutralTemperature).rounded())
        document.set("Active", to: "true", in: Self.group)
        document.set("Mode", to: "Constant", in: Self.group)
        document.set("NightTemperature", to: String(kelvin), in: Self.group)
        try KWinShims.writeAtomically(document.text, to: kwinrc)
        try notifyKWin()
        return nil
    }

    /// KWin fades by itself.
    public func step(now: Date) throws -> Date? { nil }

    public func restore() {
        guard let original else { return }
        do {
            var document = try read()
            for key in Self.keys {
                if let value = original[key] {
                    document.set(key, to: value, in: Self.group)
                } else {
                    _ = document.remove(key, in: Self.group)
                }
            }
            try KWinShims.writeAtomically(document.text, to: kwinrc)
            try notifyKWin()
            self.original = nil
            _ = try? FileManager.default.removeItem(atPath: savedPath)
        } catch {
            // Kept: the next agent restores from the saved copy.
        }
    }

    /// KConfig's `ConfigChanged(a{saay})` on `/kwinrc`: the group and the keys that changed.
    private func notifyKWin() throws {
        let keys = Self.keys.map { BusValue.array(elementSignature: "y", Array($0.utf8).map(BusValue.byte)) }
        try bus.emitSignal(path: "/kwinrc", interface: "org.kde.kconfig.notify", member: "ConfigChanged",
                           arguments: [.dict(valueSignature: "aay", [Self.group: .array(elementSignature: "ay", keys)])])
        bus.flush()
    }

    private func read() throws -> KeyFile {
        guard FileManager.default.fileExists(atPath: kwinrc) else { return KeyFile() }
        do {
            return try Self.parse(String(contentsOf: URL(filePath: kwinrc), encoding: .utf8), path: kwinrc)
        } catch let error as KWinError {
            throw error
        } catch {
            throw KWinError.file(path: kwinrc, reason: "cannot be read: \(error)")
        }
    }

    private static func parse(_ text: String, path: String) throws -> KeyFile {
        do {
            return try KeyFile(parsing: text)
        } catch {
            throw KWinError.file(path: path, reason: "cannot be parsed: \(error)")
        }
    }

    private static func nightColor(in document: KeyFile) -> [String: String] {
        var values: [String: String] = [:]
        for key in keys { values[key] = document.value(key, in: group) }
        return values
    }

    // MARK: DesktopConnection: nothing to read; the settings are files and one signal.

    public var pollDescriptor: Int32 { -1 }
    public var wantsToWrite: Bool { false }
    public var hasBufferedInput: Bool { false }
    public func handleReadable() throws {}
    public func nextDeadline(after now: Date) -> Date? { nil }
    public func handleDeadline(now: Date) throws {}
    /// Nothing to close; the settings go back through `restore()`, which the agent calls on exit
    /// (and `doctor`'s dry start, having changed nothing, does not).
    public func close() {}
}
