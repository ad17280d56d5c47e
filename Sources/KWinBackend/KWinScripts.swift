// The KWin scripts, as kept in desktop/kwin/ (KWinScriptsTests checks they are the same text):
// the agent writes them to its runtime folder, its bus name in place of `@AGENT@`, and loads them.
enum KWinScripts {
    static let agentPlaceholder = "@AGENT@"

    /// Reports every window and each activation back to the agent; loaded for the agent's lifetime.
    static let focus = #"""
// screentime: reports KWin's windows and each activation to the agent over D-Bus (KWin 5.27 and 6.x).
// The agent writes this file to its runtime folder with its own bus name in place of @AGENT@.
var agent = "@AGENT@";
var path = "/org/screentime/Agent/KWin";
var iface = "org.screentime.Agent.KWin";

// Docks, desktops, notifications; and layer-shell surfaces of other daemons (dunst, mako), which
// KWin 5.27 calls normal windows but keeps out of the task bar and switcher and never minimizes.
function isShell(w) {
    return w.specialWindow === true || (w.skipTaskbar === true && w.skipSwitcher === true && w.minimizable === false);
}

function report(method, w) {
    callDBus(agent, path, iface, method, String(w.internalId), String(w.resourceClass), String(w.resourceName),
             String(w.desktopFileName), w.pid, String(w.caption), isShell(w));
}

function reportActive(w) {
    if (w) {
        report("WindowActivated", w);
    } else {
        callDBus(agent, path, iface, "WindowActivated", "", "", "", "", 0, "", false);
    }
}

function watch(w) {
    report("WindowAdded", w);
    w.captionChanged.connect(function () {
        if (w.active) callDBus(agent, path, iface, "WindowTitleChanged", String(w.internalId), String(w.caption));
    });
}

var windows = workspace.windowList ? workspace.windowList() : workspace.clientList();
for (var i = 0; i < windows.length; i++) watch(windows[i]);
(workspace.windowAdded || workspace.clientAdded).connect(watch);
(workspace.windowRemoved || workspace.clientRemoved).connect(function (w) {
    callDBus(agent, path, iface, "WindowRemoved", String(w.internalId));
});
(workspace.windowActivated || workspace.clientActivated).connect(reportActive);
reportActive("activeWindow" in workspace ? workspace.activeWindow : workspace.activeClient);
"""#

    /// Minimizes the windows the agent names (`TakeMinimizeTargets`) and unloads when told.
    static let minimize = #"""
// screentime: minimizes the windows the agent names, once, and reports back (KWin 5.27 and 6.x).
// KWin scripts cannot be called over D-Bus, so the agent loads this one for each minimize.
var agent = "@AGENT@";
var path = "/org/screentime/Agent/KWin";
var iface = "org.screentime.Agent.KWin";

callDBus(agent, path, iface, "TakeMinimizeTargets", function (ids) {
    var wanted = {};
    for (var i = 0; i < ids.length; i++) wanted[ids[i]] = true;
    var windows = workspace.windowList ? workspace.windowList() : workspace.clientList();
    var count = 0;
    for (var j = 0; j < windows.length; j++) {
        var w = windows[j];
        if (wanted[String(w.internalId)] === true && w.minimizable) {
            w.minimized = true;
            count++;
        }
    }
    callDBus(agent, path, iface, "MinimizeDone", count);
});
"""#
}
