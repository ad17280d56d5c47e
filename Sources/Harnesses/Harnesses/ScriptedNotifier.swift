import ScreenTimeCore

/// A notification server whose answers the test gives, when it chooses (fault injection: a
/// server that is slow, stopped or failing). Records every call.
public final class ScriptedNotifier: Notifier {
    public enum Call: Equatable {
        case show(summary: String, replacing: UInt32)
        case close(UInt32)
    }

    public let backendName = "scripted"
    public var capabilities: Set<String> = ["actions", "body"]
    public private(set) var calls: [Call] = []
    private var unanswered: [(Result<UInt32, Error>) -> Void] = []

    public init() {}

    public var waiting: Int { unanswered.count }

    public func show(_ request: NotificationRequest, replacing id: UInt32,
                     shown: @escaping (Result<UInt32, Error>) -> Void) throws {
        calls.append(.show(summary: request.summary, replacing: id))
        unanswered.append(shown)
    }

    public func close(_ id: UInt32) throws { calls.append(.close(id)) }

    /// Answers the oldest waiting show.
    public func answer(_ result: Result<UInt32, Error>) {
        guard !unanswered.isEmpty else { return }
        unanswered.removeFirst()(result)
    }
}
