#!/bin/sh
# Regenerates Sources/Agent/screentime-agent/hot-code.order, the functions the agent's loop runs,
# which its release link places together (Package.swift): counted by callgrind in the x11
# benchmark (`scripts/bench.sh x11`: cards, reopens, focus switching), from the settled agent's
# first card to the end (instrumented from then only: a start under callgrind would outlast the
# benchmark's wait). Needs valgrind (apt-get install valgrind). Run it after changing what the
# loop runs; a stale list costs resident memory only, never behaviour.
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
case "\$1" in started) callgrind_control --instr=on "\$2" ;; ending) callgrind_control --dump "\$2" ;; esac >/dev/null
EOF
chmod +x "$work/screentime-agent" "$work/hook"
SCREENTIME_BIN_DIR="$work" SCREENTIME_BENCH_HOOK="$work/hook" .build/release/screentime-bench 60
order=Sources/Agent/screentime-agent/hot-code.order
{
    echo "# The functions the agent's loop runs, from scripts/generate-hot-code-order.sh; lld's --symbol-ordering-file."
    # Every function of the agent with a cost in the dump taken at "ending" (recursion levels as 'N).
    callgrind_annotate --threshold=100 --inclusive=yes "$work/callgrind.out.1" | grep -F "[$work/agent]" \
        | sed -E "s/^ *[0-9,]+ \([^)]*\) +//; s/ \[.*\]$//; s/^[^:]*://; s/'[0-9]+$//" \
        | grep -v -e '^0x' -e '^(below main)$' | LC_ALL=C sort -u
} > "$order"
echo "$order: $(grep -vc '^#' "$order") functions"
