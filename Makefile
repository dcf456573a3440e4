# podsim: `make run` plays the demo (or SCENARIO=file.yaml), `make test` is what CI runs.
GO ?= go
BIN := bin/podsim
SCENARIO ?=

.PHONY: build run test fmt-check vet lint unit scenarios golden bench bench-peer clean

# staticcheck, fetched through the Go module proxy at a pinned version.
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2

build:
	$(GO) build -o $(BIN) ./cmd/podsim

run: build
	./$(BIN) run $(SCENARIO)

test: fmt-check vet lint unit scenarios

fmt-check:
	@out=$$(gofmt -l .); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

lint:
	$(GO) run $(STATICCHECK) ./...

unit:
	$(GO) test ./...

# Every library scenario's expectations, and its timeline against the golden
# file testdata/timelines/<name>.jsonl (rewrite them with `make golden`,
# then read the diff).
scenarios: build
	./$(BIN) test scenarios --golden testdata/timelines

golden: build
	./$(BIN) test scenarios --golden testdata/timelines --update

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./sim/ ./model/

# The crash-loop fleet in podsim and in SimPy side by side (installs Debian's
# python3-simpy3 if no Python has SimPy), then 10k pods and the 150k envelope.
bench-peer: build
	bench/peer.sh $(BIN)

clean:
	rm -rf bin
