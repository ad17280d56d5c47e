import FoundationEssentials
import ScreenTimeCore
import SessionBus

extension AgentClient {
    /// Asks for a pause of `length`; when it starts and ends, as the agent recorded it.
    public func pause(_ length: TimeInterval) throws -> (start: Date, end: Date) {
        let reply = try call(AgentInterface.Method.pause, [.uint64(UInt64(max(0, length)))])
        guard reply.count == 2, case .int64(let start) = reply[0], case .int64(let end) = reply[1] else {
            throw BusError.unexpectedReply(context: "Pause", signature: "")
        }
        return (Date(timeIntervalSince1970: TimeInterval(start)), Date(timeIntervalSince1970: TimeInterval(end)))
    }

    public func endPause() throws { _ = try call(AgentInterface.Method.endPause) }
}
