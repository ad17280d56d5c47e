import AgentControl
import ScreenTimeCore

extension DesktopProbe {
    /// Where the restriction card can be shown (the way `screentime-card` covers the screen
    /// there), or why not, and that notifications stand in then.
    static func probeCard(environment: [String: String]) -> Finding {
        if let reason = CardProcess.unavailability(executable: SiblingExecutable.path(named: "screentime-card"), environment: environment) {
            return Finding(topic: "card", detail: "\(reason): notifications stand in", ok: false)
        }
        let facts = SessionFacts(environment: environment)
        guard facts.hasWaylandDisplay else { return Finding(topic: "card", detail: "X11: a full-screen window kept above", ok: true) }
        let layerShell = ProviderFactory.waylandGlobals(environment: environment).contains("zwlr_layer_shell_v1")
        return Finding(topic: "card", detail: layerShell ? "Wayland: the overlay layer (layer shell)" : "Wayland: a full-screen window", ok: true)
    }
}
