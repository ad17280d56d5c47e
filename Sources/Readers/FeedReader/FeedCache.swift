import FoundationEssentials
import PrivateFiles
import ScreenTimeCore

/// The last good copy of each feed (`$XDG_CACHE_HOME/screentime/feeds/`, one file per URL), for
/// when a feed cannot be fetched: offline, a server that hangs, a damaged answer. The file's
/// modification time is when it was fetched.
public struct FeedCache: Sendable {
    public var directory: String

    public init(directory: String) { self.directory = directory }

    /// The copy of `url`'s feed and when it was fetched, if there is one.
    public func load(_ url: String) -> (body: [UInt8], fetched: Date)? {
        let path = path(for: url)
        guard let data = FileManager.default.contents(atPath: path),
              let fetched = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date else { return nil }
        return ([UInt8](data), fetched)
    }

    /// Keeps `body` as `url`'s last good copy, fetched at `fetched`; a cache that cannot be written
    /// costs only the offline copy.
    public func store(_ body: [UInt8], for url: String, fetched: Date) {
        let path = path(for: url)
        do {
            try PrivateFiles.makeFolder(directory)
            try PrivateFiles.write(body, to: path)
            try FileManager.default.setAttributes([.modificationDate: fetched], ofItemAtPath: path)
        } catch {
            return
        }
    }

    /// A file named by the URL's FNV-1a hash: stable from run to run, unlike Swift's `Hasher`.
    func path(for url: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in url.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return directory + "/" + String(repeating: "0", count: 16 - hex.count) + hex + ".xml"
    }
}
