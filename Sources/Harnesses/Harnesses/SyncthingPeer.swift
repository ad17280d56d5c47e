import Foundation

/// A real Syncthing (Debian's `syncthing`) sharing one folder with its peers, configured before it
/// starts so that nothing leaves the machine: no global or local discovery, no relays, no NAT
/// traversal (nor STUN), no usage or crash reports, no upgrades; it listens on 127.0.0.1, knows
/// each peer at `tcp://127.0.0.1:PORT`, and its GUI/REST answers on 127.0.0.1 only.
public final class SyncthingPeer {
    public let home: URL
    public let folder: URL
    public let deviceID: String
    public let listenPort: Int
    public let guiPort: Int
    public let apiKey = UUID().uuidString.replacingOccurrences(of: "-", with: "")
    private var process: Process?
    public var logPath: URL { home.appendingPathComponent("syncthing.log") }

    /// Keys made (`syncthing generate`), nothing started yet.
    public init(home: URL, folder: URL) throws {
        self.home = home
        self.folder = folder
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(".stfolder"), withIntermediateDirectories: true)
        let text = try HarnessProcesses.process("syncthing", ["generate", "--home=\(home.path)", "--no-default-folder", "--skip-port-probing"],
                                                environment: nil).checkedOutput("syncthing generate", includingErrors: true)
        // `Device ID: XXXXXXX-…`, after a log prefix or none.
        guard let line = text.split(separator: "\n").first(where: { $0.contains("Device ID: ") }),
              let id = line.components(separatedBy: "Device ID: ").last?.trimmingCharacters(in: .whitespaces) else {
            throw DesktopHarness.Failure.didNotStart("syncthing generate", text)
        }
        deviceID = id
        listenPort = try Self.freePort()
        guiPort = try Self.freePort()
    }

    /// The whole config.xml, written over the generated one: this device, its `peers`, the folder.
    public func configure(peers: [SyncthingPeer], folderID: String = "screentime") throws {
        func device(_ peer: SyncthingPeer) -> String {
            """
                <device id="\(peer.deviceID)" name="\(peer.home.lastPathComponent)" compression="metadata" introducer="false">
                    <address>tcp://127.0.0.1:\(peer.listenPort)</address>
                    <autoAcceptFolders>false</autoAcceptFolders>
                </device>
            """
        }
        let everyone = [self] + peers
        let config = """
            <configuration version="36">
                <folder id="\(folderID)" label="screentime" path="\(folder.path)" type="sendreceive" rescanIntervalS="60" fsWatcherEnabled="true" fsWatcherDelayS="1" ignorePerms="false" autoNormalize="true">
            \(everyone.map { "        <device id=\"\($0.deviceID)\"></device>" }.joined(separator: "\n"))
                    <minDiskFree unit="%">0</minDiskFree>
                    <markerName>.stfolder</markerName>
                </folder>
            \(everyone.map(device).joined(separator: "\n"))
                <gui enabled="true" tls="false">
                    <address>127.0.0.1:\(guiPort)</address>
                    <apikey>\(apiKey)</apikey>
                </gui>
                <options>
                    <listenAddress>tcp://127.0.0.1:\(listenPort)</listenAddress>
                    <globalAnnounceServer></globalAnnounceServer>
                    <globalAnnounceEnabled>false</globalAnnounceEnabled>
                    <localAnnounceEnabled>false</localAnnounceEnabled>
                    <relaysEnabled>false</relaysEnabled>
                    <natEnabled>false</natEnabled>
                    <stunKeepaliveStartS>0</stunKeepaliveStartS>
                    <stunKeepaliveMinS>0</stunKeepaliveMinS>
                    <stunServer></stunServer>
                    <announceLANAddresses>false</announceLANAddresses>
                    <urAccepted>-1</urAccepted>
                    <urURL>http://127.0.0.1:1/</urURL>
                    <crashReportingEnabled>false</crashReportingEnabled>
                    <crashReportingURL>http://127.0.0.1:1/</crashReportingURL>
                    <autoUpgradeIntervalH>0</autoUpgradeIntervalH>
                    <releasesURL>http://127.0.0.1:1/</releasesURL>
                    <startBrowser>false</startBrowser>
                    <reconnectionIntervalS>1</reconnectionIntervalS>
                    <minHomeDiskFree unit="%">0</minHomeDiskFree>
                </options>
            </configuration>

            """
        try config.write(to: home.appendingPathComponent("config.xml"), atomically: true, encoding: .utf8)
    }

    public func start() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try DesktopHarness.which("syncthing"))
        process.arguments = ["serve", "--home=\(home.path)", "--no-browser", "--no-restart", "--no-upgrade"]
        var environment = ProcessInfo.processInfo.environment
        environment["STNOUPGRADE"] = "1"
        environment["STNODEFAULTFOLDER"] = "1"
        environment["STNORESTART"] = "1"
        environment["HOME"] = home.path
        process.environment = environment
        FileManager.default.createFile(atPath: logPath.path, contents: nil)
        let log = try FileHandle(forWritingTo: logPath)
        process.standardOutput = log
        process.standardError = log
        try process.run()
        self.process = process
    }

    /// Pauses or resumes syncing with every peer, through the REST API (on 127.0.0.1).
    public func setPaused(_ paused: Bool) throws {
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: try DesktopHarness.which("curl"))
        curl.arguments = ["-sf", "-X", "POST", "-H", "X-API-Key: \(apiKey)", "http://127.0.0.1:\(guiPort)/rest/system/\(paused ? "pause" : "resume")"]
        try curl.run()
        curl.waitUntilExit()
    }

    public var log: String { (try? String(contentsOf: logPath, encoding: .utf8)) ?? "" }

    public func stop() {
        guard let process, process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit { stop() }

    /// A TCP port on 127.0.0.1 nothing listens on now.
    static func freePort() throws -> Int {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socketFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socketFD, $0, length) == 0 && getsockname(socketFD, $0, &length) == 0 }
        }
        guard bound else { throw DesktopHarness.Failure.didNotStart("a free port", "bind failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
