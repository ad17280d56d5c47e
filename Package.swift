// swift-tools-version:6.0
import PackageDescription

// Dependencies point one way: executables -> Agent -> backends -> ScreenTimeCore.
// No product module imports Foundation (only FoundationEssentials) so the agent stays small.
// The folders under Sources/ show the layers, from the bottom up (see the end of this file).
let layers: [(folder: String, targets: [String])] = [
    ("C", ["CX11", "CDBus", "CSQLite", "CICal", "CWaylandClient", "CWayland", "CGtk", "CCurl", "CLibXML2", "CPNG"]),
    ("Core", ["ScreenTimeCore"]),
    ("Platform", ["SystemErrors", "PrivateFiles", "LocalProcess", "LocalSystem", "UnixSocket", "X11ErrorTraps", "SessionBus", "UsageStore", "AgentControl", "Logging", "ChildProcesses", "SyncFolder"]),
    ("Backends", ["DoNotDisturb", "GnomeShellBackend", "X11Backend", "I3IPCBackend", "HyprlandBackend", "WaylandBackend", "KWinBackend", "DisplayFilter"]),
    ("Readers", ["CalendarFeed", "FeedReader"]),
    ("Agent", ["Agent", "screentime-agent"]),
    ("Card", ["CardContent", "screentime-card"]),
    ("CLI", ["ScreenTimeCLI", "screentime", "screentime-reader"]),
    ("Harnesses", ["Harnesses"]),
    ("Browser", ["screentime-browser-host"]),
    ("Benchmarks", ["screentime-bench", "screentime-notify-bench", "screentime-report-bench", "screentime-calendar-bench", "screentime-floor"]),
]
let package = Package(
    name: "screentime",
    products: [
        .executable(name: "screentime", targets: ["screentime"]),
        .executable(name: "screentime-reader", targets: ["screentime-reader"]),
        .executable(name: "screentime-agent", targets: ["screentime-agent"]),
        .executable(name: "screentime-card", targets: ["screentime-card"]),
        .executable(name: "screentime-browser-host", targets: ["screentime-browser-host"]),
    ],
    targets: [
        // Xlib, XRandR, XScreenSaver and XSync (libXext) headers, through pkg-config.
        .systemLibrary(name: "CX11", pkgConfig: "x11 xrandr xscrnsaver xext",
                       providers: [.apt(["libx11-dev", "libxrandr-dev", "libxss-dev", "libxext-dev"])]),
        // libdbus-1, the reference D-Bus client library.
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1", providers: [.apt(["libdbus-1-dev"])]),
        // SQLite 3 for the usage store.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // libical, to read calendars (.ics) whose events name a mode: recurrences and time zones.
        .systemLibrary(name: "CICal", pkgConfig: "libical", providers: [.apt(["libical-dev"])]),
        // libwayland-client, the reference Wayland client library.
        .systemLibrary(name: "CWaylandClient", pkgConfig: "wayland-client", providers: [.apt(["libwayland-dev"])]),
        // Client code of the Wayland protocols the Wayland providers speak, from wayland-scanner
        // (committed; scripts/generate-wayland.sh regenerates it from the XML files).
        .target(name: "CWayland", dependencies: ["CWaylandClient"], exclude: ["protocols"]),
        // GTK 3 and gtk-layer-shell, for the card process only (the agent links no toolkit).
        .systemLibrary(name: "CGtk", pkgConfig: "gtk+-3.0 gtk-layer-shell-0",
                       providers: [.apt(["libgtk-3-dev", "libgtk-layer-shell-dev"])]),
        // libcurl, to fetch the run-down's feeds (http, https, file://) in parallel with a timeout each.
        .systemLibrary(name: "CCurl", pkgConfig: "libcurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // libxml2, to parse the run-down's feeds (RSS 2.0, Atom).
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        // libpng, for tests only: reading GNOME Shell's screenshots to check the screen's colours.
        .systemLibrary(name: "CPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),

        // The pure core: model, config, policy engine, usage ledger. Takes time as an argument; no C.
        .target(name: "ScreenTimeCore"),
        // A failed system call's errno in the system's words, and EINTR retried: once, for every target.
        .target(name: "SystemErrors"),
        // Folders 0700 and files 0600 for the user's usage, titles, reports and settings, whatever the umask.
        .target(name: "PrivateFiles", dependencies: ["SystemErrors"]),
        // What /proc tells of a window's process (Flatpak, Snap, launcher scope), for every desktop backend.
        .target(name: "LocalProcess", dependencies: ["SystemErrors", "ScreenTimeCore"]),
        // Xlib's exiting error handlers replaced once for every X connection of the process.
        .target(name: "X11ErrorTraps", dependencies: ["CX11"]),
        // Focus source, window control and idle time on X11 (EWMH, Xlib, XScreenSaver).
        .target(name: "X11Backend", dependencies: ["ScreenTimeCore", "CX11", "X11ErrorTraps", "LocalProcess"]),
        // A non-blocking Unix stream socket for the compositors' IPC (sway/i3, Hyprland).
        .target(name: "UnixSocket", dependencies: ["SystemErrors"]),
        // Focus and minimize (scratchpad) over the i3 IPC: sway on Wayland, i3 on X11.
        .target(name: "I3IPCBackend", dependencies: ["ScreenTimeCore", "LocalProcess", "UnixSocket"]),
        // Focus and minimize (a special workspace) over Hyprland's event and request sockets.
        .target(name: "HyprlandBackend", dependencies: ["ScreenTimeCore", "LocalProcess", "UnixSocket"]),
        // Focus, minimize, idle and gamma over Wayland protocols (wlroots and KDE), through libwayland-client.
        .target(name: "WaylandBackend", dependencies: ["SystemErrors", "ScreenTimeCore", "LocalProcess", "CWayland"]),
        // Screen colour filters on X11: RandR CTM (grayscale) and CRTC gamma ramps (warmth, dimming).
        .target(name: "DisplayFilter", dependencies: ["ScreenTimeCore", "CX11", "X11ErrorTraps", "PrivateFiles"]),
        // A child process run with a deadline, its output read without blocking the agent's loop (the reader, gsettings).
        .target(name: "ChildProcesses", dependencies: ["SystemErrors", "ScreenTimeCore"]),
        // One line to stderr (journald under systemd) per event worth knowing, for the agent and its backends.
        .target(name: "Logging", dependencies: ["ScreenTimeCore", "SystemErrors"]),
        // Session-bus client and service over libdbus-1: notifications and the agent's interface.
        .target(name: "SessionBus", dependencies: ["ScreenTimeCore", "CDBus"]),
        // SQLite store of foreground intervals, bypasses and limits hit.
        .target(name: "UsageStore", dependencies: ["ScreenTimeCore", "CSQLite", "PrivateFiles"]),
        // The folder a sync engine (Syncthing, any other) keeps the same on a person's computers: each
        // device's days written atomically in its own folder, the others' read; the join kept locally.
        .target(name: "SyncFolder", dependencies: ["SystemErrors", "ScreenTimeCore", "PrivateFiles", "UsageStore"]),
        // Reads .ics files and folders into mode intervals (libical expands RRULE/EXDATE, time zones).
        .target(name: "CalendarFeed", dependencies: ["ScreenTimeCore", "LocalSystem", "CICal"]),
        // KDE Plasma on Wayland: focus and minimize through a KWin script over D-Bus, the warm tint through Night Light.
        .target(name: "KWinBackend", dependencies: ["ScreenTimeCore", "SessionBus", "LocalProcess", "PrivateFiles"],
                resources: [.embedInCode("Scripts/screentime-focus.js"), .embedInCode("Scripts/screentime-minimize.js")]),
        // Do-not-disturb through each notification server's own switch (dunst, mako, GNOME, Plasma, Xfce, swaync), given back at exit.
        .target(name: "DoNotDisturb", dependencies: ["ScreenTimeCore", "SessionBus", "PrivateFiles", "Logging", "ChildProcesses"]),
        // GNOME Shell (Wayland or X11): focus, minimize and the screen filter through the project's Shell extension, idle through Mutter.
        .target(name: "GnomeShellBackend", dependencies: ["ScreenTimeCore", "SessionBus", "LocalProcess"]),
        // The machine's own facts: the installed desktop entries (XDG data folders), the time zone (tzdata),
        // the calendar files a configured calendar path stands for.
        .target(name: "LocalSystem", dependencies: ["ScreenTimeCore"]),
        // The agent seen from outside, for the CLI and the agent's own bus handlers: the bus client, `status --follow`,
        // the config file's careful editor and its lock, the sibling executables' paths.
        .target(name: "AgentControl", dependencies: ["SystemErrors", "ScreenTimeCore", "SessionBus", "PrivateFiles", "Logging"]),
        // The agent: one poll loop feeding the engine and carrying out its actions.
        .target(name: "Agent", dependencies: ["SystemErrors", "ScreenTimeCore", "LocalProcess", "X11Backend", "I3IPCBackend", "HyprlandBackend",
                                              "WaylandBackend", "DisplayFilter", "SessionBus", "UsageStore", "KWinBackend", "GnomeShellBackend", "DoNotDisturb", "Logging", "ChildProcesses", "LocalSystem", "PrivateFiles", "AgentControl",
                                              "SyncFolder"]),
        // The run-down's feeds: fetched (libcurl, all at once, a timeout each), parsed (libxml2), cached; never in the agent.
        .target(name: "FeedReader", dependencies: ["ScreenTimeCore", "CCurl", "CLibXML2", "PrivateFiles"]),
        // What a card shows (statistics, agenda, to-dos, the run-down), read from the user's files by the short-lived card process and the CLI.
        // Its launch buttons start apps detached (desktop entries), open links, and play music through MPRIS.
        .target(name: "CardContent", dependencies: ["SystemErrors", "ScreenTimeCore", "UsageStore", "CalendarFeed", "FeedReader", "LocalSystem", "SessionBus",
                                                    "SyncFolder"]),
        // The long-running agent, lean: only what the agent needs is linked (no libical, no CLI).
        // Released, it is linked by lld with the code its loop runs placed together, the most called first (hot-code.order, from
        // scripts/generate-hot-code-order.sh): the kernel maps code in 64 KB or larger runs, so the loop's
        // scattered functions kept most of the agent's text resident all day.
        .executableTarget(name: "screentime-agent", dependencies: ["Agent"], exclude: ["hot-code.order"],
                          linkerSettings: [.unsafeFlags(["-use-ld=lld", "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/Sources/Agent/screentime-agent/hot-code.order",
                                                         "-Xlinker", "--no-warn-symbol-ordering"], .when(configuration: .release))]),
        // The restriction card: a short-lived GTK process the agent starts, answering over the session bus.
        .executableTarget(name: "screentime-card", dependencies: ["CardContent", "SessionBus", "CGtk", "SystemErrors"]),
        // The command-line tool's commands and their plumbing (arguments, context, help, exit codes).
        .target(name: "ScreenTimeCLI", dependencies: ["SystemErrors", "AgentControl", "PrivateFiles", "LocalSystem", "UsageStore", "SessionBus", "SyncFolder"]),
        // The command-line tool; `screentime agent` executes screentime-agent beside it, and the commands
        // reading calendars and feeds execute screentime-reader (libical, libcurl and libxml2 stay out of the rest).
        .executableTarget(name: "screentime", dependencies: ["ScreenTimeCLI"]),
        // `screentime calendar`, `rundown` and `doctor`, which read calendars and feeds.
        .executableTarget(name: "screentime-reader", dependencies: ["ScreenTimeCLI", "Agent", "CalendarFeed", "CardContent"]),
        // The browser extension's native messaging host: the browser's length-prefixed JSON on stdin/stdout,
        // bridged to the agent's session-bus interface (the site of the focused tab in, restrictions out).
        .executableTarget(name: "screentime-browser-host", dependencies: ["SystemErrors", "ScreenTimeCore", "SessionBus"]),
        // Benchmark: disabled-app minimize latency, CPU and RSS of the agent on X11, sway, GNOME Shell and KWin.
        .executableTarget(name: "screentime-bench", dependencies: ["Harnesses", "I3IPCBackend", "UnixSocket", "WaylandBackend"]),
        // The notification budget: the desktop days through the engine and resolver, bubbles and disables per user.
        .executableTarget(name: "screentime-notify-bench", dependencies: ["Harnesses"]),
        // The report benchmark: a year of synthetic history in a real store, `screentime report` timed on it.
        .executableTarget(name: "screentime-report-bench", dependencies: ["UsageStore"]),
        // The calendar benchmark: generated 1 MB and 10 MB exports with damaged lines, read as `calendar expand` reads them.
        .executableTarget(name: "screentime-calendar-bench", dependencies: ["CalendarFeed", "Harnesses"]),
        // The benchmark's floor: a bare Xlib watcher that iconifies one class, run beside the agent.
        .executableTarget(name: "screentime-floor", dependencies: ["CX11", "SystemErrors"]),

        // The test bundle's environment, set when it loads: its own fonts, locale, midday time zone, HOME; no session's buses.
        .target(name: "HermeticEnvironment", path: "Tests/HermeticEnvironment", exclude: ["fonts.conf"]),
        // Real desktops, buses, apps and browsers started privately (Xvfb + openbox, sway, i3, GNOME Shell, KWin; dbus-daemon,
        // dunst, mako), the agent as a process, and stand-ins for the core: for the tests and the benchmarks. No XCTest.
        .target(name: "Harnesses", dependencies: ["ScreenTimeCore", "CX11", "CPNG", "SessionBus"]),
        .testTarget(name: "ScreenTimeCoreTests", dependencies: ["HermeticEnvironment", "ScreenTimeCore", "Harnesses"]),
        .testTarget(name: "SystemErrorsTests", dependencies: ["HermeticEnvironment", "SystemErrors"]),
        .testTarget(name: "PrivateFilesTests", dependencies: ["HermeticEnvironment", "PrivateFiles", "Harnesses"]),
        .testTarget(name: "X11BackendTests", dependencies: ["HermeticEnvironment", "X11Backend", "Harnesses"]),
        .testTarget(name: "I3IPCBackendTests", dependencies: ["HermeticEnvironment", "I3IPCBackend", "Harnesses"]),
        .testTarget(name: "HyprlandBackendTests", dependencies: ["HermeticEnvironment", "HyprlandBackend", "Harnesses"]),
        .testTarget(name: "DisplayFilterTests", dependencies: ["HermeticEnvironment", "DisplayFilter", "Harnesses"]),
        .testTarget(name: "SessionBusTests", dependencies: ["HermeticEnvironment", "SessionBus", "Harnesses"]),
        .testTarget(name: "UsageStoreTests", dependencies: ["HermeticEnvironment", "UsageStore", "Harnesses"]),
        .testTarget(name: "CalendarFeedTests", dependencies: ["HermeticEnvironment", "CalendarFeed", "Harnesses"], exclude: ["Reference", "Fixtures"]),
        .testTarget(name: "FeedReaderTests", dependencies: ["HermeticEnvironment", "FeedReader", "Harnesses"]),
        .testTarget(name: "CardContentTests", dependencies: ["HermeticEnvironment", "CardContent", "Harnesses", "UsageStore", "SyncFolder"], exclude: ["Golden"]),
        .testTarget(name: "WaylandBackendTests", dependencies: ["HermeticEnvironment", "WaylandBackend", "Harnesses"]),
        .testTarget(name: "GnomeShellBackendTests", dependencies: ["HermeticEnvironment", "GnomeShellBackend", "Harnesses"]),
        .testTarget(name: "KWinBackendTests", dependencies: ["HermeticEnvironment", "KWinBackend", "Harnesses"]),
        .testTarget(name: "AgentTests", dependencies: ["HermeticEnvironment", "Agent", "AgentControl", "DoNotDisturb", "ChildProcesses", "Logging", "Harnesses", "SyncFolder"]),
        .testTarget(name: "LocalSystemTests", dependencies: ["HermeticEnvironment", "LocalSystem", "Harnesses"]),
        .testTarget(name: "SyncFolderTests", dependencies: ["HermeticEnvironment", "SyncFolder", "Harnesses", "UsageStore"]),
        .testTarget(name: "CLITests", dependencies: ["HermeticEnvironment", "Harnesses", "UsageStore", "SyncFolder", "ScreenTimeCLI"], resources: [.copy("Golden")]),
    ],
    swiftLanguageModes: [.v6]
)

for target in package.targets where target.path == nil && !target.isTest {
    guard let layer = layers.first(where: { $0.targets.contains(target.name) }) else {
        fatalError("\(target.name) belongs to no layer in Package.swift")
    }
    target.path = "Sources/\(layer.folder)/\(target.name)"
}
// Released: each function in a section of its own, so that the agent's link can place the loop's
// code together (and drop what nothing calls); and exclusivity checked at compile time only. Debug
// builds, which every test runs, check it at run time too; in the released loop the check was a
// sixth of a focus switch's instructions.
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Xfrontend", "-function-sections", "-enforce-exclusivity=unchecked"],
                                                                        .when(configuration: .release))]
}
