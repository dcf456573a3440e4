package manifests

import (
	"os"
	"testing"
)

// FuzzParse: any bytes read as manifests (or a scenario) give a scenario or
// FILE:LINE:COL errors, never a panic. Coverage-guided fuzzing is slow here
// (k8s.io/api's generated code is all instrumented), so make fuzz leaves it
// out; a binary built without coverage (go test -c) fuzzes it blind.
func FuzzParse(f *testing.F) {
	if data, err := os.ReadFile(shopApp); err == nil {
		f.Add(data)
	}
	f.Add([]byte(deployment))
	f.Add([]byte("apiVersion: v1\nkind: List\nitems:\n- &a {apiVersion: v1, kind: Pod, metadata: {name: p}, spec: {containers: [{name: c, image: i}]}}\n- *a\n"))
	f.Add([]byte("apiVersion: v1\nkind: Pod\nmetadata: &m {name: p, <<: *m}\n"))
	f.Add([]byte(`{"apiVersion": "batch/v1", "kind": "Job", "spec": {"completions": 1e99}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := NewReader().Parse("f.yaml", data)
		if (s == nil) == (err == nil) {
			t.Fatalf("scenario %v and error %v", s, err)
		}
	})
}
