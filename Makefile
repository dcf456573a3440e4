# podsim: `make run` plays the demo (or SCENARIO=file.yaml), `make test` is what CI runs.
GO ?= go
BIN := bin/podsim
SCENARIO ?=

.PHONY: build run test fmt-check vet unit scenarios bench clean

build:
	$(GO) build -o $(BIN) ./cmd/podsim

run: build
	./$(BIN) run $(SCENARIO)

test: fmt-check vet unit scenarios

fmt-check:
	@out=$$(gofmt -l .); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

unit:
	$(GO) test ./...

scenarios: build
	./$(BIN) test scenarios

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./sim/ ./model/

clean:
	rm -rf bin
