# The Plasma 5 applet's main.qml as Plasma 6 has it (desktop/plasma/install.sh, PLASMA=6): imports
# without versions, the executable engine from Plasma5Support, a PlasmoidItem whose own properties
# replace Plasmoid's attached ones. The views and code/status.js are the same in both.
1s/for Plasma 5/for Plasma 6 (made by install.sh from the Plasma 5 main.qml with plasma6\/port.sed)/
s/^import QtQuick 2\.15$/import QtQuick/
s/^import QtQml 2\.15$/import QtQml/
s/^import org\.kde\.plasma\.plasmoid 2\.0$/import org.kde.plasma.plasmoid/
s/^import org\.kde\.plasma\.core 2\.0 as PlasmaCore$/import org.kde.plasma.core as PlasmaCore\
import org.kde.plasma.plasma5support as Plasma5Support/
s/^import org\.kde\.kirigami 2\.20 as Kirigami$/import org.kde.kirigami as Kirigami/
s/^Item {$/PlasmoidItem {/
s/^    Plasmoid\.\(toolTipMainText\|toolTipSubText\|switchWidth\|switchHeight\|onExpandedChanged\|compactRepresentation\|fullRepresentation\):/    \1:/
s/Plasmoid\.expanded = !Plasmoid\.expanded/root.expanded = !root.expanded/
s/!Plasmoid\.expanded/!expanded/
s/PlasmaCore\.DataSource/Plasma5Support.DataSource/
