// What the applet shows, from one `screentime status --json` document (docs/DBUS.md, Status).
// Plain functions of their arguments, shared by the Plasma 5 and Plasma 6 packages; i18n() comes
// from the QML context that imports this file (no .pragma library, so it can see it).

// A limit this close shows in the panel instead of the day's total: the countdown's first mark
// (the status's countdownSeconds, `[general] countdown`); this is the agent's default, for an agent
// too old to say.
var nearLimitSeconds = 30 * 60

// The modes in which the evening's and the night's buttons take the analytics' place.
var quietModes = ["wind-down", "sleep"]

function duration(seconds) {
    var minutes = Math.floor(Math.max(0, seconds) / 60)
    if (minutes < 1)
        return i18nc("less than a minute of screen time", "< 1 min")
    var hours = Math.floor(minutes / 60)
    minutes = minutes % 60
    if (hours === 0)
        return i18nc("minutes of screen time", "%1 min", minutes)
    if (minutes === 0)
        return i18nc("hours of screen time", "%1 h", hours)
    return i18nc("hours and minutes of screen time", "%1 h %2 min", hours, minutes)
}

// The locale's short time without seconds (the C locale's short format has them).
function clockFormat() {
    return Qt.locale().timeFormat(Locale.ShortFormat).replace(/[:.]ss/, "")
}

function clock(date) {
    return Qt.formatTime(date, clockFormat())
}

// An instant `seconds` after the document was read, as a clock time (with the day when not today).
function clockAfter(fetchedAt, seconds, now) {
    // To the nearest minute: the agent's seconds are counted from a moment just before the read.
    var at = new Date(Math.round((fetchedAt.getTime() + seconds * 1000) / 60000) * 60000)
    if (at.toDateString() === now.toDateString())
        return clock(at)
    return Qt.formatDate(at, Qt.locale().dateFormat(Locale.ShortFormat)) + " " + clock(at)
}

// A mode (the document or its next change) named in the user's language; the agent names it in English.
function modeName(entry) {
    switch (entry.mode) {
    case "standard": return i18nc("a mode's name", "Standard")
    case "productivity": return i18nc("a mode's name", "Productivity")
    case "social": return i18nc("a mode's name", "Social")
    case "wind-down": return i18nc("a mode's name", "Wind Down")
    case "sleep": return i18nc("a mode's name", "Sleep")
    case "wake-up": return i18nc("a mode's name", "Wake Up")
    case "cheat-day": return i18nc("a mode's name", "Cheat Day")
    }
    return entry.modeName
}

function has(list, command) {
    return (list || []).indexOf(command) !== -1
}

// doc: the parsed document, or null before the first; running: whether an agent answered;
// fetchedAt: when the document was read; now: the time being shown (the app being counted has
// gone on counting since fetchedAt).
function view(doc, running, fetchedAt, now) {
    if (!running || !doc) {
        return {
            running: false, mode: "", modeName: "", icon: "screentime-symbolic",
            compactText: i18nc("in the panel while no agent runs", "Off"),
            title: i18n("Screen Time is not running"),
            subtitle: i18n("Start it with “systemctl --user start screentime”, or “screentime agent” in a terminal."),
            reason: "", next: "", breakText: "", total: "", apps: [], quiet: false,
            canBreak: false, canBedtime: false, canStayUp: false, canStartDay: false
        }
    }
    var elapsed = doc.active ? Math.max(0, (now.getTime() - fetchedAt.getTime()) / 1000) : 0
    var apps = (doc.apps || []).map(function (app) {
        var counting = app.state === "counting"
        return {
            id: app.id, name: app.name, state: app.state,
            used: app.usedSeconds + (counting ? elapsed : 0),
            limit: app.limitSeconds, remaining: app.remainingSeconds
        }
    })
    var countingNow = apps.some(function (app) { return app.state === "counting" })
    var total = doc.totalSeconds + (countingNow ? elapsed : 0)

    var compactText = duration(total)
    var focused = apps.filter(function (app) { return app.id === doc.focused })[0]
    if (focused && focused.state === "disabled") {
        compactText = i18nc("app name: its limit is reached", "%1: limit reached", focused.name)
    } else if (focused && focused.limit !== null && focused.limit !== undefined
               && focused.remaining !== null && focused.remaining !== undefined
               && focused.remaining <= (typeof doc.countdownSeconds === "number" ? doc.countdownSeconds : nearLimitSeconds)
               && (focused.state === "counting" || focused.state === "ok")) {
        // A clock time, not minutes left: the applet is told of changes, not of each minute.
        compactText = i18nc("app name: the clock time its limit is reached", "%1 until %2",
                            focused.name, clockAfter(fetchedAt, focused.remaining, now))
    }

    var next = ""
    if (doc.next)
        next = i18nc("the next mode, at a clock time", "Next: %1 at %2", modeName(doc.next),
                     clockAfter(fetchedAt, doc.next.inSeconds, now))
    var breakText = ""
    if (doc.breakSecondsLeft !== null && doc.breakSecondsLeft !== undefined)
        breakText = i18n("On a break until %1", clockAfter(fetchedAt, doc.breakSecondsLeft, now))
    else if (doc.nextBreakSeconds !== null && doc.nextBreakSeconds !== undefined)
        breakText = i18n("Next break at %1", clockAfter(fetchedAt, doc.nextBreakSeconds, now))

    var commands = doc.commands || []
    return {
        running: true, mode: doc.mode, modeName: modeName(doc), icon: "screentime-" + doc.mode + "-symbolic",
        compactText: compactText,
        title: i18nc("the mode: today's screen time", "%1 · %2", modeName(doc), duration(total)),
        subtitle: doc.reason,
        reason: doc.reason, next: next, breakText: breakText,
        total: i18n("Today: %1", duration(total)),
        apps: apps.slice(0, 5).map(function (app) {
            var detail = duration(app.used)
            if (app.state === "disabled")
                detail = i18nc("screen time, then: its limit is reached", "%1 · limit reached", detail)
            else if (app.limit !== null && app.limit !== undefined && app.remaining !== null && app.remaining !== undefined
                     && (app.state === "counting" || app.state === "ok"))
                detail = i18nc("screen time, then: of its daily limit", "%1 of %2", detail, duration(app.limit))
            return { name: app.name, detail: detail, counting: app.state === "counting" }
        }),
        quiet: quietModes.indexOf(doc.mode) !== -1,
        // The agent's own list of what matters now decides which buttons show (StatusFormat.commands).
        canBreak: has(commands, "screentime break"),
        canBedtime: has(commands, "screentime bedtime"),
        canStayUp: has(commands, "screentime stay-up"),
        canStartDay: has(commands, "screentime start-day") || doc.mode === "sleep"
    }
}

// One line a test can read back: everything the full and compact views show (test log only).
function shownLine(view, question, message) {
    var parts = [view.running ? "running" : "not-running", view.modeName, view.compactText, view.reason, view.next,
                 view.breakText, view.quiet ? "" : view.total]
    view.apps.forEach(function (app) { if (!view.quiet) parts.push(app.name + " " + app.detail) })
    if (question)
        parts.push("question: " + question)
    if (message)
        parts.push("message: " + message)
    return parts.filter(function (part) { return part !== "" }).join(" | ")
}

// A word for the shell: the executable engine runs a command line through /bin/sh.
function quoted(word) {
    return "'" + String(word).replace(/'/g, "'\\''") + "'"
}

function commandLine(cli, args) {
    return [cli].concat(args).map(quoted).join(" ")
}
