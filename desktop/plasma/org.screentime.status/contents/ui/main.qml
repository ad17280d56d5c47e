// The Screen Time applet for Plasma 5: the agent's status in the panel and its buttons in the
// popup. It speaks to the agent only through the `screentime` command (QML in Plasma 5 has no
// D-Bus), so every button does what the command of the same name does, and it wakes only when
// the agent signals a change: `status --json --next` exits at the next StatusChanged and is run
// again (never a timer), told the mode shown so that a change between two runs shows at once.
import QtQuick 2.15
import QtQml 2.15
import org.kde.plasma.plasmoid 2.0
import org.kde.plasma.core 2.0 as PlasmaCore
import org.kde.kirigami 2.20 as Kirigami
import "../code/status.js" as Status

Item {
    id: root

    // The last status document read, null before the first or while no agent runs.
    property var document: null
    property bool running: false
    property date fetchedAt: new Date()
    // The time shown: moved on when a document arrives or the popup opens, never by a timer.
    property date now: new Date()
    // The watcher gave up (no session bus, no `screentime`); opening the popup tries again.
    property bool watching: false
    // Leaving a scheduled mode early asks first, as the command does on a terminal.
    property string question: ""
    property var questionArguments: []
    // The last command's answer (its output, or what went wrong), shown in the popup.
    property string message: ""

    readonly property string cli: Plasmoid.configuration.command
    readonly property var view: Status.view(document, running, fetchedAt, now)
    readonly property string shown: Status.shownLine(view, question, message)

    Plasmoid.icon: Qt.resolvedUrl("../icons/" + view.icon + ".svg")
    Plasmoid.toolTipMainText: view.title
    Plasmoid.toolTipSubText: view.subtitle
    Plasmoid.switchWidth: Kirigami.Units.gridUnit * 12
    Plasmoid.switchHeight: Kirigami.Units.gridUnit * 12
    Plasmoid.onExpandedChanged: {
        if (!Plasmoid.expanded) {
            message = "" // a command's answer belongs to the popup it was pressed in
            return
        }
        now = new Date()
        if (!watching)
            watch()
    }

    Plasmoid.compactRepresentation: CompactView {
        view: root.view
        showText: Plasmoid.formFactor !== PlasmaCore.Types.Vertical
        onActivated: Plasmoid.expanded = !Plasmoid.expanded
    }

    Plasmoid.fullRepresentation: FullView {
        view: root.view
        question: root.question
        message: root.message
        onCommandRequested: root.runCommand(args)
        onQuestionAnswered: {
            if (leave)
                root.runCommand(root.questionArguments)
            root.question = ""
        }
        onReportRequested: root.openReport()
    }

    // The test's read-back: off unless QT_LOGGING_RULES="org.screentime.applet.debug=true".
    LoggingCategory {
        id: testLog
        name: "org.screentime.applet"
        defaultLogLevel: LoggingCategory.Warning
    }
    // The category is valid only once built: the first line is logged when the applet is.
    property bool built: false
    onShownChanged: if (built) console.debug(testLog, "shown: " + shown)

    // The mode shown ("off": no agent; "" before the first answer, which is then at once).
    property string shownMode: ""

    function watch() {
        watching = true
        watcher.connectSource(Status.commandLine(cli, ["status", "--json", "--next", "--shown", shownMode]))
    }

    PlasmaCore.DataSource {
        id: watcher
        engine: "executable"
        onNewData: {
            disconnectSource(sourceName)
            var code = data["exit code"]
            if (code === 0) {
                var parsed = null
                try { parsed = JSON.parse(data["stdout"]) } catch (error) { parsed = null }
                root.running = parsed !== null && parsed.running !== false
                root.document = root.running ? parsed : null
            } else {
                root.running = false
                root.document = null
            }
            root.fetchedAt = new Date()
            root.now = root.fetchedAt
            root.shownMode = root.running ? root.document.mode : "off"
            // A failure (no session bus, no command) would fail again at once: stop until asked.
            if (code === 0)
                Qt.callLater(root.watch)
            else {
                root.watching = false
                root.shownMode = ""
                if (code !== 69)
                    root.message = (data["stderr"] || "").trim() || i18n("“%1” could not be run.", root.cli)
            }
        }
    }

    // A button's command: its output is the answer shown; the status follows by the signal.
    function runCommand(args) {
        message = ""
        actions.purposes[Status.commandLine(cli, args)] = args
        actions.connectSource(Status.commandLine(cli, args))
    }

    function openReport() {
        message = ""
        // The page is written where only this user can read it, then opened in the user's browser.
        var command = "page=\"${XDG_RUNTIME_DIR:-$HOME}/screentime-report.html\"; "
            + Status.commandLine(cli, ["report", "today", "--html"]) + " \"$page\" >/dev/null && printf '%s' \"$page\""
        actions.purposes[command] = "report"
        actions.connectSource(command)
    }

    PlasmaCore.DataSource {
        id: actions
        engine: "executable"
        property var purposes: ({})
        onNewData: {
            disconnectSource(sourceName)
            var purpose = purposes[sourceName]
            delete purposes[sourceName]
            var out = (data["stdout"] || "").trim()
            var err = (data["stderr"] || "").trim()
            if (purpose === "report") {
                if (data["exit code"] === 0)
                    Qt.openUrlExternally("file://" + out)
                else
                    root.message = err
                return
            }
            // `mode` asks before leaving a scheduled mode early and, off a terminal, stops there
            // (exit 1, the question on its output): the popup asks, and "Leave" adds --yes.
            if (data["exit code"] === 1 && purpose[0] === "mode" && err.indexOf("--yes") !== -1 && out !== "") {
                root.question = out
                root.questionArguments = purpose.concat(["--yes"])
                return
            }
            // A command's first line says what it did; the rest speaks of terminal commands.
            root.message = data["exit code"] === 0 ? out.split("\n")[0] : (err || out)
        }
    }

    Component.onCompleted: {
        built = true
        console.debug(testLog, "shown: " + shown)
        watch()
    }
}
