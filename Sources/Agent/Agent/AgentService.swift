import AgentControl
import FoundationEssentials
import ScreenTimeCore
import SessionBus
import UsageStore

/// The methods of `org.screentime.Agent1` (docs/DBUS.md). Limits and exemptions are written to
/// the config file, comments kept, under the commitment rule (a loosening waits, and the reply
/// says until when); the mode state goes to the store, then the mode is decided again.
struct AgentService {
    let runner: AgentRunner

    func call(_ member: String, _ arguments: [BusValue]) throws -> [BusValue] {
        guard let expected = AgentInterface.arguments(of: member) else {
            throw BusMethodError(name: BusMethodError.unknownMethod, message: "no method \(StoredName.shown(member))")
        }
        // Extra arguments or other types are refused, never read past: each one was meant for something.
        guard arguments.signature == expected.inputSignature else {
            throw BusMethodError(name: BusMethodError.invalidArgs,
                                 message: "\(member) takes (\(expected.inputSignature)), not (\(arguments.signature))")
        }
        switch member {
        case AgentInterface.Method.status:
            runner.bus?.statusRead()
            return [.string(StatusFormat.json(runner.status(at: runner.now)))]
        case AgentInterface.Method.setLimit:
            let (app, seconds) = (try appArgument(arguments, 0), try limitArgument(arguments, 1))
            return try edit { $0.setLimit(app, seconds) }
        case AgentInterface.Method.removeLimit:
            let app = try appArgument(arguments, 0)
            return try edit { $0.removeLimit(app) }
        case AgentInterface.Method.setDefaultLimit:
            let seconds = try limitArgument(arguments, 0)
            return try edit { $0.setDefaultLimit(seconds) }
        case AgentInterface.Method.listLimits:
            let settings = runner.engine.settings
            var limits = Dictionary(uniqueKeysWithValues: settings.limits.map { ($0.key.rawValue, $0.value) })
            limits["default"] = settings.defaultLimit
            for (group, limit) in settings.groupLimits { limits[group.rawValue] = limit }
            let json = try JSONEncoder().encode(limits)
            return [.string(String(decoding: json, as: UTF8.self))]
        case AgentInterface.Method.setExemption:
            let kind = try kindArgument(arguments, 0)
            let app = try appArgument(arguments, 1)
            guard case .bool(let on)? = arguments.dropFirst(2).first else { throw invalid("the third argument must be a boolean") }
            return try edit { $0.setExemption(kind, app, on) }
        case AgentInterface.Method.listExemptions:
            let kind = try kindArgument(arguments, 0)
            let settings = runner.engine.settings
            return [.strings((kind == .important ? settings.important : settings.essential).sorted().map(\.rawValue))]
        case AgentInterface.Method.continue:
            // Any app held back can be continued, stored or not: its id came from its window.
            guard let text = arguments.first?.stringValue, !text.isEmpty else { throw invalid("argument 1 must be an app id") }
            let app = AppID(text)
            guard runner.engine.canContinue(app, at: runner.now) else {
                throw BusMethodError(name: AgentInterface.Error.unknownApp,
                                     message: "\(app) is not held back in a way Continue passes: it has time left today, and this mode allows it or offers no way through")
            }
            let granted = runner.send(.continueRequested(app)).lazy.compactMap { action -> TimeInterval? in
                if case .recordBypass(_, _, _, let granted, _) = action { granted } else { nil }
            }.first
            return [.double(granted ?? 0)]
        case AgentInterface.Method.setMode:
            guard let name = arguments.first?.stringValue else { throw invalid("the mode must be a string") }
            // Leaving a restrictive mode early over the bus is the same continue, recorded (`ModeExit`).
            try changeModes { _ = try $0.switchMode(name, decision: runner.engine.decision, settings: runner.engine.settings,
                                                    how: "bus", confirmed: true, now: $1) }
        case AgentInterface.Method.leaveMode:
            guard let name = arguments.first?.stringValue, case .bool(let confirmed)? = arguments.dropFirst().first else {
                throw invalid("a mode (string) and whether it is confirmed (boolean)")
            }
            var result = ModeSwitchResult(outcome: "")
            try changeModes { result = try $0.switchMode(name, decision: runner.engine.decision, settings: runner.engine.settings,
                                                         how: "terminal", confirmed: confirmed, now: $1) }
            return [.string(result.outcome), .double(result.granted), .string(result.words)]
        case AgentInterface.Method.bookCheatDay:
            let start = try startArgument(arguments, 0)
            var booking: CheatDayBooking?
            try changeModes { booking = try $0.bookCheatDay(start: start, settings: runner.engine.settings.modes, now: $1) }
            runner.cheatDaysChangedHere = true
            return [.string(booking?.id ?? "")]
        case AgentInterface.Method.cancelCheatDay:
            guard let id = arguments.first?.stringValue else { throw invalid("the id must be a string") }
            try changeModes { try $0.cancelCheatDay(id: id, now: $1) }
            runner.cheatDaysChangedHere = true
        case AgentInterface.Method.listCheatDays:
            let listing = try modeState { try $0.upcomingCheatDays(now: runner.now) }
            return [.string(String(decoding: try JSONEncoder().encode(listing), as: UTF8.self))]
        case AgentInterface.Method.bedtime:
            try changeModes { try $0.record(.bedtime, now: $1) }
        case AgentInterface.Method.stayUp:
            try changeModes { try $0.record(.stayUp, now: $1) }
        case AgentInterface.Method.startDay:
            try changeModes { try $0.record(.startDay, now: $1) }
        case AgentInterface.Method.break:
            try changeModes { try $0.requestBreak(now: $1) }
        case AgentInterface.Method.pause:
            guard case .uint64(let seconds)? = arguments.first else { throw invalid("the length must be seconds (t)") }
            var booking: CheatDayBooking?
            try changeModes { booking = try $0.pause(TimeInterval(min(seconds, 1 << 40)), settings: runner.engine.settings,
                                                     mode: runner.engine.decision.mode, now: $1) }
            return [.int64(Int64(booking?.start.timeIntervalSince1970 ?? 0)), .int64(Int64(booking?.end.timeIntervalSince1970 ?? 0))]
        case AgentInterface.Method.endPause:
            try changeModes { try $0.endPause(now: $1) }
        case AgentInterface.Method.cardChosen:
            guard let card = arguments.first?.stringValue, let choice = arguments.dropFirst().first?.stringValue else {
                throw invalid("a card id and a choice, both strings")
            }
            try runner.cardChosen(card: card, key: choice)
        case AgentInterface.Method.browserHello, AgentInterface.Method.browserTab, AgentInterface.Method.browserChoice,
             AgentInterface.Method.browserGone, AgentInterface.Method.browsers:
            return try BrowserService(runner: runner).call(member, arguments)
        default:
            throw BusMethodError(name: BusMethodError.unknownMethod, message: "no method \(StoredName.shown(member))")
        }
        return []
    }

    /// Writes `change` to the config file and has the agent read it: the reply is one line for
    /// each loosening it left waiting (what it will be, when, what holds until then), none when
    /// it holds at once, as the CLI says it.
    private func edit(_ change: (inout KeyFile) throws -> Void) throws -> [BusValue] {
        do { try ConfigEditor(path: runner.config.path).edit(change) } catch {
            throw BusMethodError(name: AgentInterface.Error.invalidArgument, message: "\(error)")
        }
        let waiting = runner.reloadConfig()
        let now = runner.now
        return [.strings(waiting.map { PendingChangeText.line($0, settings: runner.engine.settings, now: now, zone: runner.zone) })]
    }

    /// Runs a change of the mode state, then has the agent decide the mode again.
    private func changeModes(_ change: (ModeState, Date) throws -> Void) throws {
        try modeState { try change($0, runner.now) }
        runner.modesChanged()
    }

    /// Runs `body` on the stored mode state, turning refusals and store failures into D-Bus errors.
    private func modeState<T>(_ body: (ModeState) throws -> T) throws -> T {
        do { return try body(ModeState(store: runner.store, zone: runner.zone)) } catch let error as ModeStateError {
            let name = switch error.kind {
            case .invalidArgument: AgentInterface.Error.invalidArgument
            case .notAllowed: AgentInterface.Error.notAllowed
            case .notFound: AgentInterface.Error.notFound
            }
            throw BusMethodError(name: name, message: error.message)
        } catch let error as StoreError {
            throw BusMethodError(name: BusMethodError.failed, message: "\(error)")
        }
    }

    private func invalid(_ message: String) -> BusMethodError {
        BusMethodError(name: AgentInterface.Error.invalidArgument, message: message)
    }

    private func appArgument(_ arguments: [BusValue], _ index: Int) throws -> AppID {
        guard let text = arguments.dropFirst(index).first?.stringValue else { throw invalid("argument \(index + 1) must be an app id") }
        do { return try AppID(checking: text) } catch { throw invalid("argument \(index + 1) (the app id): \(error.message)") }
    }

    /// A daily limit in seconds (t), within `DurationBounds.limit`.
    private func limitArgument(_ arguments: [BusValue], _ index: Int) throws -> TimeInterval {
        guard case .uint64(let seconds)? = arguments.dropFirst(index).first else { throw invalid("argument \(index + 1) must be seconds (t)") }
        let limit = TimeInterval(seconds)
        do { try DurationBounds.check(limit, for: "argument \(index + 1) (the limit)", within: DurationBounds.limit) } catch {
            throw invalid(error.message)
        }
        return limit
    }

    /// An instant in Unix seconds (x), within a year of now: anything farther is no date a user meant.
    private func startArgument(_ arguments: [BusValue], _ index: Int) throws -> Date {
        guard case .int64(let seconds)? = arguments.dropFirst(index).first else { throw invalid("argument \(index + 1) must be Unix seconds (x)") }
        let now = runner.now.timeIntervalSince1970
        guard abs(TimeInterval(seconds) - now) <= DurationText.longest else {
            throw invalid("argument \(index + 1) (the start) must be Unix seconds within a year of now, not \(seconds)")
        }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }

    private func kindArgument(_ arguments: [BusValue], _ index: Int) throws -> ExemptionKind {
        guard let text = arguments.dropFirst(index).first?.stringValue, let kind = ExemptionKind(rawValue: text) else {
            throw invalid("the kind must be `important` or `essential`")
        }
        return kind
    }
}
