package serve

import (
	"bytes"
	"flag"
	"os"
	"testing"

	openapiv2 "github.com/google/gnostic-models/openapiv2"
	"google.golang.org/protobuf/proto"
)

var updateOpenAPI = flag.Bool("update", false, "rewrite openapi-v2.pb from the JSON document")

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
		if err := os.WriteFile("openapi-v2.pb", want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(openAPIV2Proto, want) {
		t.Fatal("openapi-v2.pb is not the JSON document of /openapi/v2: run go test ./serve -run OpenAPIV2Proto -update")
	}
}
