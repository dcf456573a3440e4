package kubelet

import (
	"slices"
	"testing"
	"time"
	"unsafe"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/controller/replicaset"
	"github.com/podsim/podsim/model/scheduler"
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

// A world's first run tells the kubelet how many pods its ReplicaSet will
// make and how many probes they have (World.ReservePods, PodsComing), and
// the pods' states then come from one array, each next to the last.
func TestReservedPodsStateFromOneArray(t *testing.T) {
	st := model.DefaultSettings()
	st.KubeAPIQPS, st.KubeAPIBurst = 1e6, 1e6 // every pod at t=0
	w := model.NewCore(1, st)
	w.Register(scheduler.New(w))
	w.RegisterCoreParts()
	w.RegisterWorkloadController(model.KindReplicaSet, replicaset.New(w))
	k := &reservingKubelet{kubeletCore: &kubeletCore{}}
	w.Register(k)
	w.AddNode(model.NodeSpec{Name: "n", Capacity: model.Resources{MilliCPU: 64000, Memory: 256 << 30, Pods: 1000}})
	probe := &model.ProbeSpec{Handler: "exec", Period: 10 * time.Second, Timeout: time.Second, SuccessThreshold: 1, FailureThreshold: 3}
	const n = 600
	w.AddWorkload(model.WorkloadSpec{Kind: model.KindReplicaSet, Name: "rs", Replicas: n, Template: &model.PodSpec{
		RestartPolicy: model.RestartAlways, TerminationGracePeriod: 30 * time.Second,
		Containers: []model.ContainerSpec{{Name: "c", Image: "c", Liveness: probe, Readiness: probe}}}})
	w.Run(time.Minute)
	if k.pods != n || k.probes != 2*n || k.calls != 1 {
		t.Fatalf("PodsComing(%d, %d) called %d times, want (%d, %d) once", k.pods, k.probes, k.calls, n, 2*n)
	}
	pods := w.Pods()
	if len(pods) != n {
		t.Fatalf("%d pods, want %d", len(pods), n)
	}
	for i := 1; i < n; i++ {
		a, b := k.pod(pods[i-1]), k.pod(pods[i])
		if uintptr(unsafe.Pointer(b))-uintptr(unsafe.Pointer(a)) != unsafe.Sizeof(podState{}) {
			t.Fatalf("the state of pod %d is not next to that of pod %d", i, i-1)
		}
	}
}

// reservingKubelet is the package's kubelet, keeping what PodsComing heard.
type reservingKubelet struct {
	*kubeletCore
	pods, probes, calls int
}

func (k *reservingKubelet) PodsComing(n, probes int) {
	k.pods, k.probes, k.calls = n, probes, k.calls+1
	k.kubeletCore.PodsComing(n, probes)
}
