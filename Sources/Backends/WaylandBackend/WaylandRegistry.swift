/// What the compositor offers, for the agent's probe (`SessionFacts.waylandGlobals`).
public enum WaylandRegistry {
    /// The interface names of the compositor's globals: connects, waits for the list once and
    /// disconnects. Empty when no compositor answers.
    public static func globals(environment: [String: String]) -> Set<String> {
        guard let display = try? WaylandDisplay(environment: environment) else { return [] }
        defer { display.disconnect() }
        guard let registry = try? RegistryProxy(display: display) else { return [] }
        return Set(registry.globals.map(\.interface))
    }
}
