// In the panel: the mode's icon and today's total, or the focused app's limit once it is near.
import QtQuick 2.15
import QtQuick.Layouts 1.15
import QtQml 2.15
import org.kde.plasma.components 3.0 as PlasmaComponents3
import org.kde.kirigami 2.20 as Kirigami

MouseArea {
    id: compact

    property var view
    property bool showText: true
    signal activated()

    LayoutMirroring.enabled: Qt.application.layoutDirection === Qt.RightToLeft
    LayoutMirroring.childrenInherit: true

    Layout.minimumWidth: row.implicitWidth
    Layout.preferredWidth: row.implicitWidth
    implicitWidth: row.implicitWidth
    implicitHeight: row.implicitHeight

    activeFocusOnTab: true
    hoverEnabled: true
    onClicked: activated()
    Keys.onPressed: (event) => {
        if (event.key === Qt.Key_Space || event.key === Qt.Key_Return || event.key === Qt.Key_Enter || event.key === Qt.Key_Select) {
            activated()
            event.accepted = true
        }
    }
    LoggingCategory {
        id: compactLog
        name: "org.screentime.applet"
        defaultLogLevel: LoggingCategory.Warning
    }
    // The category is valid only once built: the first line is logged then.
    property bool built: false
    Component.onCompleted: {
        built = true
        console.debug(compactLog, "compact: " + view.compactText)
        Qt.callLater(reportPlaces)
    }
    // Test read-back of the icon's and the label's centres in the window: mirrored right to left.
    function reportPlaces() {
        var places = [[modeIcon, "icon"], [textLabel, "label"]].filter(function (entry) { return entry[0].visible }).map(function (entry) {
            var centre = entry[0].mapToItem(null, entry[0].width / 2, entry[0].height / 2)
            return entry[1] + " " + Math.round(centre.x) + " " + Math.round(centre.y)
        })
        console.debug(compactLog, "compact places: " + places.join("; "))
    }

    Accessible.role: Accessible.Button
    Accessible.name: view.title
    Accessible.description: view.subtitle

    RowLayout {
        id: row
        anchors.fill: parent
        spacing: Kirigami.Units.smallSpacing

        Kirigami.Icon {
            id: modeIcon
            onXChanged: if (compact.built) Qt.callLater(compact.reportPlaces)
            Layout.fillHeight: true
            Layout.preferredWidth: height
            Layout.minimumWidth: Kirigami.Units.iconSizes.small
            source: Qt.resolvedUrl("../icons/" + compact.view.icon + ".svg")
            // Monochrome in the theme's text colour: symbolic, and dark themes follow.
            isMask: true
            color: Kirigami.Theme.textColor
            active: compact.containsMouse || compact.activeFocus
        }
        PlasmaComponents3.Label {
            id: textLabel
            onXChanged: if (compact.built) Qt.callLater(compact.reportPlaces)
            visible: compact.showText
            text: compact.view.compactText
            // Test read-back of what the panel shows (off unless QT_LOGGING_RULES turns it on).
            onTextChanged: if (compact.built) console.debug(compactLog, "compact: " + text)
            Layout.fillHeight: true
            verticalAlignment: Text.AlignVCenter
        }
    }
}
