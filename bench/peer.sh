#!/usr/bin/env bash
# Peer benchmark (make bench-peer): the crash-loop fleet of bench/ (see README.md)
# in podsim and in SimPy, side by side in one run on this machine, printed as
# ratios. Absolute times on a shared machine vary; the ratios are the figure.
#
# Usage: bench/peer.sh [PODSIM_BINARY]   (default bin/podsim)
# SCALING=0 leaves out the scaling curve (the fleet at 1k, 10k and 100k pods).
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

# measure NAME CMD...: the best wall time (s, to the millisecond) of $runs
# runs of CMD, its peak RSS (KB), and the first run's time (s). CMD's
# standard output goes to $OUT if set. The timed runs start CMD itself, as
# the start-up's do: /usr/bin/time, or a shell for a redirect, would add
# its own start to each (about 6 ms on a two-core virtual machine, 6% of
# the fleet's test). The RSS is that of one more run, under /usr/bin/time
# (NORSS=1 leaves it out: 0).
measure() {
	local name=$1 out=${OUT:-$tmp/out} best="" first="" kb=0 t0 t1 s; shift
	for _ in $(seq "$runs"); do
		t0=${EPOCHREALTIME/[.,]/}
		"$@" >"$out" 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
		t1=${EPOCHREALTIME/[.,]/}
		s=$(awk "BEGIN{printf \"%.3f\", ($t1 - $t0) / 1e6}")
		if [ -z "$best" ] || awk "BEGIN{exit !($s < $best)}"; then best=$s; fi
		[ -n "$first" ] || first=$s
	done
	if [ "${NORSS:-0}" != 1 ]; then
		/usr/bin/time -f '%M' -o "$tmp/t" "$@" >"$out" 2>"$tmp/err" || { cat "$tmp/err" >&2; exit 1; }
		read -r kb <"$tmp/t"
	fi
	echo "$name $best $kb $first"
}

# SimPy as podsim: the best of $runs (one run of it can take twice as long
# as the next on a shared machine, which would flatter podsim's ratio).
read -r _ simpy _ _ < <(NORSS=1 measure simpy "$py" "$dir/fleet_simpy.py" 1000 6)
read -r _ test test_rss _ < <(measure test "$podsim" test "$dir/fleet.yaml")
read -r _ jsonl jsonl_rss _ < <(OUT=$tmp/fleet.jsonl measure jsonl "$podsim" run "$dir/fleet.yaml" -o jsonl)
read -r _ text text_rss _ < <(OUT=$tmp/fleet.txt measure text "$podsim" run "$dir/fleet.yaml")

# The same fleet with 10,000 pods (on 100 nodes) and the 150k envelope.
sed -e 's/replicas: 1000/replicas: 10000/' -e 's/count: 10,/count: 100,/' -e 's/fleet-1000/fleet-10000/' "$dir/fleet.yaml" >"$tmp/fleet-10k.yaml"
read -r _ test10k test10k_rss _ < <(measure test10k "$podsim" test "$tmp/fleet-10k.yaml")
# The envelope's first run is often its slowest: on a virtual machine,
# memory the guest has not used lately costs the host's faults too. It is
# shown beside the best of $runs, which is the figure, as for the fleet.
read -r _ big big_rss big_first < <(measure big "$podsim" test "$dir/scale-150k.yaml")

ratio() { awk "BEGIN{printf \"%.1fx\", $1 / $2}"; }
printf 'fleet 1k pods x 6h, SimPy 3 (fleet_simpy.py 1000 6): %6.2f s\n' "$simpy"
printf 'fleet 1k pods x 6h, podsim test:                    %6.3f s  %4d MB  %s SimPy\n' "$test" $((test_rss / 1024)) "$(ratio "$simpy" "$test")"
printf 'fleet 1k pods x 6h, podsim run -o jsonl > file:     %6.3f s  %4d MB  %s SimPy\n' "$jsonl" $((jsonl_rss / 1024)) "$(ratio "$simpy" "$jsonl")"
printf 'fleet 1k pods x 6h, podsim run (text) > file:       %6.3f s  %4d MB  %s -o jsonl\n' "$text" $((text_rss / 1024)) "$(ratio "$text" "$jsonl")"
printf 'fleet 10k pods x 6h, podsim test:                   %6.2f s  %4d MB\n' "$test10k" $((test10k_rss / 1024))
printf 'scale-150k.yaml (5,000 nodes, 150k pods, 1h), test: %6.2f s  %4d MB  (first of %d runs: %.2f s)\n' "$big" $((big_rss / 1024)) "$runs" "$big_first"

# Start-up: the wall time of one podsim process that does next to nothing
# (podsim version; podsim validate on a one-pod scenario), the median of
# 300 processes, beside the same of /bin/true and of a Go program that
# only prints (the floors of any process and of any Go program on this
# machine): what a CI that runs one process per scenario pays per file.
# STARTUP=0 leaves it out.
if [ "${STARTUP:-1}" != 0 ]; then
	cat >"$tmp/tiny.yaml" <<'YAML'
apiVersion: podsim/v1
kind: Scenario
metadata: {name: tiny}
spec:
  duration: 1m
  nodes:
    - {name: node-a, capacity: {cpu: "4", memory: 8Gi, pods: 110}}
  pods:
    - metadata: {name: web}
      spec: {containers: [{name: app, image: example/web:1.4}]}
YAML
	startup() { # startup CMD...: the median wall time of one process, in ms
		local t0 t1
		for _ in $(seq 300); do
			t0=${EPOCHREALTIME/[.,]/} # microseconds, whatever the locale's decimal point
			"$@" >/dev/null || exit 1
			t1=${EPOCHREALTIME/[.,]/}
			echo $((t1 - t0))
		done | sort -n | awk '{v[NR] = $1} END{printf "%.2f", v[int((NR + 1) / 2)] / 1000}'
	}
	# The floor of any Go program here: one that only prints, built as
	# make build builds podsim (static, no symbol table).
	mkdir "$tmp/hello"
	printf 'module hello\n\ngo 1.22\n' >"$tmp/hello/go.mod"
	printf 'package main\n\nimport "os"\n\nfunc main() { os.Stdout.WriteString("hello\\n") }\n' >"$tmp/hello/main.go"
	(cd "$tmp/hello" && CGO_ENABLED=0 GOFLAGS= go build -ldflags "-s -w" -o hello .)
	floor=$(startup /bin/true)
	hello=$(startup "$tmp/hello/hello")
	version=$(startup "$podsim" version)
	validate=$(startup "$podsim" validate "$tmp/tiny.yaml")
	printf 'start-up: podsim version %5.2f ms, podsim validate (one pod) %5.2f ms per process; /bin/true %5.2f ms, a Go program that only prints %5.2f ms\n' \
		"$version" "$validate" "$floor" "$hello"
fi

# serve on the envelope: podsim serve --at 1h, the time until it serves
# the frozen cluster and its RSS then (the best of $runs starts, as test's
# envelope, with the first beside it), and, on the last, its RSS after one
# and three rounds of reads (kubectl get pods -A, get nodes, and plain lists
# of pods, nodes and events), with the time of kubectl get pods -A. SERVE=0
# leaves it out; it needs kubectl and curl.
if [ "${SERVE:-1}" != 0 ] && command -v kubectl >/dev/null && command -v curl >/dev/null; then
	serve_envelope() {
		local kc=$tmp/serve.kubeconfig err=$tmp/serve.err fifo=$tmp/serve.fifo start end pid addr t0 t1 frozen rss0 run best="" first="" r get1="" line fd drain
		rss() { awk '/^VmRSS/{print int($2 / 1024)}' "/proc/$pid/status"; }
		mkfifo "$fifo"
		for run in $(seq "$runs"); do
			: >"$err" # this start's lines only
			start=${EPOCHREALTIME/[.,]/}
			"$podsim" serve --at 1h --addr 127.0.0.1:0 --kubeconfig "$kc" "$dir/scale-150k.yaml" 2>"$fifo" &
			pid=$!
			# Its standard error is read line by line as it comes, by the
			# shell's own read, not looked at by processes started every
			# few milliseconds (grep, sleep): on a two-core virtual machine
			# they took the second core from the server, which then took
			# 1.4-1.9 s to freeze instead of 0.85-0.93 s.
			exec {fd}<"$fifo"
			end=""
			while IFS= read -r -u "$fd" line; do
				printf '%s\n' "$line" >>"$err"
				if [[ $line == "podsim serve: frozen at"* ]]; then
					end=${EPOCHREALTIME/[.,]/}
					break
				fi
			done
			[ -n "$end" ] || { cat "$err" >&2; exit 1; }
			cat <&"$fd" >>"$err" & # the rest, so that the server never waits to write it
			drain=$!
			exec {fd}<&-
			frozen=$(awk "BEGIN{printf \"%.2f\", ($end - $start) / 1e6}")
			[ -n "$first" ] || first=$frozen
			if [ -z "$best" ] || awk "BEGIN{exit !($frozen < $best)}"; then best=$frozen rss0=$(rss); fi
			[ "$run" = "$runs" ] && break
			kill "$pid"
			wait "$pid" "$drain" 2>/dev/null || true
		done
		addr=$(sed -n 's|.* at http://\([^;]*\);.*|\1|p' "$err" | head -1)
		declare -a after
		for r in 1 2 3; do
			t0=$(date +%s.%N)
			kubectl --kubeconfig "$kc" get pods -A --chunk-size=0 >"$tmp/pods.txt"
			t1=$(date +%s.%N)
			[ -z "$get1" ] && get1=$(awk "BEGIN{printf \"%.2f\", $t1 - $t0}")
			kubectl --kubeconfig "$kc" get nodes >/dev/null
			for p in pods nodes events; do curl -sf "http://$addr/api/v1/$p" >/dev/null; done
			after[r]=$(rss)
		done
		kill "$pid"
		wait "$pid" "$drain" 2>/dev/null || true
		printf 'scale-150k.yaml, serve --at 1h: frozen after %6.2f s  %4d MB  %s / %s test  (first of %d: %.2f s)\n' "$best" "$rss0" \
			"$(ratio "$best" "$big")" "$(ratio "$rss0" $((big_rss / 1024)))" "$runs" "$first"
		printf 'scale-150k.yaml, serve reads: %4d MB after 1 round, %4d MB after 3; kubectl get pods -A --chunk-size=0 %6.2f s\n' \
			"${after[1]}" "${after[3]}" "$get1"
	}
	serve_envelope
fi

# The scaling curve: the same fleet at 1k, 10k and 100k pods, 100 pods per
# node, each for 6h of virtual time (100k: 70M events, about 30 s). All
# three run as long, so the setup (3 s for 100k pods) weighs as much in
# each: 1h at 100k made the cost per event look twice the 1k fleet's. Its
# pods run in step, so the events grow with pods: the count of the 1k
# fleet (BenchmarkFleet's events/op) scaled gives each run's.
if [ "${SCALING:-1}" != 0 ]; then
	ev1k=$(go test -run '^$' -bench '^BenchmarkFleet$' -benchtime 1x ./model/ | awk '{for (i = 2; i <= NF; i++) if ($i == "events/op") print $(i-1)}')
	runs=1
	declare -A ns
	for pods in 1000 10000 100000; do
		sed -e "s/replicas: 1000/replicas: $pods/" -e "s/count: 10,/count: $((pods / 100)),/" -e "s/fleet-1000/fleet-$pods/" \
			"$dir/fleet.yaml" >"$tmp/fleet-$pods.yaml"
		read -r _ s kb _ < <(measure "scale$pods" "$podsim" test --max-events 0 "$tmp/fleet-$pods.yaml")
		ev=$(awk "BEGIN{printf \"%.0f\", $ev1k * $pods / 1000}")
		ns[$pods]=$(awk "BEGIN{printf \"%.0f\", $s * 1e9 / $ev}")
		printf 'scaling: fleet %6d pods x 6h: %6.2f s  %5d MB  %9d events  %4d ns/event\n' "$pods" "$s" $((kb / 1024)) "$ev" "${ns[$pods]}"
	done
	printf 'scaling: ns/event at 100k pods / at 1k: %s\n' "$(ratio "${ns[100000]}" "${ns[1000]}")"
fi
