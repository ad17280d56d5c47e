import ScreenTimeCLI
import CardContent
import FoundationEssentials
import LocalSystem
import ScreenTimeCore

/// `screentime rundown`: the morning run-down (the Wake Up card) in the terminal.
struct RundownCommand: DescribedCommand {
    typealias Description = RundownDescription

    let json: Bool

    init(_ arguments: Arguments) throws {
        json = arguments.flag("json")
        try arguments.finish()
    }

    func run(_ context: Context) throws {
        // The card reads a broken config as the defaults; the command names the broken line instead.
        _ = try context.settings()
        let request = CardRequest(occasion: .rundown, mode: .wakeUp, at: context.now)
        let document = CardComposer.document(for: request, environment: context.environment, zone: context.zone)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            context.printVerbatim(String(decoding: try encoder.encode(document), as: UTF8.self))
        } else {
            context.print(CardText.render(document))
        }
    }
}
