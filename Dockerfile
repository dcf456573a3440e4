# podsim in a container, for running studies as a Kubernetes Indexed Job
# (deploy/, docs/distributed-sweeps.md):
#   make image                      # or:
#   docker build --build-arg VERSION=$(git describe --always --dirty) -t podsim:dev .
# A static binary (CGO_ENABLED=0) on distroless static, as the non-root user.

FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# The build context has no .git, so the version comes in as an argument;
# podsim version and every shard file name it.
ARG VERSION=unknown
# -tags minimal: gonum/plot without the canvases podsim does not draw on (see the Makefile).
RUN CGO_ENABLED=0 go build -tags minimal -trimpath -buildvcs=false \
      -ldflags "-s -w -X main.buildVersion=${VERSION}" \
      -o /out/podsim ./cmd/podsim

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/podsim /usr/local/bin/podsim
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/podsim"]
