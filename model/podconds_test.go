package model

import (
	"slices"
	"strconv"
	"testing"
)

// A pod's phases past what phaseLog holds, and a phase it has no code
// for, move to more.phases in order.
func TestPhaseLogOverflows(t *testing.T) {
	var p Pod
	var want []Phase
	for i := range 20 {
		ph := Pending
		if i%2 == 1 {
			ph = Running
		}
		if i == 3 {
			ph = "Odd"
		}
		p.logPhase(ph)
		want = append(want, ph)
		if got := p.Phases(); !slices.Equal(got, want) {
			t.Fatalf("after %d: phases %v, want %v", i+1, got, want)
		}
	}
}

// Condition texts keep their numbers once the table is indexed by a map.
func TestCondTextsNumbers(t *testing.T) {
	var ct condTexts
	for round := range 2 {
		for i := range 100 {
			s := "t" + strconv.Itoa(i)
			if n := ct.number(s); ct.text(n) != s || n != uint16(int(condKnown)+i) {
				t.Fatalf("round %d: number(%q) = %d (%q)", round, s, n, ct.text(n))
			}
		}
	}
	if ct.number("") != 0 || ct.text(0) != "" {
		t.Error(`"" is not number 0`)
	}
}

// The known condition texts have their CondText numbers in every world,
// and their types are conditionOrder's, in its order: conditionRank
// reads a type's rank off its number.
func TestKnownCondTexts(t *testing.T) {
	var ct condTexts
	ct.number("first") // a scenario's text: numbered after the known ones, which come first
	for i, s := range knownCondTexts {
		if n := ct.number(s); n != uint16(i) {
			t.Errorf("number(%q) = %d, want %d", s, n, i)
		}
	}
	types := knownCondTexts[CondDisruptionTarget : CondPodScheduled+1]
	if !slices.Equal(types, conditionOrder[:]) {
		t.Errorf("known types %q, conditionOrder %q", types, conditionOrder)
	}
	for i, s := range conditionOrder {
		if r := conditionRank(ct.number(s)); r != uint8(i) {
			t.Errorf("rank of %s = %d, want %d", s, r, i)
		}
	}
	if r := conditionRank(ct.number("first")); r != uint8(len(conditionOrder)) {
		t.Errorf("rank of another type = %d", r)
	}
}
