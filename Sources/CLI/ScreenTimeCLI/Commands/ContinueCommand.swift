import ScreenTimeCore

struct ContinueCommand: Subcommand {
    static let name = "continue"
    static let abstract = "Continue using an app past its limit (as the notification's Continue does)"
    static let usage = ["continue APP"]

    let app: AppID

    init(_ arguments: Arguments) throws {
        app = AppID(try arguments.next("APP"))
        try arguments.finish()
    }

    func run(_ context: Context) throws {
        let app = try context.app(app)
        // The agent's answer, not the setting: a mode's bypass grants its own length.
        let granted = try context.agent { try $0.continueUsing(app) }
        context.print("\(app): \(DurationText.spoken(granted)) more today. Enjoy, and take care.")
    }
}
