package model

import (
	"strings"
	"testing"
	"time"
)

// newWorld is NewCore with the scheduler, the parts the core holds, the
// ReplicaSet and Deployment controllers and the OOM killers: the world of the package's
// tests (cluster.New, which adds the parts in packages of their own,
// imports this package).
func newWorld(seed uint64, s Settings) *World {
	w := NewCore(seed, s)
	registerScheduler(w)
	w.RegisterCoreParts()
	registerKinds(w)
	registerKubelet(w)
	return w
}

// registerScheduler, registerKinds and registerKubelet register the
// scheduler, the controllers of ReplicaSets and Deployments, and the
// kubelet's parts in packages of their own (the OOM killers);
// kinds_test.go (package model_test, which may import their packages)
// sets them.
var registerScheduler, registerKinds, registerKubelet = func(*World) {}, func(*World) {}, func(*World) {}

// recorder hears pods being added, bound and changed, and nodes added.
type recorder struct {
	name string
	log  *[]string
}

func (r recorder) PodAdded(p *Pod) { *r.log = append(*r.log, r.name+" added "+p.Name) }
func (r recorder) PodBound(p *Pod) { *r.log = append(*r.log, r.name+" bound "+p.Name+" "+p.Node.Name) }
func (r recorder) PodChanged(p *Pod) {
	*r.log = append(*r.log, r.name+" changed "+p.Name+" "+string(p.Phase()))
}
func (r recorder) NodeAdded(n *Node) { *r.log = append(*r.log, r.name+" node "+n.Name) }

// onlyBound hears bindings alone.
type onlyBound struct{ recorder }

func (onlyBound) PodAdded(*Pod)   {}
func (onlyBound) PodChanged(*Pod) {}
func (onlyBound) NodeAdded(*Node) {}

// Parts hear what they implement, in registration order, at the change.
func TestRegisterAnnouncesInOrder(t *testing.T) {
	var log []string
	w := newWorld(1, DefaultSettings())
	w.Register(recorder{"a", &log})
	w.Register(recorder{"b", &log})
	w.AddNode(NodeSpec{Name: "n", Capacity: Resources{MilliCPU: 1000, Memory: 1 << 30, Pods: 10}})
	w.AddPod("p", &PodSpec{NodeName: "n", RestartPolicy: RestartNever,
		Containers: []ContainerSpec{{Name: "c", Image: "i", Behavior: &Behavior{Runs: []RunSpec{{ExitAfter: time.Second, Times: 1}}}}}}, PodOptions{})
	w.Run(time.Minute)
	want := []string{"a node n", "b node n", "a added p", "b added p", "a bound p n", "b bound p n"}
	if len(log) < len(want) || strings.Join(log[:len(want)], "|") != strings.Join(want, "|") {
		t.Fatalf("heard %q, want %q first", log, want)
	}
	last := log[len(log)-2:]
	if last[0] != "a changed p Succeeded" || last[1] != "b changed p Succeeded" {
		t.Errorf("last heard %q, want the pod's success, a then b", last)
	}
}

// Announcing allocates nothing.
func TestAnnounceAllocatesNothing(t *testing.T) {
	var log []string
	w := newWorld(1, DefaultSettings())
	w.Register(onlyBound{recorder{"a", &log}})
	p := &Pod{w: w, Name: "p"}
	if n := testing.AllocsPerRun(100, func() { w.podChanged(p); w.podStatusUpdated(p); w.podTerminating(p) }); n != 0 {
		t.Errorf("%v allocations per announcement, want 0", n)
	}
}
