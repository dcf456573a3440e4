package model

import (
	"strings"
	"testing"
)

func TestRequirementMatches(t *testing.T) {
	labels := map[string]string{"disk": "ssd", "gen": "3", "name": "x"}
	for _, tc := range []struct {
		r    Requirement
		want bool
	}{
		{Requirement{Key: "disk", Operator: OpIn, Values: []string{"hdd", "ssd"}}, true},
		{Requirement{Key: "disk", Operator: OpNotIn, Values: []string{"ssd"}}, false},
		{Requirement{Key: "zone", Operator: OpNotIn, Values: []string{"a"}}, true}, // a missing key is not in any set
		{Requirement{Key: "zone", Operator: OpIn, Values: []string{"a"}}, false},
		{Requirement{Key: "disk", Operator: OpExists}, true},
		{Requirement{Key: "disk", Operator: OpDoesNotExist}, false},
		{Requirement{Key: "gen", Operator: OpGt, Values: []string{"2"}}, true},
		{Requirement{Key: "gen", Operator: OpGt, Values: []string{"3"}}, false},
		{Requirement{Key: "gen", Operator: OpLt, Values: []string{"4"}}, true},
		{Requirement{Key: "name", Operator: OpGt, Values: []string{"1"}}, false}, // not an integer
		{Requirement{Key: "zone", Operator: OpLt, Values: []string{"1"}}, false},
	} {
		if got := tc.r.matches(labels); got != tc.want {
			t.Errorf("%s %s %v: %v, want %v", tc.r.Key, tc.r.Operator, tc.r.Values, got, tc.want)
		}
	}
	var none *LabelSelector
	if none.Matches(labels) || !(&LabelSelector{}).Matches(labels) {
		t.Error("a nil selector must match nothing, an empty one everything")
	}
}

func TestResolvePriority(t *testing.T) {
	i32 := func(v int32) *int32 { return &v }
	classes := []PriorityClass{{Name: "low", Value: 10, GlobalDefault: true}, {Name: "lower", Value: 5, GlobalDefault: true},
		{Name: "batch", Value: 100, PreemptionPolicy: PreemptNever}}
	for _, tc := range []struct {
		class    string
		priority *int32
		policy   string
		want     int32
		wantPol  string
		err      string
	}{
		{"", nil, "", 5, PreemptLowerPriority, ""}, // the lowest of two global defaults
		{"batch", nil, "", 100, PreemptNever, ""},
		{"system-node-critical", nil, "", 2000001000, PreemptLowerPriority, ""},
		{"gold", nil, "", 0, "", "no PriorityClass with name gold was found"},
		{"batch", i32(100), "", 100, PreemptNever, ""},
		{"batch", i32(7), "", 0, "", "the integer value of priority (7) must not be provided"},
		{"low", nil, PreemptNever, 0, "", "the string value of PreemptionPolicy (Never) must not be provided"},
	} {
		got, pol, err := ResolvePriority(classes, tc.class, tc.priority, tc.policy)
		switch {
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%q: error %v, want %q", tc.class, err, tc.err)
		case tc.err == "" && (err != nil || got != tc.want || pol != tc.wantPol):
			t.Errorf("%q: %d %s %v, want %d %s", tc.class, got, pol, err, tc.want, tc.wantPol)
		}
	}
	// Without classes, a pod's own policy stands.
	if _, pol, _ := ResolvePriority(nil, "", nil, PreemptNever); pol != PreemptNever {
		t.Errorf("policy %s, want Never", pol)
	}
}
