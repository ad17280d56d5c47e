import SessionBus

extension DesktopProbe {
    /// logind on the system bus, as the agent looks for it: whether suspends and locks are seen.
    static func probeLogind(environment: [String: String]) -> [Finding] {
        let address = environment["DBUS_SYSTEM_BUS_ADDRESS"] ?? LogindWatch.defaultSystemBus
        let connection: BusConnection
        do { connection = try BusConnection(address: address) } catch {
            return [Finding(topic: "logind", detail: "no system bus (\(error)): suspends are noticed from the clock, "
                            + "locks only from a screen saver service", ok: false)]
        }
        defer { connection.close() }
        let present = (try? connection.nameHasOwner(LogindWatch.busName, timeout: .seconds(1))) ?? false
        guard present else {
            return [Finding(topic: "logind", detail: "not on the system bus: suspends are noticed from the clock, "
                            + "locks only from a screen saver service", ok: false)]
        }
        guard let session = environment["XDG_SESSION_ID"], !session.isEmpty else {
            return [Finding(topic: "logind", detail: "suspends only (no XDG_SESSION_ID: locks only from a screen saver service)", ok: false)]
        }
        return [Finding(topic: "logind", detail: "suspends, and locks of session \(session)", ok: true)]
    }
}
