package scenarios

import (
	"strings"
	"testing"
)

func TestNodePricePerHour(t *testing.T) {
	const head = "apiVersion: podsim/v1\nkind: Scenario\nmetadata: {name: t}\nspec:\n  nodes:\n"
	s, err := Parse("t.yaml", []byte(head+"    - {name: a, count: 2, pricePerHour: 0.25}\n    - {name: b}\n"))
	if err != nil {
		t.Fatal(err)
	}
	w := s.Start(RunOptions{Until: 0}).World
	for name, want := range map[string]float64{"a-0": 0.25, "a-1": 0.25, "b": 0} {
		if n := w.Node(name); n == nil || n.PricePerHour != want {
			t.Errorf("node %s: %+v, want pricePerHour %g", name, n, want)
		}
	}
	for _, bad := range []string{"-1", ".nan", ".inf", "2e9"} {
		_, err := Parse("t.yaml", []byte(head+"    - {name: a, pricePerHour: "+bad+"}\n"))
		if want := "t.yaml:6:31: pricePerHour must be a number from 0 to 1e9"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", bad, err, want)
		}
	}
	_, err = Parse("t.yaml", []byte(head+"    - {name: a, pricePerHour: cheap}\n"))
	if err == nil || !strings.Contains(err.Error(), "t.yaml:6:31:") {
		t.Errorf("a word for a price: got %v, want an error at 6:31", err)
	}
}
