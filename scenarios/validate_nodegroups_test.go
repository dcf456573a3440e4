package scenarios

import (
	"strings"
	"testing"
	"time"
)

const groupsHead = "apiVersion: podsim/v1\nkind: Scenario\nmetadata: {name: t}\nspec:\n"

// Node groups and the Cluster Autoscaler: what they build, and each
// refusal at its line and column.
func TestNodeGroupValidation(t *testing.T) {
	ok := groupsHead + "  nodeGroups:\n    - {name: pool, min: 2, max: 5, bootTime: 3m, pricePerHour: 0.5, zone: z1, template: {capacity: {cpu: \"2\"}}}\n" +
		"  clusterAutoscaler: {expander: price, scaleDownUnneededTime: 5m}\n" +
		"  faults:\n    - {at: 1m, nodeGroupBootFailure: {group: pool, for: 10m}}\n" +
		"  expect:\n    - {nodeGroup: pool, nodes: 2}\n    - {pendingPods: 0}\n    - {event: {node: pool-7, reason: ScaleDown, count: 0}}\n"
	s, err := Parse("t.yaml", []byte(ok))
	if err != nil {
		t.Fatal(err)
	}
	st := s.Settings()
	g := st.NodeGroups[0]
	if g.Min != 2 || g.Max != 5 || g.BootTime != 3*time.Minute || g.Template.PricePerHour != 0.5 ||
		g.Template.Labels[zoneLabel] != "z1" || g.Template.Capacity.MilliCPU != 2000 || g.Template.Group != "pool" {
		t.Errorf("node group = %+v", g)
	}
	ca := st.ClusterAutoscaler
	if ca == nil || ca.Expander != "price" || ca.ScaleDownUnneededTime != 5*time.Minute || ca.ScanInterval != 10*time.Second ||
		ca.MaxNodeProvisionTime != 15*time.Minute || ca.ScaleDownUtilizationThreshold != 0.5 {
		t.Errorf("cluster autoscaler = %+v", ca)
	}
	w := s.Build()
	if n := w.Node("pool-1"); n == nil || n.Group != "pool" || !n.Ready() || w.Node("node-1") != nil {
		t.Errorf("nodes: pool-1 %v, node-1 %v", n, w.Node("node-1"))
	}
	for _, tc := range []struct{ yaml, want string }{
		{groupsHead + "  nodeGroups:\n    - {name: pool, min: 3, max: 2}\n", "t.yaml:6:33: max (2) must not be less than min (3)"},
		{groupsHead + "  nodeGroups:\n    - {name: pool, min: 1}\n", "t.yaml:6:7: node group pool: max is required"},
		{groupsHead + "  nodeGroups:\n    - {name: pool, max: 1}\n  clusterAutoscaler: {expander: leastwaste}\n",
			`t.yaml:7:33: expander "leastwaste": want one of least-waste, random, most-pods, priority, price; did you mean "least-waste"?`},
		{groupsHead + "  nodeGroups:\n    - {name: pool, max: 1}\n  clusterAutoscaler: {scaleDownUtilizationThreshold: 2}\n",
			"t.yaml:7:54: scaleDownUtilizationThreshold must be between 0 and 1"},
		{groupsHead + "  nodeGroups:\n    - {name: pool, max: 1}\n  faults:\n    - {at: 1m, nodeGroupBootFailure: {group: pol}}\n",
			`t.yaml:8:46: no node group called "pol"; did you mean "pool"?`},
		{groupsHead + "  nodeGroups:\n    - {name: pool, max: 1}\n  expect:\n    - {nodeGroup: pool}\n",
			"t.yaml:8:7: a node group expectation checks nodes, readyNodes or both"},
		{groupsHead + "  nodeGroups:\n    - {name: pool, max: 1}\n  expect:\n    - {nodes: 1}\n",
			"t.yaml:8:15: nodes and readyNodes are checked on a node group (nodeGroup: its name)"},
		{groupsHead + "  clusterAutoscaler: {}\n", "t.yaml:5:3: clusterAutoscaler: spec.nodeGroups lists no node group for it to resize"},
	} {
		_, err := Parse("t.yaml", []byte(tc.yaml))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s\ngot  %v\nwant %s", tc.yaml, err, tc.want)
		}
	}
}
