#!/usr/bin/env bash
# compare.sh OLD NEW [ARGS...]: is the build NEW faster than the build OLD
# at `podsim ARGS` (default: version)? Each binary is copied COPIES times
# (3, at least 2), and every copy runs ROUNDS times (30), all interleaved,
# the order reversed every other round, with stdout to /dev/null, or to
# the file OUT (overwritten each run, as peer.sh's `-o jsonl > file`). It
# prints the median wall time of each copy, then of each build, and NEW's
# difference. A run that fails stops it. Needs bash 5 (EPOCHREALTIME).
#
# Why copies: on a virtual machine, two copies of one binary can differ by
# 10% in start-up, run after run, as each copy's pages sit in its own
# place in memory (bench/README.md, "Comparing two builds"). A difference
# between the builds smaller than that between copies of one build is not
# the build's.
set -euo pipefail
export LC_ALL=C # EPOCHREALTIME, sort and awk with a decimal point
usage() {
	echo "usage: bench/compare.sh OLD NEW [ARGS...]  (COPIES=3, at least 2; ROUNDS=30)" >&2
	exit 2
}
copies=${COPIES:-3}
out=${OUT:-/dev/null}
rounds=${ROUNDS:-30}
if [ $# -lt 2 ] || ! [[ $copies =~ ^[1-9][0-9]*$ && $copies -ge 2 && $rounds =~ ^[1-9][0-9]*$ ]]; then
	usage
fi
if [ -z "${EPOCHREALTIME:-}" ]; then
	echo "compare.sh needs bash 5 or later (EPOCHREALTIME)" >&2
	exit 2
fi
old=$1 new=$2
shift 2
[ $# -gt 0 ] || set -- version
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Each copy is written as make build writes bin/podsim, in 16 MB writes,
# so that it sits in the page cache in 2 MB pages as that does (a cp of it
# would not: the Makefile's build), where the temporary directory's file
# system keeps files so (not tmpfs as usually mounted).
place() {
	dd if="$1" of="$2" bs=16M status=none
	chmod +x "$2"
}
bins=()
for i in $(seq "$copies"); do
	place "$old" "$tmp/old-$i"
	place "$new" "$tmp/new-$i"
	bins+=("$tmp/old-$i" "$tmp/new-$i")
done

# One line per run: the copy's name and its wall time in ms, timed with
# bash's own clock (no process of its own beside the run).
for r in $(seq "$rounds"); do
	order=("${bins[@]}")
	if ((r % 2 == 0)); then
		order=()
		for ((i = ${#bins[@]} - 1; i >= 0; i--)); do order+=("${bins[i]}"); done
	fi
	for b in "${order[@]}"; do
		t0=$EPOCHREALTIME
		"$b" "$@" >"$out" || {
			rc=$?
			echo "compare.sh: ${b##*/} $* exited $rc: it compares runs that succeed" >&2
			exit "$rc"
		}
		t1=$EPOCHREALTIME
		echo "${b##*/} $(((${t1/./} - ${t0/./}) / 1000)).$(((${t1/./} - ${t0/./}) % 1000 / 100))"
	done
done >"$tmp/runs"

# median FILE: the median of a column of numbers.
median() { sort -n "$1" | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

for build in old new; do
	for i in $(seq "$copies"); do
		awk -v c="$build-$i" '$1 == c {print $2}' "$tmp/runs" >"$tmp/$build-$i.ms"
		printf '%s copy %d: median %8.1f ms\n' "$build" "$i" "$(median "$tmp/$build-$i.ms")"
	done
	awk -v b="$build-" 'index($1, b) == 1 {print $2}' "$tmp/runs" >"$tmp/$build.ms"
done
o=$(median "$tmp/old.ms")
n=$(median "$tmp/new.ms")
spread() { for i in $(seq "$copies"); do median "$tmp/$1-$i.ms"; done | sort -n | awk 'NR == 1 {lo = $1} {hi = $1} END {print hi - lo}'; }
awk -v o="$o" -v n="$n" -v so="$(spread old)" -v sn="$(spread new)" -v runs="$((copies * rounds))" 'BEGIN {
	printf "old: median %.1f ms, new: median %.1f ms (%d runs each): new - old = %+.1f ms (%+.1f%%)\n", o, n, runs, n - o, (n - o) / o * 100
	printf "copies of one build differ by up to %.1f ms (old) and %.1f ms (new)\n", so, sn
}'
