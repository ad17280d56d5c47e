#!/bin/sh
# Installs the Plasma applet (org.screentime.status), naming the `screentime` in BINDIR: a panel's
# environment may lack ~/.local/bin in PATH. For Plasma 6 (PLASMA=6, a Plasma 6 session, or only
# kpackagetool6 installed) the package is the same with plasma6/'s metadata.json, and its main.qml
# made from the Plasma 5 one by plasma6/port.sed (the few names Plasma 6 changed). The
# translations (po/) are compiled into the package's contents/locale, where Plasma looks for an
# applet's own catalogues (domain plasma_applet_ID).
# Usage: desktop/plasma/install.sh BINDIR               for the current user (kpackagetool5 where
#                                                        there is one, else ~/.local/share/plasma/plasmoids)
#        desktop/plasma/install.sh BINDIR --into DIR    into DIR/org.screentime.status (make install)
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
id="org.screentime.status"
bindir="${1:?usage: desktop/plasma/install.sh BINDIR [--into DIR]}"
case "$bindir" in /*) ;; *) bindir="$(cd "$bindir" && pwd)" ;; esac
into=""
command -v msgfmt >/dev/null || { echo "install.sh: msgfmt is missing (Debian: gettext)" >&2; exit 1; }
[ "${2:-}" = "--into" ] && into="${3:?--into needs a folder}"

stage=$(mktemp -d "${TMPDIR:-/tmp}/screentime-plasmoid.XXXXXX")
trap 'rm -rf "$stage"' EXIT
cp -R "$here/$id" "$stage/$id"
# The project's symbolic icons, as GNOME's extension has them (the applet draws them as masks in
# the theme's text colour).
mkdir -p "$stage/$id/contents/icons" && cp "$here"/../../packaging/icons/*-symbolic.svg "$stage/$id/contents/icons/"
sed "s|@BIN@|$bindir|g" "$here/$id/contents/config/main.xml" > "$stage/$id/contents/config/main.xml"
for catalogue in "$here"/po/*.po; do
    language=$(basename "$catalogue" .po)
    mkdir -p "$stage/$id/contents/locale/$language/LC_MESSAGES"
    msgfmt --check -o "$stage/$id/contents/locale/$language/LC_MESSAGES/plasma_applet_$id.mo" "$catalogue"
done
plasma="${PLASMA:-${KDE_SESSION_VERSION:-}}"
if [ -z "$plasma" ] && ! command -v kpackagetool5 >/dev/null 2>&1 && command -v kpackagetool6 >/dev/null 2>&1; then plasma=6; fi
if [ "$plasma" = 6 ]; then
    cp "$here/plasma6/metadata.json" "$stage/$id/metadata.json"
    sed -f "$here/plasma6/port.sed" "$here/$id/contents/ui/main.qml" > "$stage/$id/contents/ui/main.qml"
fi
tool=kpackagetool5
[ "$plasma" = 6 ] && tool=kpackagetool6
find "$stage/$id" -type d -exec chmod 755 {} + && find "$stage/$id" -type f -exec chmod 644 {} +

if [ -n "$into" ]; then
    mkdir -p "$into" && rm -rf "${into:?}/$id" && cp -R "$stage/$id" "$into/$id"
elif command -v "$tool" >/dev/null 2>&1; then
    # Upgrade keeps the applet in panels that already hold it; install is for the first time.
    "$tool" --type Plasma/Applet --upgrade "$stage/$id" >/dev/null 2>&1 \
        || "$tool" --type Plasma/Applet --install "$stage/$id" >/dev/null
    echo "screentime: Plasma applet installed: right-click the panel, Add Widgets…, “Screen Time”"
else
    plasmoids="${XDG_DATA_HOME:-$HOME/.local/share}/plasma/plasmoids"
    mkdir -p "$plasmoids" && rm -rf "${plasmoids:?}/$id" && cp -R "$stage/$id" "$plasmoids/$id"
    echo "screentime: Plasma applet installed in $plasmoids/$id"
fi
