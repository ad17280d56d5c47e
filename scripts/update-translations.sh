#!/bin/sh
# The desktop widgets' translations: regenerates each widget's template (.pot) from its sources
# with xgettext and merges it into every language's .po (msgmerge), for translators to fill in.
# With --check, changes nothing: fails when a source's string is missing from its template or a
# .po leaves one untranslated or fuzzy (the tests run this).
# Widgets: the GNOME Shell extension (gettext's `_`, domain screentime) and the Plasma applet
# (KDE's i18n calls, domain plasma_applet_org.screentime.status).
# Usage: scripts/update-translations.sh [--check]
set -eu
cd "$(dirname "$0")/.."
command -v xgettext >/dev/null || { echo "update-translations.sh: xgettext is missing (Debian: gettext)" >&2; exit 1; }
check=""
[ "${1:-}" = "--check" ] && check=1
scratch=$(mktemp -d "${TMPDIR:-/tmp}/screentime-pot.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

# Locations by file only: line numbers would change the templates at every unrelated edit.
common="--from-code=UTF-8 --language=JavaScript --add-location=file --no-wrap --package-name=screentime --sort-by-file"

gnome_template() {
    # shellcheck disable=SC2086
    xgettext $common --keyword=_ -o "$1" desktop/gnome-shell/indicator.js
}

plasma_template() {
    # QML is close enough to JavaScript for xgettext to find the calls, as KDE's own Messages.sh do.
    # shellcheck disable=SC2086
    (cd desktop/plasma/org.screentime.status && xgettext $common --keyword= --keyword=i18n:1 --keyword=i18nc:1c,2 \
        --keyword=i18np:1,2 --keyword=i18ncp:1c,2,3 -o "$1" contents/ui/*.qml contents/code/*.js)
}

failed=""
for widget in gnome plasma; do
    case $widget in
        gnome) po=desktop/gnome-shell/po; template=$po/screentime.pot ;;
        plasma) po=desktop/plasma/po; template=$po/plasma_applet_org.screentime.status.pot ;;
    esac
    fresh="$scratch/$widget.pot"
    "${widget}_template" "$fresh"
    if [ -n "$check" ]; then
        # Both ways: every string in the sources is in the template, and no stale one stays in it.
        msgcmp --use-untranslated "$template" "$fresh" || { echo "$template: out of date: run scripts/update-translations.sh" >&2; failed=1; }
        msgcmp --use-untranslated "$fresh" "$template" || { echo "$template: has strings no source has: run scripts/update-translations.sh" >&2; failed=1; }
        for catalogue in "$po"/*.po; do
            # Every template string translated, none fuzzy; the placeholders checked by msgfmt.
            msgcmp "$catalogue" "$template" || { echo "$catalogue: incomplete" >&2; failed=1; }
            msgfmt --check --statistics -o /dev/null "$catalogue" 2>"$scratch/statistics" || failed=1
            cat "$scratch/statistics" >&2
            ! grep -qE "fuzzy|untranslated" "$scratch/statistics" || { echo "$catalogue: fuzzy or untranslated entries" >&2; failed=1; }
        done
    else
        mkdir -p "$po" && cp "$fresh" "$template"
        for catalogue in "$po"/*.po; do
            [ -e "$catalogue" ] || continue
            msgmerge --quiet --update --backup=none --no-wrap --add-location=file "$catalogue" "$template"
        done
    fi
done
[ -z "$failed" ] || exit 1
