package scenarios

import (
	"strings"
	"testing"
)

func TestParseRejectsWhatIsNotAScenario(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"empty", "", "x.yaml:1:1: empty file: want a podsim/v1 Scenario"},
		{"document marker only", "---\n", "x.yaml:1:1: empty file"},
		{"a list", "- a\n- b\n", "x.yaml:1:1: want a podsim/v1 Scenario: a mapping"},
		{"two documents", "apiVersion: podsim/v1\n---\nkind: x\n", "x.yaml:2:1: a scenario file holds one YAML document"},
		{"bad YAML", "a: [1,\n", "x.yaml:1:1: invalid YAML: did not find expected node content"},
		{"unknown node without a nodes section", `apiVersion: podsim/v1
kind: Scenario
metadata: {name: x}
spec:
  pods:
    - metadata: {name: a}
      spec:
        nodeName: nowhere
        containers: [{name: c, image: i:1}]
`, `x.yaml:8:19: pod a: nodeName "nowhere" is not a node of this scenario`},
	}
	for _, tc := range tests {
		_, err := Parse("x.yaml", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to contain %q", tc.name, err, tc.want)
		}
	}
}

func TestDefaultNodeNameIsValidWithoutNodes(t *testing.T) {
	src := `apiVersion: podsim/v1
kind: Scenario
metadata: {name: x}
spec:
  pods:
    - metadata: {name: a}
      spec:
        nodeName: node-1
        containers: [{name: c, image: i:1}]
`
	s, err := Parse("x.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if s.Duration.String() != "1h0m0s" || s.Seed != 1 {
		t.Errorf("defaults: duration %s seed %d, want 1h and 1", s.Duration, s.Seed)
	}
}

// A behavior for one pod of a workload would be dropped (a workload's pods
// all get the workload's behavior): it is refused at the pod's name.
func TestBehaviorOfAWorkloadsPodIsRefused(t *testing.T) {
	src := `apiVersion: podsim/v1
kind: Scenario
metadata: {name: wl}
spec:
  workloads:
    - apiVersion: apps/v1
      kind: ReplicaSet
      metadata: {name: api}
      spec:
        replicas: 2
        template:
          metadata: {labels: {app: api}}
          spec:
            containers: [{name: c, image: x}]
  behavior:
    - {pod: api-1, container: c, runs: [{exitAfter: 10s, exitCode: 1}]}
`
	_, err := Parse("x.yaml", []byte(src))
	if err == nil || !strings.Contains(err.Error(), `x.yaml:16:13: "api-1" is a pod of workload "api"`) {
		t.Fatalf("err = %v", err)
	}
	if _, err := Parse("x.yaml", []byte(strings.Replace(src, "pod: api-1", "pod: api", 1))); err != nil {
		t.Fatalf("naming the workload: %v", err)
	}
}

// A Kubernetes manifest where a scenario was expected gets one message
// saying what it is and where its object goes, not a list of unknown fields.
func TestKubernetesManifestGetsAHint(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\nspec:\n  replicas: 2\n",
			"x.yaml:1:13: this is a Kubernetes manifest (apps/v1 Deployment), not a podsim/v1 Scenario: run it directly or list it under spec.include"},
		{"apiVersion: v1\nkind: Service\nmetadata: {name: s}\n---\napiVersion: apps/v1\nkind: Deployment\n",
			"x.yaml:4:1: a scenario file holds one YAML document; found another; this is a Kubernetes manifest (v1)"},
	} {
		_, err := Parse("x.yaml", []byte(tc.src))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || strings.Count(err.Error(), "\n") > 0 {
			t.Errorf("got %v\nwant one line starting %q", err, tc.want)
		}
	}
}

// Names are unique per namespace: the same pod or workload name in two
// namespaces is fine, twice in one is not; a reference names its namespace
// (default: default) and gets a hint when the object is in another.
func TestNamespaces(t *testing.T) {
	head := "apiVersion: podsim/v1\nkind: Scenario\nmetadata: {name: ns}\nspec:\n  pods:\n" +
		"    - metadata: {name: web}\n      spec: {containers: [{name: c, image: i}]}\n" +
		"    - metadata: {name: web, namespace: blue}\n      spec: {containers: [{name: c, image: i}]}\n"
	for _, tc := range []struct{ body, want string }{
		{"  behavior:\n    - {pod: web, namespace: blue, container: c, runs: [{exitAfter: 1s}]}\n    - {pod: web, container: c, runs: [{exitAfter: 1s}]}\n", ""},
		{"    - metadata: {name: web, namespace: blue}\n      spec: {containers: [{name: c, image: i}]}\n",
			`x.yaml:10:24: duplicate pod name "web" in namespace blue`},
		{"    - metadata: {name: api, namespace: blue}\n      spec: {containers: [{name: c, image: i}]}\n  expect:\n    - {pod: api, ready: true}\n",
			`x.yaml:13:13: no pod or workload called "api"; there is one in namespace blue: add namespace: blue`},
		{"  expect:\n    - {pod: web, namespace: Blue, ready: true}\n", `x.yaml:11:29: namespace "Blue": want lowercase letters`},
		{"  expect:\n    - {node: node-1, namespace: blue, condition: {type: Ready, status: \"True\"}}\n", `x.yaml:11:22: a node has no namespace`},
		{"  expect:\n    - {pod: web, namespace: green, ready: true}\n", `x.yaml:11:13: no pod or workload called "web" in namespace green; there is one in namespace blue, default: add namespace: blue`},
	} {
		_, err := Parse("x.yaml", []byte(head+tc.body))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q: %v", tc.body, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("got %v\nwant an error starting %q", err, tc.want)
		}
	}
}
