#!/bin/sh
# Builds the extension for the installed GNOME Shell into DEST (its extension folder):
# GNOME 43/44 load the `imports` format, 45 and later ES modules; both share service.js.
# Usage: build.sh DEST [SHELL_MAJOR_VERSION]  (the version defaults to `gnome-shell --version`'s)
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
dest="$1"
major="${2:-$(gnome-shell --version | sed -n 's/^GNOME Shell \([0-9]*\).*/\1/p')}"
[ -n "$major" ] || { echo "build.sh: cannot tell the GNOME Shell version" >&2; exit 1; }
mkdir -p "$dest"
install -m644 "$here/metadata.json" "$dest/metadata.json"
if [ "$major" -ge 45 ]; then
    install -m644 "$here/extension-esm.js" "$dest/extension.js"
    { cat "$here/service.js"; echo; echo "export {createService};"; } > "$dest/service.js"
else
    install -m644 "$here/extension-legacy.js" "$dest/extension.js"
    install -m644 "$here/service.js" "$dest/service.js"
fi
