import FoundationEssentials

extension Engine {
    /// The other joined devices' use today, as the synced folder last told it: their time counts
    /// toward this device's limits and countdowns from now on (a limit they spent disables the app
    /// here at once). The agent reads the folder; the engine only adds.
    public mutating func useElsewhere(_ usage: UsageElsewhere, at now: Date) -> [EngineAction] {
        guard usage != elsewhere else { return [] }
        elsewhere = usage
        return handle(.tick, at: now) + [.statusChanged]
    }
}
