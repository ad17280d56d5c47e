#!/bin/sh
# Builds the extension for the installed GNOME Shell into DEST (its extension folder):
# GNOME 43/44 load the `imports` format, 45 and later ES modules; both share service.js (the
# agent's focus and filter service) and indicator.js (the top bar and Quick Settings), its
# settings schema (compiled here, as GNOME Shell reads only the compiled form) and the modes'
# symbolic icons from packaging/icons, and the indicator's translations (po/, compiled: the shell
# binds the domain to the extension's own locale/ folder).
# Usage: build.sh DEST [SHELL_MAJOR_VERSION]  (the version defaults to `gnome-shell --version`'s)
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
dest="$1"
major="${2:-$(gnome-shell --version | sed -n 's/^GNOME Shell \([0-9]*\).*/\1/p')}"
[ -n "$major" ] || { echo "build.sh: cannot tell the GNOME Shell version" >&2; exit 1; }
command -v glib-compile-schemas >/dev/null || { echo "build.sh: glib-compile-schemas is missing (Debian: libglib2.0-bin)" >&2; exit 1; }
command -v msgfmt >/dev/null || { echo "build.sh: msgfmt is missing (Debian: gettext)" >&2; exit 1; }
mkdir -p "$dest/schemas" "$dest/icons"
install -m644 "$here/metadata.json" "$dest/metadata.json"
install -m644 "$here"/schemas/*.gschema.xml "$dest/schemas/"
glib-compile-schemas "$dest/schemas"
install -m644 "$here"/../../packaging/icons/*-symbolic.svg "$dest/icons/"
domain=$(sed -n 's/.*"gettext-domain": *"\([^"]*\)".*/\1/p' "$here/metadata.json")
for catalogue in "$here"/po/*.po; do
    language=$(basename "$catalogue" .po)
    mkdir -p "$dest/locale/$language/LC_MESSAGES"
    msgfmt --check -o "$dest/locale/$language/LC_MESSAGES/$domain.mo" "$catalogue"
done
if [ "$major" -ge 45 ]; then
    install -m644 "$here/extension-esm.js" "$dest/extension.js"
    { cat "$here/service.js"; echo; echo "export {createService};"; } > "$dest/service.js"
    { cat "$here/indicator.js"; echo; echo "export {createIndicator};"; } > "$dest/indicator.js"
else
    install -m644 "$here/extension-legacy.js" "$dest/extension.js"
    install -m644 "$here/service.js" "$dest/service.js"
    install -m644 "$here/indicator.js" "$dest/indicator.js"
fi
