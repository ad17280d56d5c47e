#!/bin/sh
# Regenerates Sources/Agent/screentime-agent/hot-code.order, the functions the agent's loop runs,
# the most called first, which its release link places together in that order (Package.swift):
# counted by callgrind in the x11 benchmark (`scripts/bench.sh x11`: cards, reopens, focus
# switching), from the settled agent's first card on (instrumented from then only: a start under
# callgrind would outlast the benchmark's wait), the focus switching's functions first. Needs
# valgrind (apt-get install valgrind). Run it after changing what the loop runs; a stale list
# costs memory and CPU only (the code of a turn spread over more pages), never behaviour.
set -eu
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
command -v valgrind >/dev/null || { echo "generate-hot-code-order: needs valgrind (apt-get install valgrind)" >&2; exit 1; }
for product in screentime screentime-reader screentime-agent screentime-floor screentime-card; do
    swift build -c release --static-swift-stdlib --scratch-path .build/static --product "$product"
done
swift build -c release --product screentime-bench
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for product in screentime screentime-reader screentime-floor screentime-card; do cp ".build/static/release/$product" "$work/"; done
# valgrind cannot read the toolchain's DWARF 5; the symbol table is all it needs.
strip -g -o "$work/agent" .build/static/release/screentime-agent
cat > "$work/screentime-agent" <<EOF
#!/bin/sh
exec valgrind --tool=callgrind --instr-atstart=no --demangle=no --log-file=$work/valgrind.log --callgrind-out-file=$work/callgrind.out $work/agent "\$@"
EOF
cat > "$work/hook" <<EOF
#!/bin/sh
case "\$1" in started) callgrind_control --instr=on "\$2" ;; switching|ending) callgrind_control --dump "\$2" ;; esac >/dev/null
EOF
chmod +x "$work/screentime-agent" "$work/hook"
SCREENTIME_BIN_DIR="$work" SCREENTIME_BENCH_HOOK="$work/hook" .build/release/screentime-bench 60
# Each function of the agent in a dump, with how often it was called: the sum of its callers'
# "(Nx)" lines, which precede its own "*" line (recursion levels, 'N, as one); the most called first.
by_calls() {
    callgrind_annotate --tree=caller --threshold=100 "$1" \
        | awk -v agent="[$work/agent]" '
            / < .*\([0-9,]+x\)/ { match($0, /\([0-9,]+x\)/); n = substr($0, RSTART + 1, RLENGTH - 3); gsub(/,/, "", n); calls += n; next }
            / \* / { if (index($0, agent)) { sub(/^ *[0-9,]+ \([^)]*\) +\* +[^:]*:/, ""); sub(/ \[.*\]$/, ""); print calls, $0 }; calls = 0; next }
            /^$/ { calls = 0 }' \
        | sed -E "s/'[0-9]+$//" | grep -v -e ' 0x' -e ' (below main)$' \
        | awk '{ total[$2] += $1 } END { for (name in total) print total[name], name }' \
        | LC_ALL=C sort -k1,1nr -k2,2 | cut -d' ' -f2
}
order=Sources/Agent/screentime-agent/hot-code.order
# The loop while focus switches (the dump at "ending") first: the code of every turn lies together
# in a few pages. Then what only the reopens ran (the dump at "switching": disables, cards).
by_calls "$work/callgrind.out.2" > "$work/switching"
by_calls "$work/callgrind.out.1" | grep -vxF -f "$work/switching" > "$work/reopens" || true
{
    echo "# The functions the agent's loop runs, the most called first, from scripts/generate-hot-code-order.sh; lld's --symbol-ordering-file."
    cat "$work/switching" "$work/reopens"
} > "$order"
echo "$order: $(grep -vc '^#' "$order") functions"
