# podsim: `make run` plays the demo (or SCENARIO=file.yaml), `make test` is what CI runs.
GO ?= go
BIN := bin/podsim
SCENARIO ?=

.PHONY: build image run test test-browser kubectl fmt-check vet lint unit scenarios conformance golden bench bench-peer fuzz clean pgo

# A static binary (CGO_ENABLED=0, as the image's): podsim needs no libc,
# and a process that maps none starts 1.5 MB smaller (net, which serve
# links, would otherwise take the cgo resolver). -tags minimal: gonum/plot
# links only the PNG and SVG canvases podsim draws on, not its PDF, EPS
# and TeX ones, whose inits (the PDF writer's gob types) every process
# would run. -ldflags "-s -w", as the image's: no symbol table and no
# DWARF (stack traces and profiles keep their names, from the runtime's
# own tables); the binary is 25% smaller and each process starts about
# 0.7 ms (10%) sooner.
#
# The linker writes bin/podsim.link (kept, so that an unchanged build
# links nothing); when it differs from bin/podsim, it is copied there. On Linux
# the copy is made in 16 MB writes (dd): a file written so sits in the
# page cache in 2 MB pages (xfs since Linux 5.18, ext4 since 6.16), and
# every process then maps its code and read-only data in 2 MB pages,
# where the linker's own output sits in small pages that each process
# faults in one by one: about a fifth off each process's start-up on the
# project's VM (bench/README.md, "What a process costs before it runs").
# It lasts while the page cache keeps the file.
ifeq ($(shell uname -s),Linux)
COPY_BIN = dd if=$(BIN).link of=$(BIN).new bs=16M status=none
else
COPY_BIN = cp $(BIN).link $(BIN).new
endif

build:
	CGO_ENABLED=0 $(GO) build -tags minimal -ldflags "-s -w" -buildvcs=auto -o $(BIN).link ./cmd/podsim   # auto: podsim version names the commit
	cmp -s $(BIN).link $(BIN) || { $(COPY_BIN) && chmod +x $(BIN).new && mv -f $(BIN).new $(BIN); } || { rm -f $(BIN).new; exit 1; }

# The container image for distributed sweeps (Dockerfile, deploy/): with
# docker, else podman. IMAGE names it; the version is the commit's.
IMAGE ?= podsim:dev
VERSION ?= $(shell git describe --always --dirty 2>/dev/null || echo unknown)
CONTAINER ?= $(shell command -v docker 2>/dev/null || command -v podman 2>/dev/null)

image:
	@if [ -z "$(CONTAINER)" ]; then echo "make image needs docker or podman"; exit 1; fi
	$(CONTAINER) build --build-arg VERSION=$(VERSION) -t $(IMAGE) .

run: build
	./$(BIN) run $(SCENARIO)

test: fmt-check vet lint unit scenarios conformance

fmt-check:
	@out=$$(gofmt -l .); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

lint:   # staticcheck is a tool dependency: its version lives in go.mod
	$(GO) tool staticcheck ./...

unit:
	$(GO) test ./...

# Every library scenario's expectations, and its timeline against the golden
# file testdata/timelines/<name>.jsonl (rewrite them with `make golden`,
# then read the diff).
scenarios: build
	./$(BIN) test scenarios --golden testdata/timelines

# The conformance suite: upstream Kubernetes tests ported as scenarios, one
# per upstream case (docs/conformance.md). The cases podsim fails today wait
# in conformance/pending/ and are not run here (go test ./conformance/ checks
# that they still fail and that the README's counts are true).
CONFORMANCE := $(filter-out conformance/pending/,$(sort $(dir $(wildcard conformance/*/*.yaml))))

conformance: build
	./$(BIN) test $(CONFORMANCE)

golden: build
	./$(BIN) test scenarios --golden testdata/timelines --update

# The CPU profile every build of podsim is optimised with (Go's
# profile-guided optimisation reads cmd/podsim/default.pgo: hot calls
# inlined, the sinks' and parts' interface calls devirtualised): the
# crash-loop fleet's benchmarks, the model's and the JSON lines writer's,
# the OOM crash loop's (the hostile runaway) and the scheduler's, merged.
# Refresh it after a large change to the hot paths or a move of hot code
# to another package; a stale profile still builds, but can do worse than
# none.
pgo:
	set -e; tmp=$$(mktemp -d); \
	$(GO) test -run '^$$' -bench 'BenchmarkCrashLoopSteadyState$$|BenchmarkCrashLoopOOM$$|BenchmarkFleet$$|BenchmarkSchedule$$/1000nodes' -cpuprofile $$tmp/model.pprof -o $$tmp/model.test ./model/; \
	$(GO) test -run '^$$' -bench 'BenchmarkSchedulePod' -cpuprofile $$tmp/scheduler.pprof -o $$tmp/scheduler.test ./model/scheduler/; \
	$(GO) test -run '^$$' -bench 'BenchmarkFleet/everyTick=false' -cpuprofile $$tmp/report.pprof -o $$tmp/report.test ./report/; \
	$(GO) tool pprof -proto $$tmp/model.pprof $$tmp/scheduler.pprof $$tmp/report.pprof > cmd/podsim/default.pgo; \
	rm -rf $$tmp

# The pictures of `run -o html` in headless Chromium: the page's script runs
# without an error and draws its lanes, a screenshot shows the bars' colours.
# Installs Debian's chromium when there is none (as root, about 2 minutes);
# `make test` runs the same test only when a chromium is already there.
# SCREENSHOT=FILE keeps the demo's screenshot.
SCREENSHOT ?=

test-browser:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || { \
		echo "installing Debian's chromium"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }
	PODSIM_SCREENSHOT=$(abspath $(SCREENSHOT)) $(GO) test ./report/chart/ -run '^TestBrowser$$' -count=1 -v

# Every fuzz target in turn (go test -fuzz takes one per run), FUZZTIME each;
# (manifests' FuzzParse is left out: the coverage counters of k8s.io/api
# slow it to a few runs a minute; its corpus runs in go test);
# FUZZPARALLEL workers. Crashers land in the package's testdata/fuzz/ and
# plain `go test` replays them.
FUZZTIME ?= 1m
FUZZPARALLEL ?= 1
FUZZ_TARGETS := ./scenarios:FuzzParseScenario ./scenarios:FuzzLoadStudy ./scenarios:FuzzScalars \
	./sweep:FuzzReadShard ./internal/yamlstrict:FuzzDecode ./model:FuzzModel ./manifests:FuzzParse \
	./serve:FuzzRequests

fuzz:
	@set -e; for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; name=$${t##*:}; \
		echo "== $$name ($$pkg, $(FUZZTIME))"; \
		$(GO) test $$pkg -run '^$$' -fuzz "^$$name\$$" -fuzztime $(FUZZTIME) -parallel $(FUZZPARALLEL); \
	done

# kubectl for the tests that drive podsim serve with it (they skip without
# it; make test does not need it): Debian's kubernetes-client.
kubectl:
	@command -v kubectl >/dev/null || { apt-get update && apt-get install -y kubernetes-client; }

# ./model/... : the parts (kubelet, scheduler, controllers, proxy) keep
# their benchmarks in their own packages since they left the core.
bench:
	$(GO) test -run '^$$' -bench . -benchmem ./sim/ ./model/... ./serve/ ./report/...

# The crash-loop fleet in podsim and in SimPy side by side (installs Debian's
# python3-simpy3 if no Python has SimPy), then 10k pods and the 150k envelope.
bench-peer: build
	bench/peer.sh $(BIN)

clean:
	rm -rf bin
