import FoundationEssentials
import Glibc
import PrivateFiles

/// The originals on disk, one small text file per output in
/// `$XDG_RUNTIME_DIR/screentime/display-originals/`, written before the first change so the next
/// start (after a SIGKILL or a crash) or `screentime display restore` can put the screen back.
struct SavedDisplayState {
    let runtimeDirectory: String
    let directory: String

    static let header = "screentime display originals 1"

    /// `runtimeDirectory` is screentime's own (`XDGPaths.runtimeDirectory`, `$XDG_RUNTIME_DIR/screentime`).
    init(runtimeDirectory: String) {
        self.runtimeDirectory = runtimeDirectory
        directory = runtimeDirectory + "/display-originals"
    }

    /// The runtime folder may be the shared `/tmp` fallback: ramps in a folder that is not the
    /// user's alone may be another user's, and are neither read nor written.
    private func checkRuntimeDirectory() throws {
        do { try PrivateFiles.makeOwnFolder(runtimeDirectory) } catch {
            throw DisplayFilterError.savedState(path: runtimeDirectory, reason: "refused: \(error)")
        }
    }

    var isEmpty: Bool { fileNames().isEmpty }

    func save(_ originals: OutputOriginals) throws {
        try checkRuntimeDirectory()
        do {
            try PrivateFiles.makeFolder(directory)
            try PrivateFiles.write(Array(Self.encode(originals).utf8), to: path(for: originals.outputName))
        } catch {
            throw DisplayFilterError.savedState(path: directory, reason: "cannot write: \(error)")
        }
    }

    /// Every saved output, with the file each came from.
    func load() throws -> [(file: String, originals: OutputOriginals)] {
        try checkRuntimeDirectory()
        return try fileNames().map { name in
            let path = directory + "/" + name
            let text: String
            do { text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self) } catch {
                throw DisplayFilterError.savedState(path: path, reason: "cannot read: \(error)")
            }
            return (path, try Self.decode(text, path: path))
        }
    }

    func remove(file path: String) {
        _ = unlink(path)
    }

    func remove(outputName: String) {
        remove(file: path(for: outputName))
    }

    func removeAll() {
        for name in fileNames() { remove(file: directory + "/" + name) }
    }

    private func fileNames() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasPrefix("output-") && !$0.hasPrefix(".") }.sorted()
    }

    /// Output names come from the X server; only a safe subset of characters reaches the file system.
    private func path(for outputName: String) -> String {
        let safe = String(outputName.unicodeScalars.map { scalar -> Character in
            let ok = (scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)))
                || scalar == "-" || scalar == "_" || scalar == "."
            return ok ? Character(scalar) : "_"
        })
        return directory + "/output-" + safe
    }

    // MARK: Text form

    static func encode(_ originals: OutputOriginals) -> String {
        var lines = [header, "output \(originals.outputName)"]
        if let crtc = originals.crtc { lines.append("crtc \(crtc.id)") }
        if let gamma = originals.gamma {
            lines.append("gamma \(gamma.size)")
            lines.append("red " + gamma.red.map(String.init).joined(separator: " "))
            lines.append("green " + gamma.green.map(String.init).joined(separator: " "))
            lines.append("blue " + gamma.blue.map(String.init).joined(separator: " "))
        }
        if let ctm = originals.ctm { lines.append("ctm " + ctm.map(String.init).joined(separator: " ")) }
        return lines.joined(separator: "\n") + "\n"
    }

    static func decode(_ text: String, path: String) throws -> OutputOriginals {
        func fail(_ reason: String) -> DisplayFilterError { .savedState(path: path, reason: reason) }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true)[...]
        guard lines.first == Substring(header) else { throw fail("not a screentime originals file") }
        lines = lines.dropFirst()
        var fields: [String: Substring] = [:]
        for line in lines {
            let key = line.prefix { $0 != " " }
            fields[String(key)] = line.dropFirst(key.count + 1)
        }
        guard let name = fields["output"], !name.isEmpty else { throw fail("no output name") }
        var originals = OutputOriginals(outputName: String(name), crtc: nil, gamma: nil, ctm: nil)
        if let crtc = fields["crtc"] {
            guard let id = UInt(crtc) else { throw fail("bad CRTC \(crtc)") }
            originals.crtc = Crtc(id: id)
        }
        func numbers<T: FixedWidthInteger>(_ key: String, count: Int, as: T.Type) throws -> [T] {
            let values = (fields[key] ?? "").split(separator: " ").compactMap { T($0) }
            guard values.count == count else { throw fail("\(key): expected \(count) numbers, found \(values.count)") }
            return values
        }
        if let sizeText = fields["gamma"] {
            guard let size = Int(sizeText), size > 0, size <= 65536 else { throw fail("bad gamma size \(sizeText)") }
            originals.gamma = GammaRamp(red: try numbers("red", count: size, as: UInt16.self),
                                        green: try numbers("green", count: size, as: UInt16.self),
                                        blue: try numbers("blue", count: size, as: UInt16.self))
        }
        if fields["ctm"] != nil { originals.ctm = try numbers("ctm", count: 18, as: UInt32.self) }
        return originals
    }
}
