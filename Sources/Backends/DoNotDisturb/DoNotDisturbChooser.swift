import FoundationEssentials
import SessionBus

/// Which do-not-disturb the running notification server offers, from the name it gives in
/// `GetServerInformation`: the first entry whose name matches, else the dummy.
public enum DoNotDisturbChooser {
    static func server(for info: NotificationServerInfo?, connection: BusConnection,
                       environment: [String: String], now: @escaping () -> Date) -> DoNotDisturbServer {
        switch info?.name.lowercased() {
        case "dunst": BooleanDoNotDisturb.dunst(connection: connection)
        case "gnome-shell": GnomeDoNotDisturb(connection: connection, environment: environment, now: now)
        case "plasma": PlasmaDoNotDisturb(connection: connection)
        case "xfce notify daemon", "xfce4-notifyd": XfceDoNotDisturb(connection: connection)
        case "mako": MakoDoNotDisturb(connection: connection, now: now)
        case "swaynotificationcenter", "swaync": BooleanDoNotDisturb.swaync(connection: connection)
        default: NoDoNotDisturb(server: info?.name)
        }
    }

    /// `doctor`'s line: how the server is silenced, and what Social does there.
    public static func finding(for info: NotificationServerInfo?, connection: BusConnection,
                               environment: [String: String]) -> (detail: String, ok: Bool) {
        // Only asked what it offers: the doctor starts nothing that keeps time.
        let server = server(for: info, connection: connection, environment: environment, now: { .distantPast })
        guard !(server is NoDoNotDisturb) else {
            let detail = info.map { "\($0.name) \($0.version) offers no do-not-disturb screentime knows: notifications stay on in every mode" }
            return (detail ?? "no notification server: nothing to silence", false)
        }
        var detail = "\(info.map { "\($0.name) \($0.version)" } ?? server.name), do-not-disturb through \(server.mechanism); "
        detail += server.canPassChosenApps ? "Social lets calls, messages and your chosen apps through"
            : "Social's exceptions cannot pass there: Social leaves notifications on"
        var ok = true
        if server is MakoDoNotDisturb, !MakoDoNotDisturb.configHasMode(environment: environment) {
            detail += "; mako's config has no [mode=do-not-disturb] section, so the mode hides nothing: add one with invisible=1"
            ok = false
        }
        return (detail, ok)
    }

    /// The notification server's answer, waited for (at most 2 s): the client asks without waiting.
    public static func serverInfo(of client: NotificationsClient, on connection: BusConnection) -> NotificationServerInfo? {
        var answered = false
        client.onServerChange = { _ in answered = true }
        _ = try? connection.dispatch(until: { answered }, timeout: .seconds(2))
        return client.serverInfo
    }
}
