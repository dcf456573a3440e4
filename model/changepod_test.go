package model_test

import (
	"fmt"
	"testing"

	"github.com/podsim/podsim/internal/scenariogen"
	"github.com/podsim/podsim/model"
)

// changePodSink checks World.ChangePod at every change: the pod of a
// pod's own change, by its names; nil for any other.
type changePodSink struct {
	w    *model.World
	own  int
	errs []string
}

func (s *changePodSink) Change(c *model.Change) {
	p := s.w.ChangePod()
	switch c.Kind {
	case model.ChangePhase, model.ChangeContainer, model.ChangeCondition, model.ChangePod:
		s.own++
		if p == nil || p.Name != c.Pod || p.Namespace != c.Namespace {
			s.errs = append(s.errs, fmt.Sprintf("%v %s %s/%s: ChangePod %v", c.T, c.Kind, c.Namespace, c.Pod, p))
		}
	default:
		if p != nil {
			s.errs = append(s.errs, fmt.Sprintf("%v %s %s: ChangePod %s", c.T, c.Kind, c.Reason, p.Name))
		}
	}
}

// TestChangePodNamesThePodOfItsOwnChanges: in every scenario of the
// library, each change of a pod's own comes with the pod, and no other
// change with one.
func TestChangePodNamesThePodOfItsOwnChanges(t *testing.T) {
	all, err := scenariogen.Valid([]string{"../scenarios"}, "slow")
	if err != nil {
		t.Fatal(err)
	}
	own := 0
	for _, s := range all {
		w := s.NewWorld()
		sink := &changePodSink{w: w}
		w.Subscribe(sink)
		s.Populate(w)
		w.RunChecked(s.Duration, 500_000, nil)
		for _, e := range sink.errs[:min(len(sink.errs), 3)] {
			t.Errorf("%s: %s", s.Path, e)
		}
		own += sink.own
	}
	if own < 1000 {
		t.Errorf("only %d changes of pods' own", own)
	}
}
