import Foundation

/// Debian's `chromium`, headless, driven over the DevTools protocol on a pipe
/// (`--remote-debugging-pipe`: commands on its fd 3, answers and events on its fd 4, each message
/// ending in a NUL). Opens one local page and reports what the page did: every request it made,
/// every failed load, console error and uncaught exception, and the value of an expression
/// evaluated after the load event. A missing `chromium` is an error, not a skip.
public final class HeadlessChromium {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// What a page did while it loaded, and what the expression evaluated to.
    public struct PageLoad {
        /// The URL of every request the page made (itself included).
        public var requests: [String] = []
        /// Failed loads, console errors, uncaught exceptions and error log entries, each described.
        public var problems: [String] = []
        /// The expression's value (`returnByValue`), as JSONSerialization reads it.
        public var value: Any?
    }

    public static let executable = "/usr/bin/chromium"

    private let process: pid_t
    private let commands: Int32
    private let answers: Int32
    private let profile: URL
    /// The environment it was started with, which a second `chromium` for the same profile needs.
    let launchEnvironment: [String: String]
    private var buffer: [UInt8] = []
    private var nextID = 0
    /// Events read while waiting for an answer, in order.
    var events: [[String: Any]] = []

    /// A real window instead of headless: on the harness's display and bus (`environment`), with
    /// extensions as `arguments` load them (`--load-extension=`); its host names resolve only as
    /// `arguments`' `--host-resolver-rules` say, every other name to nothing.
    public struct Windowed {
        public var environment: [String: String]
        public var arguments: [String]
        public init(environment: [String: String], arguments: [String]) {
            self.environment = environment
            self.arguments = arguments
        }
    }

    /// The browser's process id (the Debian wrapper execs the binary: the pid of its windows).
    public var pid: pid_t { process }
    /// The profile folder (`--user-data-dir`).
    public var profileDirectory: URL { profile }

    /// Starts Chromium with a private profile under `directory`. It is pointed at a proxy that
    /// does not exist, so nothing from the network could load even if the page asked.
    /// `windowed` makes it a window on a desktop; `prepareProfile` fills the profile first.
    public init(directory: URL, windowed: Windowed? = nil, prepareProfile: (URL) throws -> Void = { _ in }) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw Failure(description: "\(Self.executable) is missing (scripts/install-deps.sh --test installs Debian's chromium)")
        }
        profile = directory.appendingPathComponent("chromium-profile-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        try prepareProfile(profile)
        var toChromium: [Int32] = [-1, -1], fromChromium: [Int32] = [-1, -1]
        guard pipe(&toChromium) == 0, pipe(&fromChromium) == 0 else { throw Failure(description: "pipe: \(String(cString: strerror(errno)))") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChromium[0], 3)
        posix_spawn_file_actions_adddup2(&actions, fromChromium[1], 4)
        for end in toChromium + fromChromium { posix_spawn_file_actions_addclose(&actions, end) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        let log = profile.appendingPathComponent("stderr.log").path
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let common = ["--no-sandbox", "--user-data-dir=\(profile.path)", "--remote-debugging-pipe", "--no-first-run",
                      "--no-default-browser-check", "--disable-gpu", "--disable-sync", "--disable-background-networking",
                      "--disable-component-update", "--disable-default-apps"]
        let arguments = windowed.map { [Self.executable] + common + ["--password-store=basic", "--disable-features=Translate"] + $0.arguments + ["about:blank"] }
            ?? [Self.executable, "--headless"] + common + ["--disable-extensions", "--proxy-server=http://127.0.0.1:9", "--proxy-bypass-list=<-loopback>", "about:blank"]
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        var environment = windowed?.environment ?? ProcessInfo.processInfo.environment
        environment["HOME"] = profile.path
        launchEnvironment = environment
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, Self.executable, &actions, nil, argv, envp)
        close(toChromium[0])
        close(fromChromium[1])
        commands = toChromium[1]
        answers = fromChromium[0]
        guard spawned == 0 else {
            close(commands)
            close(answers)
            throw Failure(description: "cannot start \(Self.executable): \(String(cString: strerror(spawned)))")
        }
        process = child
    }

    /// Asks Chromium to close (so it takes its helper processes with it), waits at most 5 s, then kills it.
    deinit {
        _ = try? call("Browser.close", [:], deadline: Date().addingTimeInterval(2))
        close(commands)
        close(answers)
        var status: Int32 = 0
        if !Wait.poll(timeout: 5, { waitpid(process, &status, WNOHANG) != 0 }) {
            kill(process, SIGKILL)
            _ = waitpid(process, &status, 0)
        }
        try? FileManager.default.removeItem(at: profile)
    }

    /// Opens `page` (a file) in a new tab, waits for its load event (at most `timeout`), then
    /// evaluates `expression` in it.
    public func open(_ page: URL, evaluating expression: String, timeout: TimeInterval = 20) throws -> PageLoad {
        let deadline = Date().addingTimeInterval(timeout)
        let target = try call("Target.createTarget", ["url": "about:blank"], deadline: deadline)
        guard let targetID = target["targetId"] as? String else { throw Failure(description: "no target in \(target)") }
        let attached = try call("Target.attachToTarget", ["targetId": targetID, "flatten": true], deadline: deadline)
        guard let session = attached["sessionId"] as? String else { throw Failure(description: "no session in \(attached)") }
        for domain in ["Network", "Runtime", "Log", "Page"] { _ = try call("\(domain).enable", [:], session: session, deadline: deadline) }
        events.removeAll()
        let navigation = try call("Page.navigate", ["url": page.absoluteString], session: session, deadline: deadline)
        if let error = navigation["errorText"] as? String { throw Failure(description: "\(page.path) did not open: \(error)") }
        while !events.contains(where: { $0["method"] as? String == "Page.loadEventFired" && $0["sessionId"] as? String == session }) {
            events.append(try readMessage(deadline: deadline))
        }
        let evaluated = try call("Runtime.evaluate", ["expression": expression, "returnByValue": true], session: session, deadline: deadline)
        var load = PageLoad()
        if let exception = evaluated["exceptionDetails"] { load.problems.append("the expression threw: \(exception)") }
        load.value = (evaluated["result"] as? [String: Any])?["value"]
        for event in events where event["sessionId"] as? String == session {
            let parameters = event["params"] as? [String: Any] ?? [:]
            switch event["method"] as? String {
            case "Network.requestWillBeSent":
                load.requests.append(((parameters["request"] as? [String: Any])?["url"] as? String) ?? "?")
            case "Network.loadingFailed":
                load.problems.append("load failed: \(parameters["errorText"] ?? "?")")
            case "Runtime.exceptionThrown":
                let details = parameters["exceptionDetails"] as? [String: Any] ?? [:]
                load.problems.append("exception: \((details["exception"] as? [String: Any])?["description"] ?? details["text"] ?? "?")")
            case "Runtime.consoleAPICalled" where ["error", "assert"].contains(parameters["type"] as? String):
                load.problems.append("console \(parameters["type"]!): \(parameters["args"] ?? "?")")
            case "Log.entryAdded":
                let entry = parameters["entry"] as? [String: Any] ?? [:]
                if entry["level"] as? String == "error" { load.problems.append("log: \(entry["text"] ?? "?") \(entry["url"] ?? "")") }
            default: break
            }
        }
        return load
    }

    /// Sends one command and reads until its answer, keeping the events read meanwhile.
    func call(_ method: String, _ parameters: [String: Any], session: String? = nil, deadline: Date) throws -> [String: Any] {
        nextID += 1
        let id = nextID
        var message: [String: Any] = ["id": id, "method": method, "params": parameters]
        if let session { message["sessionId"] = session }
        let bytes = [UInt8](try JSONSerialization.data(withJSONObject: message)) + [0]
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(commands, $0.baseAddress, $0.count) }
            guard count > 0 else { throw Failure(description: "cannot send \(method) to chromium: \(String(cString: strerror(errno)))\(stderrTail())") }
            written += count
        }
        while true {
            let answer = try readMessage(deadline: deadline)
            guard answer["id"] as? Int == id else {
                events.append(answer)
                continue
            }
            if let error = answer["error"] { throw Failure(description: "\(method): \(error)") }
            return answer["result"] as? [String: Any] ?? [:]
        }
    }

    /// The next NUL-terminated message, waiting at most until `deadline`.
    func readMessage(deadline: Date) throws -> [String: Any] {
        while true {
            if let end = buffer.firstIndex(of: 0) {
                let message = Array(buffer[..<end])
                buffer.removeSubrange(...end)
                guard let object = try JSONSerialization.jsonObject(with: Data(message)) as? [String: Any] else {
                    throw Failure(description: "chromium sent something other than an object: \(String(decoding: message, as: UTF8.self))")
                }
                return object
            }
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw Failure(description: "chromium did not answer in time\(stderrTail())") }
            var descriptor = pollfd(fd: answers, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32(min(left, 1) * 1000) + 1) >= 0 || errno == EINTR else {
                throw Failure(description: "poll: \(String(cString: strerror(errno)))")
            }
            guard descriptor.revents != 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = read(answers, &chunk, chunk.count)
            if count == 0 { throw Failure(description: "chromium exited\(stderrTail())") }
            if count > 0 { buffer += chunk[..<count] }
        }
    }

    private func stderrTail() -> String {
        let text = (try? String(contentsOf: profile.appendingPathComponent("stderr.log"), encoding: .utf8)) ?? ""
        return text.isEmpty ? "" : "; its output:\n" + text.suffix(2000)
    }
}
