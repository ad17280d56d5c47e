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
        try context.agent { try $0.continueUsing(app) }
        let grant = try context.settings().continueGrant
        context.print("\(app): \(DurationText.spoken(grant)) more today. Enjoy, and take care.")
    }
}
