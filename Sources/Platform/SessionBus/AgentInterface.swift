import FoundationEssentials

/// The agent's own D-Bus interface, `org.screentime.Agent1` on `/org/screentime/Agent`, owned by
/// the running agent as `org.screentime.Agent` (one agent per session: a second one finds the name
/// taken and refuses to start). The CLI uses it for every command that changes state, and status
/// bars can follow `StatusChanged`. Documented for users in docs/DBUS.md.
///
/// - `Status() -> s`: the status as JSON (the same document as `screentime status --json`).
/// - `SetLimit(s app, t seconds)`, `RemoveLimit(s app)`, `SetDefaultLimit(t seconds)`, each `-> as`:
///   what the change left waiting (one line each; none when it holds at once). So is `SetExemption`.
/// - `ListLimits() -> s`: the limits as JSON.
/// - `SetExemption(s kind, s app, b on)`, `ListExemptions(s kind) -> as`: `kind` is `important` or `essential`.
/// - `Continue(s app) → d granted`: the user's "continue" for an app disabled at its limit or by
///   the mode; answers the seconds granted.
/// - `SetMode(s mode)`: a manual switch to a mode (`productivity`, `wind-down`, ...), or `auto`
///   to return to the schedule.
/// - `BookCheatDay(x start) -> s id`: a Cheat Day from `start` (Unix seconds), at least 12 h ahead;
///   `CancelCheatDay(s id)`; `ListCheatDays() -> s`: the bookings as JSON.
/// - `Bedtime()`, `StayUp()`, `StartDay()`, `Break()`: the widget's buttons.
/// - `CardChosen(s card, s choice)`: a card's answer (`CardChoice`), from `screentime-card`.
/// - `BrowserHello(u browser, s name)`, `BrowserTab(u browser, b focused, s site, b audible, b private)`,
///   `BrowserChoice(u browser, s site, s choice) -> d granted`, `BrowserGone(u browser)`: from the
///   browser extension's native host (`browser` is the browser's pid); `Browsers() -> s` lists them.
/// - signals `SiteRestricted(u browser, s site, s card)`, `SiteAllowed(u browser, s site)`: to the host.
/// - `Pause(t seconds) -> (x start, x end)`: a pause without restrictions, from when the loosening
///   rule lets it start; `EndPause()` ends it (and drops one to come).
/// - `LeaveMode(s mode, b confirmed) -> (s outcome, d granted, s words)`: `SetMode` as the terminal
///   asks it: leaving a restrictive mode early is a continue, asked first (`ModeExit`).
/// - signal `StatusChanged()`: the status changed; call `Status()` for it (nothing is encoded
///   while nobody listens). After one, the next waits until someone has called `Status()`.
///
/// Errors come back as `org.screentime.Agent1.Error.*` names (see `AgentInterface.Error`).
public enum AgentInterface {
    public static let busName = "org.screentime.Agent"
    public static let objectPath = "/org/screentime/Agent"
    public static let interface = "org.screentime.Agent1"

    public enum Method {
        public static let status = "Status"
        public static let setLimit = "SetLimit"
        public static let removeLimit = "RemoveLimit"
        public static let setDefaultLimit = "SetDefaultLimit"
        public static let listLimits = "ListLimits"
        public static let setExemption = "SetExemption"
        public static let listExemptions = "ListExemptions"
        public static let `continue` = "Continue"
        public static let setMode = "SetMode"
        public static let bookCheatDay = "BookCheatDay"
        public static let cancelCheatDay = "CancelCheatDay"
        public static let listCheatDays = "ListCheatDays"
        public static let bedtime = "Bedtime"
        public static let stayUp = "StayUp"
        public static let startDay = "StartDay"
        public static let `break` = "Break"
        public static let cardChosen = "CardChosen"
        public static let browserHello = "BrowserHello"
        public static let browserTab = "BrowserTab"
        public static let browserChoice = "BrowserChoice"
        public static let browserGone = "BrowserGone"
        public static let browsers = "Browsers"
        public static let pause = "Pause"
        public static let endPause = "EndPause"
        public static let leaveMode = "LeaveMode"
    }

    public enum Signal {
        public static let statusChanged = "StatusChanged"
        /// `(u browser, s site, s card)`: restrict `site` in the tabs of the browser process
        /// `browser`, showing `card` (JSON, `SiteCard`) over the page.
        public static let siteRestricted = "SiteRestricted"
        /// `(u browser, s site)`: the site was continued; its card goes.
        public static let siteAllowed = "SiteAllowed"
    }

    /// Every signal with its arguments, for the introspection XML.
    public static let signals: [(name: String, arguments: [(name: String, type: String)])] = [
        (Signal.statusChanged, []),
        (Signal.siteRestricted, [("browser", "u"), ("site", "s"), ("card", "s")]),
        (Signal.siteAllowed, [("browser", "u"), ("site", "s")]),
    ]


    /// Error names the agent replies with.
    public enum Error {
        /// An argument was malformed (unknown exemption kind, empty app id).
        public static let invalidArgument = "org.screentime.Agent1.Error.InvalidArgument"
        /// The app named is not known or has nothing to continue.
        public static let unknownApp = "org.screentime.Agent1.Error.UnknownApp"
        /// The request is valid but not allowed now (e.g. continue during Sleep, a Cheat Day
        /// less than 12 hours ahead).
        public static let notAllowed = "org.screentime.Agent1.Error.NotAllowed"
        /// No such thing to act on (e.g. an unknown Cheat Day id).
        public static let notFound = "org.screentime.Agent1.Error.NotFound"
    }

    /// A method's arguments, in order, as (name, D-Bus type).
    public struct MethodArguments: Sendable {
        public var inputs: [(name: String, type: String)]
        public var outputs: [(name: String, type: String)]

        /// The signature a call must have: a call with any other is refused.
        public var inputSignature: String { inputs.map(\.type).joined() }
    }

    /// Every method with its arguments: the agent checks each call against it, and the
    /// introspection XML is made from it.
    public static let methods: [(name: String, arguments: MethodArguments)] = [
        (Method.status, MethodArguments(inputs: [], outputs: [("json", "s")])),
        (Method.setLimit, MethodArguments(inputs: [("app", "s"), ("seconds", "t")], outputs: [("waiting", "as")])),
        (Method.removeLimit, MethodArguments(inputs: [("app", "s")], outputs: [("waiting", "as")])),
        (Method.setDefaultLimit, MethodArguments(inputs: [("seconds", "t")], outputs: [("waiting", "as")])),
        (Method.listLimits, MethodArguments(inputs: [], outputs: [("json", "s")])),
        (Method.setExemption, MethodArguments(inputs: [("kind", "s"), ("app", "s"), ("on", "b")], outputs: [("waiting", "as")])),
        (Method.listExemptions, MethodArguments(inputs: [("kind", "s")], outputs: [("apps", "as")])),
        (Method.continue, MethodArguments(inputs: [("app", "s")], outputs: [("granted", "d")])),
        (Method.setMode, MethodArguments(inputs: [("mode", "s")], outputs: [])),
        (Method.bookCheatDay, MethodArguments(inputs: [("start", "x")], outputs: [("id", "s")])),
        (Method.cancelCheatDay, MethodArguments(inputs: [("id", "s")], outputs: [])),
        (Method.listCheatDays, MethodArguments(inputs: [], outputs: [("json", "s")])),
        (Method.bedtime, MethodArguments(inputs: [], outputs: [])),
        (Method.stayUp, MethodArguments(inputs: [], outputs: [])),
        (Method.startDay, MethodArguments(inputs: [], outputs: [])),
        (Method.break, MethodArguments(inputs: [], outputs: [])),
        (Method.cardChosen, MethodArguments(inputs: [("card", "s"), ("choice", "s")], outputs: [])),
        (Method.browserHello, MethodArguments(inputs: [("browser", "u"), ("name", "s")], outputs: [])),
        (Method.browserTab, MethodArguments(inputs: [("browser", "u"), ("focused", "b"), ("site", "s"), ("audible", "b"),
                                                     ("private", "b")], outputs: [])),
        (Method.browserChoice, MethodArguments(inputs: [("browser", "u"), ("site", "s"), ("choice", "s")], outputs: [("granted", "d")])),
        (Method.browserGone, MethodArguments(inputs: [("browser", "u")], outputs: [])),
        (Method.browsers, MethodArguments(inputs: [], outputs: [("json", "s")])),
        (Method.pause, MethodArguments(inputs: [("seconds", "t")], outputs: [("start", "x"), ("end", "x")])),
        (Method.endPause, MethodArguments(inputs: [], outputs: [])),
        (Method.leaveMode, MethodArguments(inputs: [("mode", "s"), ("confirmed", "b")],
                                           outputs: [("outcome", "s"), ("granted", "d"), ("words", "s")])),
    ]

    /// The arguments of `method`; nil when the interface has no such method.
    public static func arguments(of method: String) -> MethodArguments? {
        methods.first { $0.name == method }?.arguments
    }

    /// The `<interface>` element given to `BusConnection.export(path:interface:introspection:handler:)`.
    public static let introspectionXML: String = {
        let members = methods.map { name, arguments in
            let args = arguments.inputs.map { "      <arg name=\"\($0.name)\" type=\"\($0.type)\" direction=\"in\"/>\n" }
                + arguments.outputs.map { "      <arg name=\"\($0.name)\" type=\"\($0.type)\" direction=\"out\"/>\n" }
            return args.isEmpty ? "    <method name=\"\(name)\"/>\n" : "    <method name=\"\(name)\">\n" + args.joined() + "    </method>\n"
        }
        let signalElements = signals.map { name, arguments in
            arguments.isEmpty ? "    <signal name=\"\(name)\"/>\n"
                : "    <signal name=\"\(name)\">\n" + arguments.map { "      <arg name=\"\($0.name)\" type=\"\($0.type)\"/>\n" }.joined() + "    </signal>\n"
        }
        return "  <interface name=\"\(interface)\">\n" + members.joined() + signalElements.joined() + "  </interface>"
    }()
}
