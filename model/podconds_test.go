package model

import (
	"strconv"
	"testing"
)

// Condition texts keep their numbers once the table is indexed by a map.
func TestCondTextsNumbers(t *testing.T) {
	var ct condTexts
	for round := range 2 {
		for i := range 100 {
			s := "t" + strconv.Itoa(i)
			if n := ct.number(s); ct.text(n) != s || n != uint16(i+1) {
				t.Fatalf("round %d: number(%q) = %d (%q)", round, s, n, ct.text(n))
			}
		}
	}
	if ct.number("") != 0 || ct.text(0) != "" {
		t.Error(`"" is not number 0`)
	}
}
