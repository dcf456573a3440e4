package kubelet

import (
	"slices"
	"testing"
	"time"
	"unsafe"

	"github.com/podsim/podsim/model"
)

// countingKubelet is the package's kubelet, counting what the core tells it.
type countingKubelet struct {
	*kubeletCore
	created, bound, phases, released, removed *int
}

func (k countingKubelet) PodCreated(p *model.Pod) { *k.created++; k.kubeletCore.PodCreated(p) }
func (k countingKubelet) Bound(p *model.Pod)      { *k.bound++; k.kubeletCore.Bound(p) }
func (k countingKubelet) PhaseSet(p *model.Pod)   { *k.phases++; k.kubeletCore.PhaseSet(p) }
func (k countingKubelet) Removed(p *model.Pod)    { *k.removed++; k.kubeletCore.Removed(p) }
func (k countingKubelet) Released(n *model.Node, p *model.Pod) {
	*k.released++
	k.kubeletCore.Released(n, p)
}

// A registered Kubelet replaces the package's own, and the core calls it
// at each change: the pod runs as it does with the package's own.
func TestRegisteredKubeletIsCalled(t *testing.T) {
	dies := &model.Behavior{Runs: []model.RunSpec{{ExitAfter: 0, ExitCode: 1, Times: 1}}}
	w0, _ := world(t, model.RestartAlways, dies, model.DefaultSettings())
	w0.Run(3 * time.Minute)

	var created, bound, phases, released, removed int
	w := newWorld(1, model.DefaultSettings())
	w.Register(countingKubelet{kubeletCore: &kubeletCore{}, created: &created, bound: &bound, phases: &phases, released: &released, removed: &removed})
	w.Subscribe(&model.Timeline{})
	w.AddNode(model.NodeSpec{Name: "n", Capacity: model.Resources{MilliCPU: 4000, Memory: 1 << 34, Pods: 110}})
	p := w.AddPod("p", &model.PodSpec{RestartPolicy: model.RestartAlways, TerminationGracePeriod: 30 * time.Second,
		Containers: []model.ContainerSpec{{Name: "app", Image: "img", PullPolicy: model.PullIfNotPresent, Behavior: dies}}}, model.PodOptions{})
	w.Run(3 * time.Minute)
	if got, want := starts(w), starts(w0); !slices.Equal(got, want) || len(got) < 3 {
		t.Errorf("starts = %v, want %v as with the package's kubelet", got, want)
	}
	p.ForceDelete()
	if created != 1 || bound != 1 || phases != 2 || released != 1 || removed != 1 {
		t.Errorf("called created %d, bound %d, phase set %d, released %d, removed %d; want 1 each, 2 phases (Pending, Running)",
			created, bound, phases, released, removed)
	}
}

// PodsComing has the state of the next n pods (the pod's, its container's
// and its process's) come from one array each (their probe workers':
// TestReserveTakesOneArray in prober).
func TestPodsComingTakesOneArrayEach(t *testing.T) {
	k := New().(*kubeletCore)
	const n = 600
	k.PodsComing(n, 2*n)
	contiguous := func(what string, next func() uintptr, size uintptr) {
		t.Helper()
		prev := next()
		for i := 1; i < n; i++ {
			if p := next(); p-prev != size {
				t.Fatalf("%s %d is not next to %d", what, i, i-1)
			} else {
				prev = p
			}
		}
	}
	contiguous("pod state", func() uintptr { return uintptr(unsafe.Pointer(k.states.New())) }, unsafe.Sizeof(podState{}))
	contiguous("container", func() uintptr { return uintptr(unsafe.Pointer(k.containers.New())) }, unsafe.Sizeof(container{}))
	contiguous("process state", func() uintptr { return uintptr(unsafe.Pointer(k.procs.New())) }, unsafe.Sizeof(procState{}))
}
