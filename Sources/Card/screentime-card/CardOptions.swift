import FoundationEssentials
import ScreenTimeCore

/// `screentime-card --id ID (--request JSON | --document JSON) [--monitor-at X,Y | --x11-window XID] [--print | --json]`.
struct CardOptions {
    enum Source {
        /// What the agent sends: composed here with the user's files (`CardComposer`).
        case request(CardRequest)
        /// A finished document, drawn as given (golden screenshots, the benchmark).
        case document(CardDocument)
    }

    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    static let usage = """
        usage: screentime-card --id ID (--request JSON | --document JSON) [--monitor-at X,Y | --x11-window XID] [--print | --json]
        Shows a restriction card and answers the agent with CardChosen(ID, choice) on the session bus,
        on the monitor at X,Y, or the one the X window XID is on (the disabled app's), else under the pointer.
        --print writes the card as text instead, --json as its document (the agent's in-tab card).
        Exit status: 0 answered (or printed), 2 bad arguments, 3 no display could be opened,
        4 the answer could not be delivered to the agent.
        """

    var id = "card"
    var source: Source
    var monitorAt: (x: Int32, y: Int32)?
    /// The disabled app's X window: the card covers the monitor it is on.
    var x11Window: UInt?
    var printOnly = false
    /// The document as JSON on standard output, nothing drawn: the in-tab card's content.
    var printsJSON = false

    init(_ arguments: [String]) throws(UsageError) {
        var source: Source?
        var rest = arguments[...]
        func value(_ option: String) throws(UsageError) -> String {
            guard let value = rest.popFirst() else { throw UsageError(description: "\(option) needs a value") }
            return value
        }
        while let option = rest.popFirst() {
            switch option {
            case "--id": id = try value(option)
            case "--request": source = .request(try Self.decode(CardRequest.self, try value(option), option))
            case "--document": source = .document(try Self.decode(CardDocument.self, try value(option), option))
            case "--monitor-at":
                let text = try value(option)
                let parts = text.split(separator: ",").compactMap { Int32($0) }
                guard parts.count == 2 else { throw UsageError(description: "--monitor-at wants X,Y, not \(text)") }
                monitorAt = (parts[0], parts[1])
            case "--x11-window":
                let text = try value(option)
                guard let xid = UInt(text) else { throw UsageError(description: "--x11-window wants a window id, not \(text)") }
                x11Window = xid
            case "--print": printOnly = true
            case "--json": printsJSON = true
            default: throw UsageError(description: "unknown option \(option)")
            }
        }
        guard let source else { throw UsageError(description: "--request or --document is needed") }
        self.source = source
    }

    private static func decode<T: Decodable>(_ type: T.Type, _ json: String, _ option: String) throws(UsageError) -> T {
        do { return try JSONDecoder().decode(type, from: Data(json.utf8)) } catch {
            throw UsageError(description: "\(option): not a valid \(type): \(error)")
        }
    }
}
