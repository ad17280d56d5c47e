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
