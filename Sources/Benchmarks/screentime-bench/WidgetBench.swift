import Foundation
import Harnesses

// The widgets' cost over normal use (`scripts/bench.sh widgets [seconds]`, an hour by default):
// the Plasma applet in a panel (plasmoidviewer on the Xvfb desktop) and GNOME Shell 43 headless
// with the extension, each beside its own agent, both driven alike. Every 30 s another of three
// windows takes the focus (one app has a 40-minute limit: its countdown, its time left in the
// widgets, then its card), and every 15 minutes the mode changes (Productivity, then Standard).
// The top-bar indicator is shown and hidden in turns of 10 minutes, through its menu's switch:
// gnome-shell's CPU in each half is the shell with and without it, the windows' own redraws
// being in both. Prints the StatusChanged signals each widget followed, the applet's CPU (the
// viewer's own, and its `status --next` commands'), gnome-shell's per half, and per hour.
enum WidgetBench {
    static let config = """
        [general]
        idle-after = 1h
        [limits]
        stlimited = 40m
        [exemptions]
        essential = plasmoidviewer
        """

    static func run(seconds: Double) throws {
        let desk = try DesktopHarness.shared()
        let shell = try GnomeShellHarness.shared()
        let plasmaAgent = try AgentProcess(environment: AgentProcess.freshEnvironment(on: desk, config: config), desk: desk)
        let gnomeAgent = try AgentProcess(environment: AgentProcess.freshEnvironment(on: shell, config: config), desk: shell)
        let viewer = try PlasmoidViewer(environment: plasmaAgent.environment, in: .panel)
        _ = try viewer.shown { $0.hasPrefix("running") }
        try viewer.waitForWindow()
        let windows = try TestWindowClient(display: desk.display)
        let xWindows = try ["stalpha", "stbeta", "stlimited"].map { try windows.openWindow(class: $0, title: $0) }
        let gnomeWindows = try ["stalpha", "stbeta", "stlimited"].map { try shell.openWindow(appID: $0) }
        guard (try? shell.indicator()["visible"] as? Bool) == true else { fatalError("the GNOME indicator did not show") }
        // The signals each agent sent, and the Status() calls that followed them (the widgets', and on
        // Plasma the status commands').
        let plasmaBus = try BusMonitor(address: desk.busAddress, rules: [statusChanged, statusCalls])
        let gnomeBus = try BusMonitor(address: shell.busAddress, rules: [statusChanged, statusCalls])

        usleep(3_000_000) // the start's drawing done
        let viewerPID = viewer.process.processIdentifier
        let viewerBefore = viewer.cpuSeconds()
        let commandsBefore = ProcessMeasures.childrenCPUSeconds(viewerPID)
        var shellCPU = (shown: 0.0, hidden: 0.0)
        var shellMark = ProcessMeasures.cpuTime(shell.shellPID)
        var shown = true
        // Adds the shell's CPU since the last mark to the stretch (shown or hidden) that ends now.
        func endStretch() {
            let now = ProcessMeasures.cpuTime(shell.shellPID)
            if shown { shellCPU.shown += now - shellMark } else { shellCPU.hidden += now - shellMark }
            shellMark = now
        }
        let start = Date()
        var step = 0
        while Date().timeIntervalSince(start) < seconds {
            if step % 20 == 19 {  // 10 minutes of 30-s steps
                endStretch()
                guard try shell.activateMenuItem("Show in the top bar") else { fatalError("the indicator's switch is missing") }
                shown.toggle()
            }
            if step % 30 == 29 {  // 15 minutes
                let mode = (step / 30) % 2 == 0 ? "productivity" : "standard"
                for agent in [plasmaAgent, gnomeAgent] { _ = try agent.cli(["mode", mode]) }
            }
            windows.activate(xWindows[step % 3])
            try shell.requestActivation(gnomeWindows[step % 3].id)
            try shell.dispatchAnswers()
            step += 1
            let next = start.addingTimeInterval(Double(step) * 30)
            while Date() < next, Date().timeIntervalSince(start) < seconds {
                usleep(200_000)
                try plasmaBus.drain()
                try gnomeBus.drain()
            }
        }
        endStretch()
        let viewerOwn = viewer.cpuSeconds() - viewerBefore
        let commands = ProcessMeasures.childrenCPUSeconds(viewerPID) - commandsBefore
        plasmaAgent.stop()
        gnomeAgent.stop()
        shell.stop()

        let hours = seconds / 3600
        print(String(format: "%.0f min of normal use: %d focus changes, %d mode changes", seconds / 60, step, step / 30))
        for (name, bus) in [("Plasma", plasmaBus), ("GNOME", gnomeBus)] {
            let signals = bus.messages.filter { $0.member == "StatusChanged" }.count
            print("\(name): the agent sent StatusChanged \(signals) times; Status() was called \(bus.messages.count - signals) times")
        }
        print(String(format: "Plasma applet in a panel: plasmoidviewer %.2f s of CPU, its status commands %.2f s (%.2f s per hour together)",
                     viewerOwn, commands, (viewerOwn + commands) / hours))
        print(String(format: "gnome-shell: %.2f s of CPU while the indicator was shown, %.2f s while hidden (equal halves); the indicator: %.2f s per hour",
                     shellCPU.shown, shellCPU.hidden, (shellCPU.shown - shellCPU.hidden) * 2 / hours))
    }

    static let statusChanged = "type='signal',interface='org.screentime.Agent1',member='StatusChanged'"
    static let statusCalls = "type='method_call',interface='org.screentime.Agent1',member='Status'"
}
