import FoundationEssentials
import ScreenTimeCore
import SessionBus

/// The methods the browser extension's native host calls (docs/DBUS.md, "The browser"): each
/// argument checked and translated, the work done by the runner. Only a registrable domain ever
/// arrives here: a `site` that is not one (a URL, a title, a `www.` host) is refused.
struct BrowserService {
    let runner: AgentRunner

    func call(_ member: String, _ arguments: [BusValue]) throws -> [BusValue] {
        switch member {
        case AgentInterface.Method.browserHello:
            let name = arguments[1].stringValue ?? ""
            guard (1...32).contains(name.utf8.count), name.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7f }) else {
                throw invalid("argument 2 (the browser's name) must be a short printable name")
            }
            runner.browserHello(try host(arguments), name: name)
        case AgentInterface.Method.browserTab:
            guard case .bool(let focused) = arguments[1], case .bool(let audible) = arguments[3], case .bool(let incognito) = arguments[4] else {
                throw invalid("arguments 2, 4 and 5 must be booleans")
            }
            let text = arguments[2].stringValue ?? ""
            let site = text.isEmpty || incognito ? nil : try site(text, argument: 3)
            runner.browserTab(try host(arguments), BrowserTab(focused: focused, tab: -1, site: site, audible: audible, incognito: incognito))
        case AgentInterface.Method.browserChoice:
            let site = try site(arguments[1].stringValue ?? "", argument: 2)
            let choice = arguments[2].stringValue ?? ""
            guard BrowserTab.choices.contains(choice) else {
                throw invalid("argument 3 (the choice) must be one of \(BrowserTab.choices.sorted().joined(separator: ", "))")
            }
            return [.double(try runner.browserChoice(try pid(arguments), site: AppID(site.domain), choice: choice))]
        case AgentInterface.Method.browserGone:
            runner.browserGone(try host(arguments))
        case AgentInterface.Method.browsers:
            return [.string(runner.browsers.listing())]
        default:
            throw BusMethodError(name: BusMethodError.unknownMethod, message: "no method \(StoredName.shown(member))")
        }
        return []
    }

    /// The calling host: the browser's pid it gives and its own connection.
    private func host(_ arguments: [BusValue]) throws -> BrowserHost {
        BrowserHost(pid: try pid(arguments), connection: runner.bus?.connection.currentCaller ?? "")
    }

    private func pid(_ arguments: [BusValue]) throws -> UInt32 {
        guard case .uint32(let pid)? = arguments.first, pid > 0 else { throw invalid("argument 1 (the browser's pid) must be a pid") }
        return pid
    }

    private func site(_ text: String, argument: Int) throws -> Site {
        guard let site = Site(domain: text) else {
            let reason = (try? Site(host: text)).map { "a site is its registrable domain (\($0.domain))" } ?? "it is no site"
            throw invalid("argument \(argument) (the site) \(StoredName.shown(text)): \(reason)")
        }
        return site
    }

    private func invalid(_ message: String) -> BusMethodError {
        BusMethodError(name: AgentInterface.Error.invalidArgument, message: message)
    }
}
