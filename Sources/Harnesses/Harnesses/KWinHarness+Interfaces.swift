import Foundation

extension KWinHarness {
    /// Lets the program `executable` bind KWin's privileged Wayland globals `interfaces`, as a
    /// user's installed desktop entry does (`X-KDE-Wayland-Interfaces`, matched on `Exec` against
    /// /proc/PID/exe), then rebuilds KWin's service cache. KWin decides at each new connection.
    public func grantWaylandInterfaces(_ interfaces: [String], to executable: String, id: String) throws {
        let applications = URL(fileURLWithPath: environment["XDG_DATA_HOME"]!).appendingPathComponent("applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try """
            [Desktop Entry]
            Type=Application
            Name=\(id)
            Exec=\(executable)
            NoDisplay=true
            X-KDE-Wayland-Interfaces=\(interfaces.joined(separator: ","))

            """.write(to: applications.appendingPathComponent("\(id).desktop"), atomically: true, encoding: .utf8)
        let sycoca = Process()
        sycoca.executableURL = URL(fileURLWithPath: try DesktopHarness.which("kbuildsycoca5"))
        sycoca.environment = environment
        sycoca.standardOutput = FileHandle.nullDevice
        sycoca.standardError = FileHandle.nullDevice
        try sycoca.run()
        sycoca.waitUntilExit()
        guard sycoca.terminationStatus == 0 else {
            throw DesktopHarness.Failure.didNotStart("kbuildsycoca5", "exit status \(sycoca.terminationStatus)")
        }
    }

    /// Copies the built `screentime` and `screentime-agent` (and `wayland-info`, to see when KWin
    /// has read the grant) into a folder of their own and grants `interfaces` to that agent, as
    /// install.sh's desktop entry does; the copy keeps the grant from other tests' agents. Run
    /// the agent from there with `SCREENTIME_BIN_DIR`.
    public func grantedAgentBinaries(_ interfaces: [String]) throws -> URL {
        let folder = root.appendingPathComponent("granted-bin")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let built = AgentProcess.binary.deletingLastPathComponent()
        for name in ["screentime", "screentime-reader", "screentime-agent"] {
            try FileManager.default.copyItem(at: built.appendingPathComponent(name), to: folder.appendingPathComponent(name))
        }
        let info = folder.appendingPathComponent("wayland-info")
        try FileManager.default.copyItem(atPath: try DesktopHarness.which("wayland-info"), toPath: info.path)
        try grantWaylandInterfaces(interfaces, to: info.path, id: "screentime-tests-info")
        try grantWaylandInterfaces(interfaces, to: folder.appendingPathComponent("screentime-agent").path, id: "screentime-tests-agent")
        let granted = eventually {
            let text = self.output(of: info)
            return interfaces.allSatisfy { text.contains($0) }
        }
        guard granted else { throw DesktopHarness.Failure.didNotStart("granting \(interfaces)", "KWin did not read the desktop entries") }
        return folder
    }

    private func output(of program: URL) -> String {
        let process = Process()
        process.executableURL = program
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "" }
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }
}
