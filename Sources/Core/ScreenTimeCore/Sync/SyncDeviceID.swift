import FoundationEssentials

/// A computer in a synced folder: a stable id (16 hex digits, made once when it first joins)
/// and the name a person knows it by. The id, not the name, says which files are whose.
public struct SyncDeviceID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public let rawValue: String

    /// Nil unless `text` is 16 lowercase hex digits.
    public init?(_ text: some StringProtocol) {
        guard text.utf8.count == 16, text.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else { return nil }
        rawValue = String(text)
    }

    /// An id from 64 random bits (the caller reads them from the system's random source).
    public init(randomBits: UInt64) {
        let hex = String(randomBits, radix: 16)
        rawValue = String(repeating: "0", count: 16 - hex.count) + hex
    }

    public var description: String { rawValue }
    public static func < (a: SyncDeviceID, b: SyncDeviceID) -> Bool { a.rawValue < b.rawValue }
}

/// Where a device's files live in the synced folder: `NAME-ID`, the name made safe for any file
/// system a sync engine copies to (letters, digits, `.`, `_`; anything else a `_`).
public enum SyncFolderLayout {
    public static let dayExtension = ".day"
    public static let settingsFileName = "settings.changes"

    public static func deviceFolderName(id: SyncDeviceID, name: String) -> String {
        let safe = String(name.prefix(40).map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "_") ? $0 : "_" })
        return (safe.isEmpty ? "computer" : safe) + "-" + id.rawValue
    }

    /// The device a folder's name gives, nil for a folder that is no device's.
    public static func device(ofFolder name: String) -> SyncDeviceID? {
        guard name.utf8.count > 17, !isInTransit(name) else { return nil }
        let suffix = name.suffix(17)
        guard suffix.first == "-" else { return nil }
        return SyncDeviceID(suffix.dropFirst())
    }

    public static func dayFileName(_ day: CivilDate) -> String { day.description + dayExtension }

    /// A file a sync engine or a writer is still making (`.syncthing.*.tmp`, `~syncthing~*.tmp`,
    /// our own `.*.tmp`, Dropbox's and Nextcloud's partial downloads): not read, not a fault.
    public static func isInTransit(_ name: String) -> Bool {
        name.hasPrefix(".") || name.hasPrefix("~") || name.hasSuffix(".tmp") || name.hasSuffix(".part")
            || name.hasSuffix(".partial")
    }

    /// The day a file holds, and whether it is a copy the sync engine made of a conflict
    /// (`2026-12-02.sync-conflict-20261202-101010-ABCDEFG.day`, `2026-12-02 (conflicted copy).day`).
    public static func day(ofFile name: String) -> (day: CivilDate, isConflictCopy: Bool)? {
        guard !isInTransit(name), name.hasSuffix(dayExtension), name.utf8.count >= 14,
              let day = CivilDate(parsing: String(name.prefix(10))) else { return nil }
        return (day, name.utf8.count != 14)
    }

    /// Whether a file is the settings' changes or a conflict copy of it.
    public static func isSettingsFile(_ name: String) -> (Bool, isConflictCopy: Bool) {
        guard !isInTransit(name), name.hasPrefix("settings."), name.hasSuffix(".changes") else { return (false, false) }
        return (true, name != settingsFileName)
    }
}
