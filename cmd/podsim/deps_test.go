package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Every package the binary links runs its init in every podsim process,
// whatever the command, and maps its code: podsim links none of the API
// machinery's serializers (a CodecFactory and its JSON, YAML, protobuf,
// recognizer and versioning serializers; sigs.k8s.io/yaml), nor client-go.
// serve decodes the few bodies it reads itself (serve/body.go). The CBOR
// packages under serializer/ come with k8s.io/apimachinery/pkg/runtime and
// stay. Nor tablewriter, whose init built a 0.7 MB width table in every
// process: report lays out its tables itself (report/table.go). Nor gnostic
// and Go's protobuf runtime: serve's /openapi/v2 in protobuf is encoded at
// build time (serve/openapi-v2.pb).
func TestBinaryLinksNoSerializers(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(goCmd, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	const serializer = "k8s.io/apimachinery/pkg/runtime/serializer"
	deps := strings.Fields(string(out))
	for _, p := range deps {
		if p == serializer || strings.HasPrefix(p, serializer+"/") && !strings.HasPrefix(p, serializer+"/cbor/") ||
			p == "sigs.k8s.io/yaml" || strings.HasPrefix(p, "k8s.io/client-go/") ||
			strings.HasPrefix(p, "github.com/olekukonko/") || strings.HasPrefix(p, "github.com/google/gnostic-models/") ||
			strings.HasPrefix(p, "google.golang.org/protobuf/") {
			t.Errorf("podsim links %s", p)
		}
	}
	if len(deps) < 100 {
		t.Fatalf("go list -deps named %d packages; want the binary's", len(deps))
	}
}

// make build and the image build with -tags minimal, so that gonum/plot
// links only the PNG and SVG canvases report draws on: its PDF, EPS and
// TeX canvases (the PDF writer registers gob types at init) would cost
// every process their inits.
func TestBuildLinksOnlyTheCanvasesDrawnOn(t *testing.T) {
	for _, f := range []string{"Makefile", "Dockerfile"} {
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), " build -tags minimal ") {
			t.Errorf("%s builds podsim without -tags minimal", f)
		}
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(goCmd, "list", "-tags", "minimal", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, p := range strings.Fields(string(out)) {
		if p == "encoding/gob" || strings.HasPrefix(p, "codeberg.org/go-pdf/") || p == "gonum.org/v1/plot/vg/vgpdf" ||
			p == "gonum.org/v1/plot/vg/vgeps" || p == "gonum.org/v1/plot/vg/vgtex" {
			t.Errorf("podsim built with -tags minimal links %s", p)
		}
	}
}
