package model

import (
	"maps"
	"testing"
)

// A node carries the labels its kubelet registers, its own labels win over
// the defaults, and a cloud label under either name is under both.
func TestRegisteredLabels(t *testing.T) {
	got := registeredLabels("n1", map[string]string{"kubernetes.io/os": "windows",
		"topology.kubernetes.io/zone": "a", "failure-domain.beta.kubernetes.io/region": "r",
		"node.kubernetes.io/instance-type": "m5.large", "beta.kubernetes.io/instance-type": "old"})
	want := map[string]string{
		"kubernetes.io/hostname": "n1", "kubernetes.io/os": "windows", "kubernetes.io/arch": "amd64",
		"beta.kubernetes.io/os": "linux", "beta.kubernetes.io/arch": "amd64",
		"topology.kubernetes.io/zone": "a", "failure-domain.beta.kubernetes.io/zone": "a",
		"topology.kubernetes.io/region": "r", "failure-domain.beta.kubernetes.io/region": "r",
		"node.kubernetes.io/instance-type": "m5.large", "beta.kubernetes.io/instance-type": "old",
	}
	if !maps.Equal(got, want) {
		t.Errorf("labels %v\nwant %v", got, want)
	}
	if l := registeredLabels("n2", nil); len(l) != 5 || l["kubernetes.io/hostname"] != "n2" {
		t.Errorf("a node with no labels has %v", l)
	}
}
