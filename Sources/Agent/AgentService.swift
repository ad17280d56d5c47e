import FoundationEssentials
import ScreenTimeCore
import SessionBus

/// The methods of `org.screentime.Agent1` (docs/DBUS.md). Limits and exemptions are written to
/// the config file, comments kept, and take effect at once.
struct AgentService {
    let runner: AgentRunner

    func call(_ member: String, _ arguments: [BusValue]) throws -> [BusValue] {
        switch member {
        case AgentInterface.Method.status:
            return [.string(StatusFormat.json(runner.status(at: Date())))]
        case AgentInterface.Method.setLimit:
            let (app, seconds) = (try appArgument(arguments, 0), try secondsArgument(arguments, 1))
            try edit { $0.setLimit(app, seconds) }
        case AgentInterface.Method.removeLimit:
            let app = try appArgument(arguments, 0)
            try edit { $0.removeLimit(app) }
        case AgentInterface.Method.setDefaultLimit:
            let seconds = try secondsArgument(arguments, 0)
            try edit { $0.setDefaultLimit(seconds) }
        case AgentInterface.Method.listLimits:
            let settings = runner.engine.settings
            var limits = Dictionary(uniqueKeysWithValues: settings.limits.map { ($0.key.rawValue, $0.value) })
            limits["default"] = settings.defaultLimit
            let json = try JSONEncoder().encode(limits)
            return [.string(String(decoding: json, as: UTF8.self))]
        case AgentInterface.Method.setExemption:
            let kind = try kindArgument(arguments, 0)
            let app = try appArgument(arguments, 1)
            guard case .bool(let on)? = arguments.dropFirst(2).first else { throw invalid("the third argument must be a boolean") }
            try edit { $0.setExemption(kind, app, on) }
        case AgentInterface.Method.listExemptions:
            let kind = try kindArgument(arguments, 0)
            let settings = runner.engine.settings
            return [.strings((kind == .important ? settings.important : settings.essential).sorted().map(\.rawValue))]
        case AgentInterface.Method.continue:
            let app = try appArgument(arguments, 0)
            guard runner.engine.isOverLimit(app, at: Date()) else {
                throw BusMethodError(name: AgentInterface.Error.unknownApp, message: "\(app) has not reached its limit today")
            }
            runner.send(.continueRequested(app))
        default:
            throw BusMethodError(name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no method \(member)")
        }
        return []
    }

    private func edit(_ change: (inout KeyFile) throws -> Void) throws {
        do { try ConfigEditor(path: runner.config.path).edit(change) } catch {
            throw BusMethodError(name: AgentInterface.Error.invalidArgument, message: "\(error)")
        }
        runner.reloadConfig()
    }

    private func invalid(_ message: String) -> BusMethodError {
        BusMethodError(name: AgentInterface.Error.invalidArgument, message: message)
    }

    private func appArgument(_ arguments: [BusValue], _ index: Int) throws -> AppID {
        guard let text = arguments.dropFirst(index).first?.stringValue, !text.isEmpty, !text.contains(where: { $0 == "=" || $0 == ";" || $0.isNewline }) else {
            throw invalid("argument \(index + 1) must be an app id")
        }
        return AppID(text)
    }

    private func secondsArgument(_ arguments: [BusValue], _ index: Int) throws -> TimeInterval {
        guard case .uint64(let seconds)? = arguments.dropFirst(index).first else { throw invalid("argument \(index + 1) must be seconds (t)") }
        return TimeInterval(seconds)
    }

    private func kindArgument(_ arguments: [BusValue], _ index: Int) throws -> ExemptionKind {
        guard let text = arguments.dropFirst(index).first?.stringValue, let kind = ExemptionKind(rawValue: text) else {
            throw invalid("the kind must be `important` or `essential`")
        }
        return kind
    }
}
