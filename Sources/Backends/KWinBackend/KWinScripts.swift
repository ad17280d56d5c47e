// The KWin scripts (`Scripts/*.js`, embedded in the binary by SwiftPM): the agent writes them to
// its runtime folder, its bus name in place of `@AGENT@`, and loads them.
enum KWinScripts {
    static let agentPlaceholder = "@AGENT@"

    /// Reports every window and each activation back to the agent; loaded for the agent's lifetime.
    static let focus = text(PackageResources.screentime_focus_js)

    /// Minimizes the windows the agent names (`TakeMinimizeTargets`) and unloads when told.
    static let minimize = text(PackageResources.screentime_minimize_js)

    /// The script without the file's last newline (the writer adds one).
    private static func text(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }
}
