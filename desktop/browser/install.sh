#!/bin/sh
# Installs the browser extension and its native messaging host's manifests, the Debian way.
# Usage: desktop/browser/install.sh HOST [--root DIR]
#   HOST        the installed screentime-browser-host (an absolute path: the manifests name it)
#   --root DIR  install system-wide under DIR (a package's staging folder); as root, DIR is /
# System-wide, Chromium loads every folder in /usr/share/chromium/extensions (Debian's wrapper
# passes them to --load-extension) and Firefox ESR every one under
# /usr/share/mozilla/extensions/{ec8030f7-c20a-464f-9b0e-13a3a9e97384}/, as Debian's webext-*
# packages install them; each browser finds the host through its manifest folder. For one user
# (not root) the manifests go in the user's folders and the extension beside them, to be loaded
# once by hand (the script says how).
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
host="${1:?usage: desktop/browser/install.sh HOST [--root DIR]}"
shift
root="" quiet=""
# A package's staging folder (make install-files) is filled silently.
if [ "${1:-}" = "--root" ]; then root="${2:?--root needs a folder}" quiet=1; elif [ "$(id -u)" = 0 ]; then root="/"; fi
name="org.screentime.browser"
chromium_id="bgggkhdeebpkhdbkoidhnlpmadcmdcoc"
gecko_id="screentime@screentime.invalid"
firefox_app="{ec8030f7-c20a-464f-9b0e-13a3a9e97384}"

manifest() { # $1: file, $2: the allowed line
    mkdir -p "$(dirname "$1")"
    printf '{\n  "name": "%s",\n  "description": "Screen Time: the site of the tab in front, to the agent",\n  "path": "%s",\n  "type": "stdio",\n  %s\n}\n' \
        "$name" "$host" "$2" > "$1"
    chmod 644 "$1"
}
extension() { # $1: folder
    mkdir -p "$1"
    install -m644 "$here"/extension/*.js "$here"/extension/manifest.json "$1/"
}
chromium_allowed="\"allowed_origins\": [\"chrome-extension://$chromium_id/\"]"
firefox_allowed="\"allowed_extensions\": [\"$gecko_id\"]"

if [ -n "$root" ]; then
    root="${root%/}"
    extension "$root/usr/share/chromium/extensions/screentime"
    extension "$root/usr/share/mozilla/extensions/$firefox_app/$gecko_id"
    manifest "$root/etc/chromium/native-messaging-hosts/$name.json" "$chromium_allowed"
    manifest "$root/usr/lib/mozilla/native-messaging-hosts/$name.json" "$firefox_allowed"
    [ -n "$quiet" ] || echo "screentime: browser extension installed for Chromium and Firefox (restart them to load it)"
else
    config="${XDG_CONFIG_HOME:-$HOME/.config}"
    folder="${XDG_DATA_HOME:-$HOME/.local/share}/screentime/browser-extension"
    extension "$folder"
    manifest "$config/chromium/NativeMessagingHosts/$name.json" "$chromium_allowed"
    manifest "$HOME/.mozilla/native-messaging-hosts/$name.json" "$firefox_allowed"
    extension "$HOME/.mozilla/extensions/$firefox_app/$gecko_id"
    echo "screentime: browser extension copied to $folder; Chromium loads it once you add it in chrome://extensions"
    echo "            (Developer mode, Load unpacked) or run this as root for every user; Firefox ESR loads it from"
    echo "            ~/.mozilla/extensions when xpinstall.signatures.required is false (about:config)"
fi
