#!/usr/bin/env bash
# Peer benchmark (make bench-peer): the crash-loop fleet of bench/ (see README.md)
# in podsim and in SimPy, side by side in one run on this machine, printed as
# ratios. Absolute times on a shared machine vary; the ratios are the figure.
#
# Usage: bench/peer.sh [PODSIM_BINARY]   (default bin/podsim)
set -euo pipefail
cd "$(dirname "$0")/.."
podsim=${1:-bin/podsim}
dir=bench
runs=${RUNS:-3}

# A Python 3 with SimPy: the one on PATH if it has it, else Debian's.
py=python3
if ! "$py" -c 'import simpy' 2>/dev/null; then
	py=/usr/bin/python3
	if ! "$py" -c 'import simpy' 2>/dev/null; then
		echo "installing Debian's python3-simpy3 ..." >&2
		if [ "$(id -u)" = 0 ]; then sudo=""; else sudo=sudo; fi
		$sudo apt-get install -y python3-simpy3 >/dev/null 2>&1 || { $sudo apt-get update >/dev/null && $sudo apt-get install -y python3-simpy3 >/dev/null; }
	fi
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# measure NAME CMD...: the best wall time (s) and its peak RSS (KB) of $runs runs.
measure() {
	local name=$1 best="" rss=""; shift
	for _ in $(seq "$runs"); do
		/usr/bin/time -f '%e %M' -o "$tmp/t" "$@" >"$tmp/out" 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
		read -r s kb <"$tmp/t"
		if [ -z "$best" ] || awk "BEGIN{exit !($s < $best)}"; then best=$s rss=$kb; fi
	done
	echo "$name $best $rss"
}

runs_saved=$runs
runs=1
read -r _ simpy _ < <(measure simpy "$py" "$dir/fleet_simpy.py" 1000 6)
runs=$runs_saved
read -r _ test test_rss < <(measure test "$podsim" test "$dir/fleet.yaml")
read -r _ jsonl jsonl_rss < <(measure jsonl sh -c "'$podsim' run '$dir/fleet.yaml' -o jsonl > '$tmp/fleet.jsonl'")

# The same fleet with 10,000 pods (on 100 nodes) and the 150k envelope.
sed -e 's/replicas: 1000/replicas: 10000/' -e 's/count: 10,/count: 100,/' -e 's/fleet-1000/fleet-10000/' "$dir/fleet.yaml" >"$tmp/fleet-10k.yaml"
read -r _ test10k test10k_rss < <(measure test10k "$podsim" test "$tmp/fleet-10k.yaml")
runs=1
read -r _ big big_rss < <(measure big "$podsim" test "$dir/scale-150k.yaml")

ratio() { awk "BEGIN{printf \"%.1fx\", $1 / $2}"; }
printf 'fleet 1k pods x 6h, SimPy 3 (fleet_simpy.py 1000 6): %6.2f s\n' "$simpy"
printf 'fleet 1k pods x 6h, podsim test:                    %6.2f s  %4d MB  %s SimPy\n' "$test" $((test_rss / 1024)) "$(ratio "$simpy" "$test")"
printf 'fleet 1k pods x 6h, podsim run -o jsonl > file:     %6.2f s  %4d MB  %s SimPy\n' "$jsonl" $((jsonl_rss / 1024)) "$(ratio "$simpy" "$jsonl")"
printf 'fleet 10k pods x 6h, podsim test:                   %6.2f s  %4d MB\n' "$test10k" $((test10k_rss / 1024))
printf 'scale-150k.yaml (5,000 nodes, 150k pods, 1h), test: %6.2f s  %4d MB\n' "$big" $((big_rss / 1024))
