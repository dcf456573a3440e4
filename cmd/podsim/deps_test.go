package main

import (
	"os/exec"
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
// process: report lays out its tables itself (report/table.go).
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
			strings.HasPrefix(p, "github.com/olekukonko/") {
			t.Errorf("podsim links %s", p)
		}
	}
	if len(deps) < 100 {
		t.Fatalf("go list -deps named %d packages; want the binary's", len(deps))
	}
}
