package model_test

import (
	"fmt"
	"testing"

	"github.com/podsim/podsim/internal/scenariogen"
	"github.com/podsim/podsim/model"
)

// changePodSink checks World.ChangePod at every change: the pod of a
// pod's own change, by its names; nil for any other. And
// World.ChangeNamesPod: that pod, or the pod an event is about.
type changePodSink struct {
	w             *model.World
	own           int
	events, named int // events and kubectl's lines about a pod, and of them those that came with it
	errs          []string
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
	// ChangeNamesPod: the pod the change names, its own change's, an
	// event's about it or kubectl's about it; an event about a pod gone
	// from the world names none.
	n := s.w.ChangeNamesPod()
	switch {
	case (c.Kind == model.ChangeEvent || c.Kind == model.ChangeClient) && c.Pod != "":
		s.events++
		if n != nil && (n.Name != c.Pod || n.Namespace != c.Namespace) {
			s.errs = append(s.errs, fmt.Sprintf("%v event %s about %s/%s: ChangeNamesPod %s", c.T, c.Reason, c.Namespace, c.Pod, n.Name))
		}
		if n != nil {
			s.named++
		}
	case c.Kind == model.ChangeEvent || c.Kind == model.ChangeClient || p == nil:
		if n != nil {
			s.errs = append(s.errs, fmt.Sprintf("%v %s %s: ChangeNamesPod %s", c.T, c.Kind, c.Reason, n.Name))
		}
	case n != p:
		s.errs = append(s.errs, fmt.Sprintf("%v %s %s/%s: ChangeNamesPod %v, ChangePod %v", c.T, c.Kind, c.Namespace, c.Pod, n, p))
	}
}

// TestChangePodNamesThePodOfItsOwnChanges: in every scenario of the
// library, each change of a pod's own comes with the pod, and no other
// change with one; nearly every event about a pod comes with it too.
func TestChangePodNamesThePodOfItsOwnChanges(t *testing.T) {
	all, err := scenariogen.Valid([]string{"../scenarios"}, "slow")
	if err != nil {
		t.Fatal(err)
	}
	own, events, named := 0, 0, 0
	for _, s := range all {
		w := s.NewWorld()
		sink := &changePodSink{w: w}
		w.Subscribe(sink)
		s.Populate(w)
		w.RunChecked(s.Duration, 500_000, nil)
		for _, e := range sink.errs[:min(len(sink.errs), 3)] {
			t.Errorf("%s: %s", s.Path, e)
		}
		own, events, named = own+sink.own, events+sink.events, named+sink.named
	}
	if own < 1000 {
		t.Errorf("only %d changes of pods' own", own)
	}
	if named < events*9/10 {
		t.Errorf("only %d of %d events about a pod came with it", named, events)
	}
}

// TestSinkSubscribedMidRunSeesWholeChanges: a world with no sink does not
// clear its current change between changes (World.begin); a sink that
// subscribes part way through a run still gets each change as a world
// that had it from the start gives it, and no pod condition's change
// carries a container's fields left from an earlier change (this part is
// what fails if begin never clears: both worlds would then agree).
func TestSinkSubscribedMidRunSeesWholeChanges(t *testing.T) {
	all, err := scenariogen.Valid([]string{"../scenarios"}, "slow")
	if err != nil {
		t.Fatal(err)
	}
	compared := 0
	for _, s := range all {
		whole, late := &model.Timeline{}, &model.Timeline{}
		a := s.NewWorld()
		a.Subscribe(whole)
		s.Populate(a)
		if a.RunChecked(s.Duration, 500_000, nil) != model.Finished {
			continue // over its budget: the two runs would stop at different places
		}
		b := s.NewWorld()
		s.Populate(b)
		b.RunChecked(s.Duration/2, 500_000, nil)
		b.Subscribe(late)
		if end := b.RunChecked(s.Duration, 500_000, nil); end != model.Finished {
			t.Errorf("%s: the run in two parts ended %v", s.Path, end)
			continue
		}
		if len(late.Changes) > len(whole.Changes) {
			t.Errorf("%s: %d changes after subscribing, of %d in all", s.Path, len(late.Changes), len(whole.Changes))
			continue
		}
		tail := whole.Changes[len(whole.Changes)-len(late.Changes):]
		for i, c := range late.Changes {
			if c != tail[i] {
				t.Errorf("%s: change %d after subscribing is\n%+v\nnot\n%+v", s.Path, i, c, tail[i])
				break
			}
			if c.Kind == model.ChangeCondition && c.Pod != "" && (c.Container != "" || c.HasExitCode || c.State != 0) {
				t.Errorf("%s: a pod's condition change %d has a container's fields: %+v", s.Path, i, c)
				break
			}
		}
		compared += len(late.Changes)
	}
	if compared < 1000 {
		t.Errorf("only %d changes compared", compared)
	}
}
