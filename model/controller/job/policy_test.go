package job

import (
	"slices"
	"testing"

	"github.com/podsim/podsim/model"
)

// Indexes are written as orderedIntervals.String writes them (two
// neighbours with a comma, three or more as a range) and read back as
// parseIndexesFromString reads them.
func TestIndexesFormatAndParse(t *testing.T) {
	for _, c := range []struct {
		set  []int
		n    int
		want string
	}{
		{nil, 3, ""},
		{[]int{0}, 3, "0"},
		{[]int{0, 1}, 3, "0,1"},
		{[]int{0, 1, 2, 4, 6, 7}, 8, "0-2,4,6,7"},
		{[]int{1, 3, 4, 5, 6}, 7, "1,3-6"},
	} {
		set := make([]bool, c.n)
		for _, i := range c.set {
			set[i] = true
		}
		got := formatIndexes(set)
		if got != c.want {
			t.Errorf("formatIndexes(%v) = %q, want %q", c.set, got, c.want)
		}
		ivs, ok := model.ParseIndexes(got, c.n)
		var back []int
		for _, iv := range ivs {
			for i := iv.First; i <= iv.Last; i++ {
				back = append(back, i)
			}
		}
		if !ok || !slices.Equal(back, c.set) {
			t.Errorf("ParseIndexes(%q) = %v %v, want %v", got, ivs, ok, c.set)
		}
	}
	if ivs, ok := model.ParseIndexes("1-3,9", 3); !ok || len(ivs) != 1 || ivs[0] != (model.Interval{First: 1, Last: 2}) {
		t.Errorf("ParseIndexes drops what is past completions: %v %v", ivs, ok)
	}
	for _, bad := range []string{"x", "3-1", "2,1", "1,,2", "-1"} {
		if _, ok := model.ParseIndexes(bad, 10); ok {
			t.Errorf("ParseIndexes(%q) accepted", bad)
		}
	}
}
