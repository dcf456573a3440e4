# podsim: `make run` plays the demo (or SCENARIO=file.yaml), `make test` is what CI runs.
GO ?= go
BIN := bin/podsim
SCENARIO ?=

.PHONY: build run test fmt-check vet lint unit scenarios bench bench-peer clean


build:
	$(GO) build -buildvcs=auto -o $(BIN) ./cmd/podsim   # auto: podsim version names the commit

run: build
	./$(BIN) run $(SCENARIO)

test: fmt-check vet lint unit scenarios

fmt-check:
	@out=$$(gofmt -l .); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

lint:   # staticcheck is a tool dependency: its version lives in go.mod
	$(GO) tool staticcheck ./...

unit:
	$(GO) test ./...

scenarios: build
	./$(BIN) test scenarios

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./sim/ ./model/

# The crash-loop fleet in podsim and in SimPy side by side (installs Debian's
# python3-simpy3 if no Python has SimPy), then 10k pods and the 150k envelope.
bench-peer: build
	bench/peer.sh $(BIN)

clean:
	rm -rf bin
