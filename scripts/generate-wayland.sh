#!/bin/sh
# Regenerates the Wayland protocol code of Sources/C/CWayland with wayland-scanner (libwayland-dev):
# client headers into include/, marshalling code beside them. The generated files are committed
# (SwiftPM build plugins cannot feed generated C into a C target), so run this after changing an
# XML file. ext-idle-notify-v1 comes from Debian's wayland-protocols; the protocols Debian lacks
# are kept in Sources/C/CWayland/protocols with their licences.
set -eu

cd "$(dirname "$0")/../Sources/C/CWayland"
system=$(pkg-config --variable=pkgdatadir wayland-protocols)

generate() {
    xml=$1
    name=$(basename "$xml" .xml)
    wayland-scanner client-header "$xml" "include/$name-client-protocol.h"
    wayland-scanner private-code "$xml" "$name-protocol.c"
}

generate "$system/staging/ext-idle-notify/ext-idle-notify-v1.xml"
for xml in protocols/*.xml; do generate "$xml"; done
