import Foundation
import ScreenTimeCore

extension AgentProcess {
    public enum StatusFailure: Error, CustomStringConvertible {
        case failed(String)
        public var description: String {
            switch self { case .failed(let stderr): return "screentime status failed: \(stderr)" }
        }
    }

    /// `screentime status --json`, decoded.
    public func status() throws -> StatusSnapshot {
        let result = try cli(["status", "--json"])
        guard result.status == 0 else { throw StatusFailure.failed(result.err) }
        return try StatusFormat.decode(result.out)
    }

    /// Today's seconds of `app`, as the agent counts them now.
    public func usedSeconds(_ app: AppID) throws -> TimeInterval {
        try status().apps.first { $0.id == app }?.usedSeconds ?? 0
    }

    /// Whether the agent is counting `app` now.
    public func isCounting(_ app: AppID) -> Bool {
        (try? status().apps.first { $0.id == app }?.state) == "counting"
    }
}
