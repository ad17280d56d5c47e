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
