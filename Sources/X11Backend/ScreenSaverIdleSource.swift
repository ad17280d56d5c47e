import FoundationEssentials
import ScreenTimeCore

/// Idle time and screen-saver state from the MIT-SCREEN-SAVER extension (XScreenSaverQueryInfo).
public final class ScreenSaverIdleSource: IdleSource {
    public let backendName = "XScreenSaver"
    private let connection: X11Connection

    /// Throws `X11Error.extensionMissing` when the server lacks MIT-SCREEN-SAVER.
    public init(connection: X11Connection) throws {
        guard try connection.display.hasScreenSaverExtension() else {
            throw X11Error.extensionMissing("MIT-SCREEN-SAVER")
        }
        self.connection = connection
    }

    public func idleSeconds() throws -> TimeInterval {
        TimeInterval(try connection.display.screenSaverInfo().idleMilliseconds) / 1000
    }

    /// The server's own screen saver is on. (Lock screens that are windows show up as focused
    /// shell windows instead.)
    public func screenSaverActive() throws -> Bool {
        try connection.display.screenSaverInfo().isOn
    }
}
