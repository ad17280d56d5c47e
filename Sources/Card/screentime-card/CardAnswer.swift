import FoundationEssentials
import SessionBus

/// The card's answer to the agent: `CardChosen(card, choice)` on the session bus, waited for
/// briefly (the agent's loop answers at once; a card is gone soon after either way).
enum CardAnswer {
    static func send(card: String, choice: String) throws {
        let bus = try BusConnection()
        defer { bus.close() }
        _ = try bus.call(destination: AgentInterface.busName, path: AgentInterface.objectPath, interface: AgentInterface.interface,
                         method: AgentInterface.Method.cardChosen, arguments: [.string(card), .string(choice)],
                         timeout: .seconds(2))
    }
}
