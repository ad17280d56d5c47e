import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import SessionBus
import Harnesses
import XCTest

final class AgentInterfaceTests: XCTestCase {
    /// Collects method and signal names with their argument signatures from introspection XML.
    private final class Members: NSObject, XMLParserDelegate {
        var methods: [String: [String]] = [:]
        var signals: [String: [String]] = [:]
        private var current: (isSignal: Bool, name: String)?

        func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?,
                    qualifiedName: String?, attributes: [String: String] = [:]) {
            switch element {
            case "method", "signal":
                current = (element == "signal", attributes["name"] ?? "")
                if let current { current.isSignal ? (signals[current.name] = []) : (methods[current.name] = []) }
            case "arg":
                guard let current else { return }
                let arg = (attributes["direction"] ?? "in") + ":" + (attributes["type"] ?? "")
                if current.isSignal { signals[current.name, default: []].append(arg) } else { methods[current.name, default: []].append(arg) }
            default:
                break
            }
        }
    }

    /// The XML the agent will export parses, and names each method with the documented signature.
    func testIntrospectionOfTheExportedInterface() throws {
        let desk = try DesktopHarness.shared()
        let server = try BusServingThread(address: desk.busAddress) { connection in
            try connection.export(path: AgentInterface.objectPath, interface: AgentInterface.interface,
                                  introspection: AgentInterface.introspectionXML) { member, _ in
                throw BusMethodError(name: AgentInterface.Error.notAllowed, message: member)
            }
        }
        defer { server.stop() }
        let client = try BusConnection(address: desk.busAddress)
        let reply = try client.call(destination: server.uniqueName, path: AgentInterface.objectPath,
                                    interface: "org.freedesktop.DBus.Introspectable", method: "Introspect")
        let xml = try XCTUnwrap(reply.first?.stringValue)

        let members = Members()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = members
        XCTAssertTrue(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "") in\n\(xml)")
        XCTAssertEqual(members.methods, [
            AgentInterface.Method.status: ["out:s"],
            AgentInterface.Method.setLimit: ["in:s", "in:t", "out:as"],
            AgentInterface.Method.removeLimit: ["in:s", "out:as"],
            AgentInterface.Method.setDefaultLimit: ["in:t", "out:as"],
            AgentInterface.Method.listLimits: ["out:s"],
            AgentInterface.Method.setExemption: ["in:s", "in:s", "in:b", "out:as"],
            AgentInterface.Method.listExemptions: ["in:s", "out:as"],
            AgentInterface.Method.continue: ["in:s", "out:d"],
            AgentInterface.Method.setMode: ["in:s"],
            AgentInterface.Method.bookCheatDay: ["in:x", "out:s"],
            AgentInterface.Method.cancelCheatDay: ["in:s"],
            AgentInterface.Method.listCheatDays: ["out:s"],
            AgentInterface.Method.bedtime: [],
            AgentInterface.Method.stayUp: [],
            AgentInterface.Method.startDay: [],
            AgentInterface.Method.break: [],
            AgentInterface.Method.cardChosen: ["in:s", "in:s"],
            AgentInterface.Method.browserHello: ["in:u", "in:s"],
            AgentInterface.Method.browserTab: ["in:u", "in:b", "in:s", "in:b", "in:b"],
            AgentInterface.Method.browserChoice: ["in:u", "in:s", "in:s", "out:d"],
            AgentInterface.Method.browserGone: ["in:u"],
            AgentInterface.Method.browsers: ["out:s"],
            AgentInterface.Method.pause: ["in:t", "out:x", "out:x"],
            AgentInterface.Method.endPause: [],
            AgentInterface.Method.leaveMode: ["in:s", "in:b", "out:s", "out:d", "out:s"],
            "Introspect": ["out:s"],
        ])
        // A signal's arguments have no direction; the parser above reads them as "in".
        XCTAssertEqual(members.signals, [AgentInterface.Signal.statusChanged: [], AgentInterface.Signal.siteRestricted: ["in:u", "in:s", "in:s"],
                                         AgentInterface.Signal.siteAllowed: ["in:u", "in:s"]])

        XCTAssertThrowsError(try client.call(destination: server.uniqueName, path: AgentInterface.objectPath,
                                             interface: AgentInterface.interface, method: AgentInterface.Method.status)) {
            XCTAssertEqual($0 as? BusMethodError, BusMethodError(name: AgentInterface.Error.notAllowed, message: "Status"))
        }
    }

}
