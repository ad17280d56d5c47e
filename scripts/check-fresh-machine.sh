#!/bin/sh
# Runs the README's two commands, in order, on a Debian 12 that never ran them: a minimal
# debootstrap chroot with this machine's Swift at /opt/swift (read-only) and a clean clone of the
# current commit. What a newcomer's fresh machine would print, without the packages and files
# earlier runs left here. Needs root, debootstrap and Debian's mirror.
# Usage: scripts/check-fresh-machine.sh [FOLDER]   (default /var/tmp/screentime-fresh; made anew)
set -eu
repo=$(cd "$(dirname "$0")/.." && pwd)
root=${1:-/var/tmp/screentime-fresh}
[ "$(id -u)" -eq 0 ] || { echo "check-fresh-machine: run as root (debootstrap, chroot, mounts)" >&2; exit 2; }
command -v debootstrap >/dev/null || { echo "check-fresh-machine: apt-get install debootstrap" >&2; exit 2; }

unmount() { for m in opt/swift dev/shm dev/pts dev sys proc run tmp; do umount -l "$root/$m" 2>/dev/null || true; done; }
unmount
rm -rf "$root"
# The bare system is kept beside it (FOLDER.base) for the next check.
[ -d "$root.base" ] || debootstrap --variant=minbase bookworm "$root.base" http://deb.debian.org/debian
cp -a "$root.base" "$root"
trap unmount EXIT
mkdir -p "$root/opt/swift"
mount --bind /opt/swift "$root/opt/swift" && mount -o remount,bind,ro "$root/opt/swift"
mount -t proc proc "$root/proc"
mount -t sysfs sys "$root/sys"
mount --bind /dev "$root/dev"
mount -t devpts devpts "$root/dev/pts"
mount -t tmpfs tmpfs "$root/dev/shm"
mount -t tmpfs tmpfs "$root/run"
mount -t tmpfs -o mode=1777 tmpfs "$root/tmp"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# This machine's own certificate authorities (a proxy's, where one stands between it and PyPI)
# are the chroot's too, once ca-certificates is installed there: pip then reaches PyPI as here.
mkdir -p "$root/usr/local/share/ca-certificates"
cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/" 2>/dev/null || true
# git is not in a minimal Debian: the clone is made from outside, as CI clones main.
git clone --quiet "$repo" "$root/root/screentime"
git -C "$root/root/screentime" checkout --quiet "$(git -C "$repo" rev-parse HEAD)"
# A login's environment, nothing of this shell's.
session="/usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin TERM=dumb"
# The packages come from the mirror; the tests then run in a network namespace of their own with
# only loopback, so their X displays (abstract sockets are per namespace) cannot meet this
# machine's, and nothing leaves the machine.
chroot "$root" $session /bin/sh -c "cd /root/screentime && apt-get update -qq && ./install.sh && scripts/install-deps.sh --test"
unshare --net /bin/sh -c "ip link set lo up && chroot '$root' $session /bin/sh -c 'cd /root/screentime && scripts/test.sh'"
