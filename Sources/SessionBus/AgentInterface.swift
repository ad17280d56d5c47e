import FoundationEssentials

/// The agent's own D-Bus interface, `org.screentime.Agent1` on `/org/screentime/Agent`, owned by
/// the running agent as `org.screentime.Agent` (one agent per session: a second one finds the name
/// taken and refuses to start). The CLI uses it for every command that changes state, and status
/// bars can follow `StatusChanged`. Documented for users in docs/DBUS.md.
///
/// - `Status() -> s`: the status as JSON (the same document as `screentime status --json`).
/// - `SetLimit(s app, t seconds)`, `RemoveLimit(s app)`, `SetDefaultLimit(t seconds)`.
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
/// - signal `StatusChanged()`: the status changed; call `Status()` for it (nothing is encoded
///   while nobody listens).
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
    }

    public enum Signal {
        public static let statusChanged = "StatusChanged"
    }


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

    /// The `<interface>` element given to `BusConnection.export(path:interface:introspection:handler:)`.
    public static let introspectionXML = """
      <interface name="org.screentime.Agent1">
        <method name="Status">
          <arg name="json" type="s" direction="out"/>
        </method>
        <method name="SetLimit">
          <arg name="app" type="s" direction="in"/>
          <arg name="seconds" type="t" direction="in"/>
        </method>
        <method name="RemoveLimit">
          <arg name="app" type="s" direction="in"/>
        </method>
        <method name="SetDefaultLimit">
          <arg name="seconds" type="t" direction="in"/>
        </method>
        <method name="ListLimits">
          <arg name="json" type="s" direction="out"/>
        </method>
        <method name="SetExemption">
          <arg name="kind" type="s" direction="in"/>
          <arg name="app" type="s" direction="in"/>
          <arg name="on" type="b" direction="in"/>
        </method>
        <method name="ListExemptions">
          <arg name="kind" type="s" direction="in"/>
          <arg name="apps" type="as" direction="out"/>
        </method>
        <method name="Continue">
          <arg name="app" type="s" direction="in"/>
          <arg name="granted" type="d" direction="out"/>
        </method>
        <method name="SetMode">
          <arg name="mode" type="s" direction="in"/>
        </method>
        <method name="BookCheatDay">
          <arg name="start" type="x" direction="in"/>
          <arg name="id" type="s" direction="out"/>
        </method>
        <method name="CancelCheatDay">
          <arg name="id" type="s" direction="in"/>
        </method>
        <method name="ListCheatDays">
          <arg name="json" type="s" direction="out"/>
        </method>
        <method name="Bedtime"/>
        <method name="StayUp"/>
        <method name="StartDay"/>
        <method name="Break"/>
        <method name="CardChosen">
          <arg name="card" type="s" direction="in"/>
          <arg name="choice" type="s" direction="in"/>
        </method>
        <signal name="StatusChanged"/>
      </interface>
    """
}
