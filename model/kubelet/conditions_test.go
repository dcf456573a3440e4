package kubelet

import (
	"reflect"
	"testing"
	"time"
	"unsafe"

	"github.com/podsim/podsim/model"
)

// updateConditions skips its work while nothing it reads changed, but a
// condition set by someone else since it ran (the node lifecycle
// controller marking Ready False) is set back on its next run, as the
// kubelet's next status update does.
func TestUpdateConditionsAfterOutsideChange(t *testing.T) {
	w, p := world(t, model.RestartAlways, nil, model.DefaultSettings())
	w.Run(time.Minute)
	ready := func() model.ConditionStatus {
		st := p.Status()
		c, _ := st.Condition(model.Ready)
		return c.Status
	}
	if got := ready(); got != model.True {
		t.Fatalf("Ready = %q after a minute, want True", got)
	}
	kstate(p).updateConditions() // nothing changed: a no-op
	if got := ready(); got != model.True {
		t.Fatalf("Ready = %q after an update that changed nothing, want True", got)
	}
	p.SetKubeletCondition(model.Ready, model.False, "NodeNotReady", "")
	kstate(p).updateConditions()
	if got := ready(); got != model.True {
		t.Errorf("Ready = %q after the kubelet's next update, want True", got)
	}
}

// Pods whose conditions list the same containers share one message: a
// fleet's pods do not each keep their own copy.
func TestListMessagesShared(t *testing.T) {
	dies := &model.Behavior{Runs: []model.RunSpec{{ExitAfter: 0, ExitCode: 1, Times: 1}}}
	w, p := world(t, model.RestartAlways, dies, model.DefaultSettings())
	q := w.AddPod("q", p.Spec, model.PodOptions{})
	w.Run(time.Minute)
	msg := func(p *model.Pod) string {
		st := p.Status()
		c, _ := st.Condition(model.ContainersReady)
		return c.Message
	}
	a, b := msg(p), msg(q)
	if a != "containers with unready status: [app]" || b != a {
		t.Fatalf("ContainersReady messages %q and %q", a, b)
	}
	if unsafe.StringData(a) != unsafe.StringData(b) {
		t.Error("two pods built the same condition message twice")
	}
}

// StatusInto gives what Status gives, and reading one pod after another
// into the same status allocates nothing once its slices have room.
func TestStatusIntoReusesItsSlices(t *testing.T) {
	dies := &model.Behavior{Runs: []model.RunSpec{{ExitAfter: 0, ExitCode: 1, Times: 1}}}
	w, p := world(t, model.RestartAlways, dies, model.DefaultSettings())
	q := w.AddPod("q", p.Spec, model.PodOptions{})
	w.Run(time.Minute)
	var into model.PodStatus
	for _, pod := range []*model.Pod{p, q} {
		pod.StatusInto(&into)
		if want := pod.Status(); !reflect.DeepEqual(into, want) {
			t.Fatalf("%s: StatusInto gave %+v, Status %+v", pod.Name, into, want)
		}
	}
	if n := testing.AllocsPerRun(100, func() { p.StatusInto(&into); q.StatusInto(&into) }); n != 0 {
		t.Errorf("%v allocations reading two pods' statuses into one", n)
	}
}
