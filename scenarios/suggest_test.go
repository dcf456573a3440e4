package scenarios

import (
	"strings"
	"testing"
)

// A misspelled pod, workload, container or node in behaviour, faults and
// expectations gets the name meant, as a misspelled field does.
func TestNamesGetSuggestions(t *testing.T) {
	const head = `apiVersion: podsim/v1
kind: Scenario
metadata: {name: s}
spec:
  nodes: [{name: node-a}]
  pods:
  - metadata: {name: web}
    spec: {containers: [{name: app, image: img}]}
  workloads:
  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: api}
    spec: {template: {spec: {containers: [{name: server, image: img}]}}}
`
	for _, c := range []struct{ tail, want string }{
		{"  behavior: [{pod: wbe, container: app}]\n", `s.yaml:14:20: no pod or workload called "wbe"; did you mean "web"?`},
		{"  behavior: [{pod: web, container: ap}]\n", `s.yaml:14:36: pod web has no container "ap"; did you mean "app"?`},
		{"  behavior: [{pod: apj, container: server}]\n", `s.yaml:14:20: no pod or workload called "apj"; did you mean "api"?`},
		{"  faults: [{at: 1m, delete: {pod: wen}}]\n", `s.yaml:14:35: no pod or workload called "wen"; did you mean "web"?`},
		{"  faults: [{at: 1m, scale: {workload: apu, replicas: 2}}]\n", `s.yaml:14:39: no workload called "apu"; did you mean "api"?`},
		{"  faults: [{at: 1m, drain: {node: node-b}}]\n", `s.yaml:14:35: no node called "node-b"; did you mean "node-a"?`},
		{"  expect: [{workload: aip, condition: {type: Available, status: \"True\"}, at: 1m}]\n", `no workload called "aip"; did you mean "api"?`},
		{"  behavior: [{pod: zzzzz, container: app}]\n", `s.yaml:14:20: no pod or workload called "zzzzz"`},
	} {
		_, err := Parse("s.yaml", []byte(head+c.tail))
		if err == nil || !strings.HasSuffix(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %s", strings.TrimSpace(c.tail), err, c.want)
		}
	}
}
