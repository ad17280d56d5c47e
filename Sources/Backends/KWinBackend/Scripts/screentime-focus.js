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
