#!/bin/sh
# Builds the Debian package screentime_VERSION_ARCH.deb from `make install DESTDIR=staging PREFIX=/usr`.
# Usage: scripts/build-deb.sh [--prebuilt DIR] [--output DIR]
#   --prebuilt DIR  package the binaries already built in DIR (the tests pass .build/debug, whose
#                   binaries need this machine's Swift runtime) instead of a release build
#   --output DIR    where the .deb is written (default: .build/deb); its path is printed last
set -eu
cd "$(dirname "$0")/.."
prebuilt="" output=".build/deb"
while [ $# -gt 0 ]; do
    case "$1" in
        --prebuilt) prebuilt="$2"; shift 2 ;;
        --output) output="$2"; shift 2 ;;
        *) echo "build-deb.sh: unknown argument \"$1\" (see the usage at the top of scripts/build-deb.sh)" >&2; exit 64 ;;
    esac
done
version=$(make -s version)
arch=$(dpkg --print-architecture)
mkdir -p "$output"
staging=$(mktemp -d "${TMPDIR:-/tmp}/screentime-deb.XXXXXX")
trap 'rm -rf "$staging"' EXIT
if [ -n "$prebuilt" ]; then
    make -s install-files DESTDIR="$staging" PREFIX=/usr BUILD_DIR="$prebuilt"
else
    make -s install DESTDIR="$staging" PREFIX=/usr
fi
# Debian keeps manual pages compressed.
gzip -9n "$staging/usr/share/man/man1/screentime.1"
install -Dm644 README.md "$staging/usr/share/doc/screentime/README.md"
# The libraries the binaries link (the Swift runtime is linked in statically), by their Debian 12 names.
depends="libc6, libgtk-3-0, libgtk-layer-shell0, libdbus-1-3, libsqlite3-0, libical3, libcurl4, libxml2, libwayland-client0, libx11-6, libxrandr2, libxss1, libxext6"
mkdir -p "$staging/DEBIAN"
cat > "$staging/DEBIAN/control" <<CONTROL
Package: screentime
Version: $version
Architecture: $arch
Maintainer: screentime developers <screentime@screentime.org>
Installed-Size: $(du -sk --exclude=DEBIAN "$staging" | cut -f1)
Depends: $depends
Recommends: dunst | notification-daemon
Section: utils
Priority: optional
Description: Screen Time for the Linux desktop
 An agent counts the time each app spends in front of you, warns before an
 app's daily limit runs out, then minimizes it and lets you choose to continue.
 Modes (Productivity, Social, Wind Down, Sleep, Wake Up, Cheat Day) change what
 is allowed and how the screen looks, by hand, on a schedule or from a calendar.
 The agent starts at login (XDG autostart, or the systemd user unit).
CONTROL
deb="$output/screentime_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$staging" "$deb" >/dev/null
echo "$deb"
