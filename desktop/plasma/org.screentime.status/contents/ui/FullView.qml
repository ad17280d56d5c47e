// The popup: the mode and why, the next change, today's total and the top apps, and the buttons
// of the `screentime` commands that matter now. In Wind Down and Sleep the analytics give way to
// the evening's and the night's buttons.
import QtQuick 2.15
import QtQuick.Layouts 1.15
import QtQml 2.15
import QtQuick.Window 2.15
import org.kde.plasma.components 3.0 as PlasmaComponents3
import org.kde.kirigami 2.20 as Kirigami

Item {
    id: full

    property var view
    property string question: ""
    property string message: ""
    // A command's words after `screentime`, e.g. ["mode", "productivity"].
    signal commandRequested(var args)
    signal questionAnswered(bool leave)
    signal reportRequested()

    LayoutMirroring.enabled: Qt.application.layoutDirection === Qt.RightToLeft
    LayoutMirroring.childrenInherit: true

    // The mode the switches show, followed only while the popup is on screen: their indicators
    // move with render-thread Animators, which a hidden popup never runs, and Qt's animation timer
    // would tick (about 10 ms of CPU a second) from the first change until the popup opened.
    property string switchedMode: ""
    Binding on switchedMode {
        when: full.Window.visibility !== Window.Hidden
        value: full.view.mode
        restoreMode: Binding.RestoreNone
    }

    Layout.minimumWidth: Kirigami.Units.gridUnit * 16
    Layout.preferredWidth: Kirigami.Units.gridUnit * 20
    Layout.minimumHeight: column.implicitHeight + Kirigami.Units.largeSpacing * 2
    Layout.preferredHeight: column.implicitHeight + Kirigami.Units.largeSpacing * 2

    // Test read-back: each shown button's centre in the window, to be clicked as a user would.
    function reportPlaces() {
        var buttons = [[bedtimeButton, "bedtime"], [stayUpButton, "stay-up"], [startDayButton, "start-day"],
                       [breakButton, "break"], [productivitySwitch, "productivity"], [socialSwitch, "social"],
                       [reportButton, "report"]]
        var places = buttons.filter(function (entry) { return entry[0].visible && entry[0].width > 0 }).map(function (entry) {
            var centre = entry[0].mapToItem(null, entry[0].width / 2, entry[0].height / 2)
            return entry[1] + " " + Math.round(centre.x) + " " + Math.round(centre.y)
        })
        console.debug(testPlaces, "buttons: " + places.join("; "))
    }
    // Once the layout has settled after a change (the containment resizes the applet in steps):
    // a one-shot, restarted by each move, never a running timer.
    Timer {
        id: placesSettle
        interval: 150
        onTriggered: full.reportPlaces()
    }
    LoggingCategory {
        id: testPlaces
        name: "org.screentime.applet"
        defaultLogLevel: LoggingCategory.Warning
    }

    ColumnLayout {
        id: column
        anchors.fill: parent
        anchors.margins: Kirigami.Units.largeSpacing
        spacing: Kirigami.Units.smallSpacing

        // No agent: say so, and how to start it.
        ColumnLayout {
            visible: !full.view.running
            Layout.fillWidth: true
            Kirigami.Heading {
                level: 3
                text: full.view.title
                wrapMode: Text.Wrap
                Layout.fillWidth: true
            }
            PlasmaComponents3.Label {
                text: full.view.subtitle
                wrapMode: Text.Wrap
                Layout.fillWidth: true
            }
        }

        RowLayout {
            visible: full.view.running
            Layout.fillWidth: true
            spacing: Kirigami.Units.largeSpacing
            Kirigami.Icon {
                source: Qt.resolvedUrl("../icons/" + full.view.icon + ".svg")
                isMask: true
                color: Kirigami.Theme.textColor
                Layout.preferredWidth: Kirigami.Units.iconSizes.medium
                Layout.preferredHeight: Kirigami.Units.iconSizes.medium
            }
            ColumnLayout {
                Layout.fillWidth: true
                spacing: 0
                Kirigami.Heading {
                    level: 3
                    text: full.view.modeName
                    Layout.fillWidth: true
                }
                PlasmaComponents3.Label {
                    text: full.view.reason
                    wrapMode: Text.Wrap
                    opacity: 0.8
                    Layout.fillWidth: true
                }
            }
        }

        PlasmaComponents3.Label {
            visible: full.view.running && text !== ""
            text: [full.view.next, full.view.breakText].filter(function (line) { return line !== "" }).join("\n")
            wrapMode: Text.Wrap
            Layout.fillWidth: true
        }

        // Today's use: not in Wind Down and Sleep, where only the way to bed matters.
        ColumnLayout {
            visible: full.view.running && !full.view.quiet
            Layout.fillWidth: true
            spacing: 0
            Kirigami.Heading {
                level: 4
                text: full.view.total
                Layout.fillWidth: true
            }
            Repeater {
                model: full.view.apps
                delegate: RowLayout {
                    Layout.fillWidth: true
                    PlasmaComponents3.Label {
                        text: modelData.name
                        font.bold: modelData.counting
                        elide: Text.ElideRight
                        Layout.fillWidth: true
                    }
                    PlasmaComponents3.Label {
                        text: modelData.detail
                        opacity: 0.8
                    }
                }
            }
            PlasmaComponents3.Label {
                visible: full.view.apps.length === 0
                text: i18n("No app time yet today.")
                opacity: 0.8
            }
        }

        // The night's buttons first: in Wind Down and Sleep they are the point.
        PlasmaComponents3.Button {
            id: bedtimeButton
            onActiveFocusChanged: if (activeFocus) console.debug(testPlaces, "focus: bedtime")
            visible: full.view.running && full.view.canBedtime
            text: i18n("Go to bed")
            Layout.fillWidth: true
            onClicked: full.commandRequested(["bedtime"])
            onVisibleChanged: placesSettle.restart()
            onYChanged: placesSettle.restart()
        }
        PlasmaComponents3.Button {
            id: stayUpButton
            onActiveFocusChanged: if (activeFocus) console.debug(testPlaces, "focus: stay-up")
            visible: full.view.running && full.view.canStayUp
            text: i18n("Stay up")
            Layout.fillWidth: true
            onClicked: full.commandRequested(["stay-up"])
            onVisibleChanged: placesSettle.restart()
            onYChanged: placesSettle.restart()
        }
        PlasmaComponents3.Button {
            id: startDayButton
            onActiveFocusChanged: if (activeFocus) console.debug(testPlaces, "focus: start-day")
            visible: full.view.running && full.view.canStartDay
            text: i18n("Start the day")
            Layout.fillWidth: true
            onClicked: full.commandRequested(["start-day"])
            onVisibleChanged: placesSettle.restart()
            onYChanged: placesSettle.restart()
        }
        PlasmaComponents3.Button {
            id: breakButton
            onActiveFocusChanged: if (activeFocus) console.debug(testPlaces, "focus: break")
            visible: full.view.running && full.view.canBreak
            text: i18n("Take a break now")
            Layout.fillWidth: true
            onClicked: full.commandRequested(["break"])
            onVisibleChanged: placesSettle.restart()
            onYChanged: placesSettle.restart()
        }

        // On: `mode productivity`; off: `mode auto`, back to the schedule, as the command says.
        PlasmaComponents3.Switch {
            id: productivitySwitch
            onActiveFocusChanged: if (activeFocus) console.debug(testPlaces, "focus: productivity")
            visible: full.view.running
            text: i18n("Productivity")
            checked: full.switchedMode === "productivity"
            Layout.fillWidth: true
            onToggled: {
                full.commandRequested(["mode", checked ? "productivity" : "standard"])
                // It shows what the agent says, not the click, until the agent's signal.
                checked = Qt.binding(function () { return full.switchedMode === "productivity" })
            }
            onVisibleChanged: placesSettle.restart()
            onYChanged: placesSettle.restart()
        }
        PlasmaComponents3.Switch {
            id: socialSwitch
            onActiveFocusChanged: if (activeFocus) console.debug(testPlaces, "focus: social")
            visible: full.view.running
            text: i18n("Social")
            checked: full.switchedMode === "social"
            Layout.fillWidth: true
            onToggled: {
                full.commandRequested(["mode", checked ? "social" : "standard"])
                checked = Qt.binding(function () { return full.switchedMode === "social" })
            }
            onVisibleChanged: placesSettle.restart()
            onYChanged: placesSettle.restart()
        }

        // Leaving a scheduled mode early is a continue: asked here as on a terminal.
        ColumnLayout {
            visible: full.question !== ""
            Layout.fillWidth: true
            PlasmaComponents3.Label {
                text: full.question
                wrapMode: Text.Wrap
                Layout.fillWidth: true
            }
            RowLayout {
                PlasmaComponents3.Button {
                    text: i18nc("leave the scheduled mode early", "Leave early")
                    onClicked: full.questionAnswered(true)
                }
                PlasmaComponents3.Button {
                    text: i18nc("keep the scheduled mode", "Keep it")
                    onClicked: full.questionAnswered(false)
                }
            }
        }

        PlasmaComponents3.Label {
            visible: full.message !== ""
            text: full.message
            wrapMode: Text.Wrap
            maximumLineCount: 2
            elide: Text.ElideRight
            opacity: 0.8
            Layout.fillWidth: true
        }

        PlasmaComponents3.Button {
            id: reportButton
            onActiveFocusChanged: if (activeFocus) console.debug(testPlaces, "focus: report")
            visible: full.view.running
            text: i18n("Open report")
            icon.name: "view-statistics"
            Layout.fillWidth: true
            onClicked: full.reportRequested()
            onVisibleChanged: placesSettle.restart()
            onYChanged: placesSettle.restart()
        }

        Item { Layout.fillHeight: true }
    }

    onWidthChanged: placesSettle.restart()
    onHeightChanged: placesSettle.restart()
}
