import Foundation

extension AgentProcess {
    /// The `screentime-card` processes the agent started (its children): pid and argument vector.
    public func cards() -> [(pid: Int32, arguments: [String])] {
        let pid = process.processIdentifier
        let children = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        return children.split(separator: " ").compactMap { Int32($0) }.compactMap { child in
            guard let data = FileManager.default.contents(atPath: "/proc/\(child)/cmdline") else { return nil }
            let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return arguments.first?.hasSuffix("screentime-card") == true ? (child, arguments) : nil
        }
    }
}
