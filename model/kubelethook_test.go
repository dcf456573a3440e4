package model

import (
	"slices"
	"testing"
	"time"
)

// countingKubelet is the package's kubelet, counting what the core tells it.
type countingKubelet struct {
	*kubeletCore
	created, bound, phases, released, removed *int
}

func (k countingKubelet) PodCreated(p *Pod) { *k.created++; k.kubeletCore.PodCreated(p) }
func (k countingKubelet) Bound(p *Pod)      { *k.bound++; k.kubeletCore.Bound(p) }
func (k countingKubelet) PhaseSet(p *Pod)   { *k.phases++; k.kubeletCore.PhaseSet(p) }
func (k countingKubelet) Removed(p *Pod)    { *k.removed++; k.kubeletCore.Removed(p) }
func (k countingKubelet) Released(n *Node, p *Pod) {
	*k.released++
	k.kubeletCore.Released(n, p)
}

// A registered Kubelet replaces the package's own, and the core calls it
// at each change: the pod runs as it does with the package's own.
func TestRegisteredKubeletIsCalled(t *testing.T) {
	dies := &Behavior{Runs: []RunSpec{{ExitAfter: 0, ExitCode: 1, Times: 1}}}
	w0, _ := world(t, RestartAlways, dies, DefaultSettings())
	w0.Run(3 * time.Minute)

	var created, bound, phases, released, removed int
	w := newWorld(1, DefaultSettings())
	w.Register(countingKubelet{kubeletCore: &kubeletCore{}, created: &created, bound: &bound, phases: &phases, released: &released, removed: &removed})
	w.Subscribe(&Timeline{})
	w.AddNode(NodeSpec{Name: "n", Capacity: Resources{MilliCPU: 4000, Memory: 1 << 34, Pods: 110}})
	p := w.AddPod("p", &PodSpec{RestartPolicy: RestartAlways, TerminationGracePeriod: 30 * time.Second,
		Containers: []ContainerSpec{{Name: "app", Image: "img", PullPolicy: PullIfNotPresent, Behavior: dies}}}, PodOptions{})
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

// kstate is the state of p kept by the world's kubelet, this package's.
func (p *Pod) kstate() *podState { return p.w.kubelet.(ownKubelet).own().pod(p) }

// kubeletNode is the state of n kept by the world's kubelet, this package's.
func kubeletNode(n *Node) *nodeState { return n.w.kubelet.(ownKubelet).own().node(n) }

// ownKubelet is the world's Kubelet while this package's kubelet runs: a
// kubeletCore, or a Kubelet that embeds one (a test's).
type ownKubelet interface{ own() *kubeletCore }

func (k *kubeletCore) own() *kubeletCore { return k }
