package replicaset

import "testing"

// TestRecordsGrowByDoubling: the per-pod records of a fleet made a pod at a
// time move to a new array only when they double, and new records are
// empty.
func TestRecordsGrowByDoubling(t *testing.T) {
	c := &Controller{}
	arrays := 0
	for id := range 100000 {
		old := c.pods
		c.grow(id)
		if len(c.pods) != id+1 {
			t.Fatalf("grow(%d): %d records", id, len(c.pods))
		}
		if cap(old) == 0 || &c.pods[0] != &old[:1][0] {
			arrays++
		}
		if c.pods[id] != (podRecord{}) {
			t.Fatalf("record %d is not empty", id)
		}
		c.pods[id].gen = 1
	}
	if arrays > 12 {
		t.Errorf("the records moved %d times, want at most 12", arrays)
	}
}
