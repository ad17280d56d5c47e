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
}
