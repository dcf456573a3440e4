package serve

import (
	"testing"
	"time"

	"github.com/podsim/podsim/model"
)

// TestRecreatedKeySharesItsEntry: a pod made again under its key (db-0,
// which its StatefulSet makes again once PodGC has deleted the old one)
// takes the key's entry, found by either pod and by the key's name.
func TestRecreatedKeySharesItsEntry(t *testing.T) {
	for _, history := range []int{0, 8} { // lit and dark
		p := play(t, "../scenarios/statefulset/partition-delete-node.yaml", Options{At: 10 * time.Minute, History: history})
		p.freeze(t)
		s := p.srv.store
		now := s.w.Pod(model.Key(model.DefaultNamespace, "db-0"))
		if now == nil || now.Supersedes() == nil {
			t.Fatal("db-0 was not made again")
		}
		old := now.Supersedes()
		if old.Supersedes() != nil || old.Name != now.Name {
			t.Fatalf("db-0 supersedes %v, which supersedes %v", old, old.Supersedes())
		}
		ent := s.byID(now)
		if ent == nil || ent != s.byID(old) || ent.p != now {
			t.Fatalf("history %d: the entries of db-0's pods: %p and %p", history, s.byID(old), ent)
		}
		s.lastNamed = lastNamed{}
		if got := s.named(model.DefaultNamespace, "db-0"); got != ent {
			t.Errorf("history %d: db-0 by name: %p, want %p", history, got, ent)
		}
		if s.named(model.DefaultNamespace, "db-9") != nil {
			t.Error("a key no pod has has an entry")
		}
	}
}
