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
work=$(mktemp -d "${TMPDIR:-/tmp}/screentime-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
staging="$work/root"
if [ -n "$prebuilt" ]; then
    make -s install-files DESTDIR="$staging" PREFIX=/usr BUILD_DIR="$prebuilt"
else
    make -s install DESTDIR="$staging" PREFIX=/usr
fi
# Debian ships binaries stripped (half the size) and manual pages compressed.
strip --strip-unneeded "$staging/usr/bin/screentime" "$staging/usr/bin/screentime-reader" "$staging/usr/bin/screentime-agent" "$staging/usr/bin/screentime-card" \
    "$staging/usr/bin/screentime-browser-host"
gzip -9n "$staging/usr/share/man/man1/screentime.1"
install -Dm644 README.md "$staging/usr/share/doc/screentime/README.md"
# The packages of the libraries the binaries link, with their minimum versions (the Swift runtime
# is linked in statically; a prebuilt debug build links this machine's, which no package provides).
mkdir -p "$work/debian" && touch "$work/debian/control"
depends=$(cd "$work" && dpkg-shlibdeps -O ${prebuilt:+--ignore-missing-info} \
    -e "$staging/usr/bin/screentime" -e "$staging/usr/bin/screentime-reader" -e "$staging/usr/bin/screentime-agent" \
    -e "$staging/usr/bin/screentime-card" -e "$staging/usr/bin/screentime-browser-host" 2>"$work/shlibdeps.log" \
    | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "build-deb.sh: dpkg-shlibdeps found no dependencies:" >&2; cat "$work/shlibdeps.log" >&2; exit 1; }
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
