package main

import (
	"debug/elf"
	"debug/gosym"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
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
// and Go's protobuf runtime: serve's OpenAPI documents, /openapi/v2 in
// protobuf among them, are made ahead of time (serve/openapi/).
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

// The k8s.io/api types' SwaggerDoc methods return tables of descriptions
// that their packages' inits build in every process that links the
// methods. podsim calls none (serve's OpenAPI documents are made ahead of
// time, serve/openapi_gen_test.go), so the linker leaves the methods out,
// and with them the larger tables: 60 KB of the 800 KB that a process
// allocates before main. This test binary links what podsim links, and
// more.
func TestBinaryLinksNoSwaggerDoc(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	f, err := elf.Open(exe)
	if err != nil {
		if runtime.GOOS == "linux" {
			t.Fatal(err)
		}
		t.Skipf("not an ELF binary: %v", err)
	}
	defer f.Close()
	pcln, text := f.Section(".gopclntab"), f.Section(".text")
	if pcln == nil || text == nil {
		t.Fatal("the binary has no Go function table (.gopclntab)")
	}
	data, err := pcln.Data()
	if err != nil {
		t.Fatal(err)
	}
	tab, err := gosym.NewTable(nil, gosym.NewLineTable(data, text.Addr))
	if err != nil {
		t.Fatal(err)
	}
	n, served := 0, false
	for _, fn := range tab.Funcs {
		served = served || fn.Name == "github.com/podsim/podsim/serve.(*Server).openAPI"
		if strings.HasSuffix(fn.Name, ".SwaggerDoc") {
			n++
			if n <= 3 {
				t.Errorf("podsim links %s", fn.Name)
			}
		}
	}
	if n > 3 {
		t.Errorf("and %d more SwaggerDoc methods", n-3)
	}
	if !served {
		t.Fatalf("the function table (%d functions) has no serve.(*Server).openAPI: want the binary's", len(tab.Funcs))
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
