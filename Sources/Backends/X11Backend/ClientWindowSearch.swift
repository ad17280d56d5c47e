/// Finds the client window (the one the app created, carrying WM_STATE) for any window in its
/// frame: the focus may sit on the WM's frame, on the client, or on one of the client's children.
extension WindowInspector {
    /// Walks up from `window` to the first ancestor with WM_STATE; when it reaches the top-level
    /// (a frame without WM_STATE), searches below it, as XmuClientWindow does.
    /// Nil for the root, PointerRoot, None or a window with no client around it.
    func clientWindow(containing window: Window) throws -> Window? {
        let root = connection.root
        guard window != .none, window.rawValue != 1 /* PointerRoot */, window != root else { return nil }
        var current = window
        while true {
            if try hasProperty(current, atoms.wmState) { return current }
            let parent = try display.queryTree(current).parent
            if parent == root || parent == .none { return try clientWindow(in: current) }
            current = parent
        }
    }

    /// XmuClientWindow's search: `top` itself or its nearest descendant with WM_STATE, level by
    /// level. Windows that vanish during the search are skipped.
    func clientWindow(in top: Window) throws -> Window? {
        var level = [top]
        while !level.isEmpty {
            for window in level where try ignoringVanishedWindow({ try hasProperty(window, atoms.wmState) }) == true {
                return window
            }
            level = try level.flatMap { window in try ignoringVanishedWindow { try display.queryTree(window).children } ?? [] }
        }
        return nil
    }
}
