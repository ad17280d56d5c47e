import Foundation

/// Tabs of a windowed Chromium, driven as a user would switch them: opened, brought to the
/// front, typed into, and read.
extension HeadlessChromium {
    public struct Tab: Equatable {
        public let target: String
        public let session: String
    }

    /// Opens `url` in a new tab of the window (brought to the front).
    public func openTab(_ url: String, timeout: TimeInterval = 20) throws -> Tab {
        let deadline = Date().addingTimeInterval(timeout)
        let created = try call("Target.createTarget", ["url": "about:blank"], deadline: deadline)
        guard let target = created["targetId"] as? String else { throw Failure(description: "no target in \(created)") }
        let attached = try call("Target.attachToTarget", ["targetId": target, "flatten": true], deadline: deadline)
        guard let session = attached["sessionId"] as? String else { throw Failure(description: "no session in \(attached)") }
        for domain in ["Runtime", "Page"] { _ = try call("\(domain).enable", [:], session: session, deadline: deadline) }
        events.removeAll()
        let navigation = try call("Page.navigate", ["url": url], session: session, deadline: deadline)
        if let error = navigation["errorText"] as? String { throw Failure(description: "\(url) did not open: \(error)") }
        while !events.contains(where: { $0["method"] as? String == "Page.loadEventFired" && $0["sessionId"] as? String == session }) {
            events.append(try readMessage(deadline: deadline))
        }
        events.removeAll()
        return Tab(target: target, session: session)
    }

    /// Brings the tab to the front of its window, as a click on it does.
    public func activate(_ tab: Tab) throws {
        _ = try call("Target.activateTarget", ["targetId": tab.target], deadline: Date().addingTimeInterval(5))
    }

    /// The value of `expression` in the tab's page (its main world, not an extension's).
    public func evaluate(_ tab: Tab, _ expression: String, timeout: TimeInterval = 5) throws -> Any? {
        let evaluated = try call("Runtime.evaluate", ["expression": expression, "returnByValue": true], session: tab.session,
                                 deadline: Date().addingTimeInterval(timeout))
        if let exception = evaluated["exceptionDetails"] { throw Failure(description: "\(expression) threw: \(exception)") }
        events.removeAll()
        return (evaluated["result"] as? [String: Any])?["value"]
    }

    /// Presses a key in the tab, as the keyboard does (to the element that has the focus).
    public func press(_ tab: Tab, key: String, code: Int) throws {
        for type in ["rawKeyDown", "char", "keyUp"] {
            var parameters: [String: Any] = ["type": type, "key": key, "code": key, "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code]
            if type == "char" { parameters["text"] = "\r" }
            _ = try call("Input.dispatchKeyEvent", parameters, session: tab.session, deadline: Date().addingTimeInterval(5))
        }
    }
}

extension HeadlessChromium {
    /// Opens `url` in a new private (incognito) window, as the desktop entry's "New Incognito
    /// Window" does: a second `chromium --incognito` for the same profile hands the request to the
    /// running browser and exits.
    public func openPrivateWindow(_ url: String, timeout: TimeInterval = 20) throws {
        let second = Process()
        second.executableURL = URL(fileURLWithPath: Self.executable)
        second.arguments = ["--no-sandbox", "--user-data-dir=\(profileDirectory.path)", "--incognito", url]
        second.environment = launchEnvironment
        second.standardInput = FileHandle.nullDevice
        second.standardOutput = FileHandle.nullDevice
        second.standardError = FileHandle.nullDevice
        try second.run()
        guard Wait.poll(timeout: timeout, { !second.isRunning }) else {
            second.terminate()
            throw Failure(description: "chromium --incognito did not hand its window to the running browser in \(Int(timeout)) s")
        }
        guard second.terminationStatus == 0 else {
            throw Failure(description: "chromium --incognito exited with \(second.terminationStatus)")
        }
    }
}

extension HeadlessChromium {
    /// Every page and the browser context it lives in (a private window's pages have their own).
    public func pages() throws -> [(url: String, context: String)] {
        let answer = try call("Target.getTargets", [:], deadline: Date().addingTimeInterval(5))
        events.removeAll()
        return (answer["targetInfos"] as? [[String: Any]] ?? []).filter { $0["type"] as? String == "page" }.map {
            ($0["url"] as? String ?? "", $0["browserContextId"] as? String ?? "")
        }
    }
}
