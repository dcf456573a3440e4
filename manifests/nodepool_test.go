package manifests

import (
	"strings"
	"testing"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/scenarios"
)

// The NodePool manifest under testdata is simulated through a scenario that
// includes it: its requirements (arch, capacity type, instance type NotIn)
// leave m5.2xlarge as the cheapest type for six 1-cpu pods, and its
// template's label is on the node, where the pods' nodeSelector finds it.
func TestNodePoolManifestSimulated(t *testing.T) {
	s, err := NewReader().Load("../testdata/manifests/karpenter/scenario.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r := s.Start(scenarios.RunOptions{Until: s.Duration})
	r.Run(nil)
	var launched []*model.Node
	for _, n := range r.World.Nodes() {
		if n.Group == "general" {
			launched = append(launched, n)
		}
	}
	if len(launched) != 1 {
		t.Fatalf("%d nodes of NodePool general, want 1", len(launched))
	}
	n := launched[0]
	if it := n.Labels["node.kubernetes.io/instance-type"]; it != "m5.2xlarge" || n.Labels["team"] != "web" {
		t.Errorf("node %s: instance type %q, team %q", n.Name, it, n.Labels["team"])
	}
	if len(n.Pods()) != 6 {
		t.Errorf("%d pods on %s, want 6", len(n.Pods()), n.Name)
	}
}

// A NodePool's fields are checked strictly, with line:col, as the API
// server checks a custom resource against its schema; its values by the
// scenario's validation.
func TestNodePoolManifestErrors(t *testing.T) {
	src := `apiVersion: karpenter.sh/v1
kind: NodePool
metadata: {name: p}
spec:
  template:
    spec:
      requirments: []
      expireAfter: 10
  disruption: {consolidateAfter: 5x}
`
	_, err := NewReader().Parse("np.yaml", []byte(src))
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		`np.yaml:7:7: unknown field "requirments" in v1.NodeClaimSpec; did you mean "requirements"?`,
		`np.yaml:8:20: expected a string, found the integer 10`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in\n%v", want, err)
		}
	}
	src = strings.NewReplacer("      requirments: []\n", "", "expireAfter: 10", "expireAfter: 10d").Replace(src)
	_, err = NewReader().Parse("np.yaml", []byte(src))
	for _, want := range []string{`np.yaml:7:20: expireAfter "10d"`, `np.yaml:8:34: consolidateAfter "5x"`, `spec.instanceTypes lists none`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in\n%v", want, err)
		}
	}
}
