package serve

import (
	"bytes"
	"flag"
	"os"
	"testing"

	openapiv2 "github.com/google/gnostic-models/openapiv2"
	"google.golang.org/protobuf/proto"
)

var updateOpenAPI = flag.Bool("update", false, "rewrite the OpenAPI documents in openapi/ from the served types")

// TestOpenAPIV2ProtoIsTheJSON checks that the embedded protobuf of
// /openapi/v2 is the JSON document podsim builds, parsed and encoded by
// gnostic as the API server's is: a change to the served types or paths
// must rewrite it (-update).
func TestOpenAPIV2ProtoIsTheJSON(t *testing.T) {
	doc, err := openapiv2.ParseDocument(buildOpenAPI().v2JSON)
	if err != nil {
		t.Fatal(err)
	}
	want, err := proto.MarshalOptions{Deterministic: true}.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	if *updateOpenAPI {
		if err := os.WriteFile("openapi/v2.pb", want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(mustRead(t, "openapi/v2.pb"), want) {
		t.Fatal("openapi/v2.pb is not the JSON document of /openapi/v2: run go test ./serve -run OpenAPI -update")
	}
}

func mustRead(t *testing.T, name string) []byte {
	b, err := openAPIFiles.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
