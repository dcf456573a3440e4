package serve

import (
	"context"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/benbjohnson/clock"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/scenarios"
)

// played is an in-process server playing a scenario on a mock clock.
type played struct {
	srv    *Server
	http   *httptest.Server
	mock   *clock.Mock
	ctx    context.Context
	cancel context.CancelFunc
	sc     *scenarios.Scenario
	speed  float64
	log    syncBuffer
	tl     model.Timeline // with record
}

// syncBuffer is a log written by the run goroutine and read by the test.
type syncBuffer struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func play(t testing.TB, file string, o Options) *played {
	t.Helper()
	sc, err := scenarios.LoadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	mock := clock.NewMock()
	mock.Set(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC))
	o.Clock = mock
	if o.Speed > 0 {
		o.Until = sc.Duration
	}
	p := &played{mock: mock, sc: sc, speed: o.Speed}
	o.Log = &p.log
	p.srv = New(sc, o)
	p.http = httptest.NewServer(p.srv)
	ctx, cancel := context.WithCancel(context.Background())
	p.ctx, p.cancel = ctx, cancel
	t.Cleanup(func() {
		cancel()
		p.http.CloseClientConnections()
		p.http.Close()
	})
	return p
}

// record keeps the world's changes from now on in p.tl (call it before
// start; read p.tl only once the run goroutine has answered, a write's
// response or freeze).
func (p *played) record() { p.srv.world.Subscribe(&p.tl) }

// start plays the world (after the clients are set up).
func (p *played) start() { go p.srv.Play(p.ctx) }

// stop ends the play and waits for it: p.tl may be read then.
func (p *played) stop() {
	p.cancel()
	<-p.srv.done
}

// freeze plays a frozen world (Options.At) to its instant.
func (p *played) freeze(t testing.TB) {
	t.Helper()
	p.start()
	deadline := time.Now().Add(20 * time.Second)
	for !p.srv.ended.Load() {
		if time.Now().After(deadline) {
			t.Fatal("the world did not reach its instant")
		}
		time.Sleep(time.Millisecond)
	}
}

// advance moves the wall clock so that the paced run reaches virtual time
// v, in steps of one virtual second.
func (p *played) advance(v time.Duration) {
	for p.srv.pacer.Virtual() < v {
		p.mock.Add(time.Duration(float64(time.Second) / p.speed))
	}
}

// waitEnded waits until the run goroutine has played the whole run.
func (p *played) waitEnded(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !p.srv.ended.Load() {
		if time.Now().After(deadline) {
			t.Fatal("the run did not end")
		}
		time.Sleep(time.Millisecond)
	}
}

// newest is the resourceVersion of a collection's newest version in the
// history (0 if none).
func (s *Store) newest(col collection) uint64 {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for i := s.n - 1; i >= 0; i-- {
		if j := (s.head + i) % len(s.ring); s.ring[j].col == col {
			return s.ringRV[j]
		}
	}
	return 0
}

// timeline is the scenario's whole run, played without a server.
func timeline(t *testing.T, sc *scenarios.Scenario) []model.Change {
	t.Helper()
	var tl model.Timeline
	w := sc.Build(&tl)
	w.Run(sc.Duration)
	return tl.Changes
}

// podState is what the informer test compares: a pod's phase and its
// containers' states, as "web Running app=Waiting(CrashLoopBackOff)#4".
func podState(name, phase string, containers []string) string {
	return name + " " + phase + " " + strings.Join(containers, " ")
}

// expectedPodStates replays a timeline's pod changes: one state for every
// pod in the list at version listRV, then one per change after it.
func expectedPodStates(changes []model.Change, listRV uint64) []string {
	type pod struct {
		phase      string
		containers []string // name=state, in order of first mention
		names      []string
		deleted    bool
		listed     bool // the informer has it
	}
	pods := map[string]*pod{}
	var order []string
	show := func(name string) string {
		p := pods[name]
		var cs []string
		for i := range p.names {
			cs = append(cs, p.containers[i])
		}
		return podState(name, p.phase, cs)
	}
	var out []string
	for i := range changes {
		c := &changes[i]
		rv := uint64(i + 1)
		switch c.Kind {
		case model.ChangePhase, model.ChangeContainer, model.ChangeCondition, model.ChangePod:
		default:
			continue
		}
		p := pods[c.Pod]
		if p == nil {
			p = &pod{}
			pods[c.Pod] = p
			order = append(order, c.Pod)
		}
		switch c.Kind {
		case model.ChangePhase:
			p.phase = string(c.To)
		case model.ChangeContainer:
			s := fmt.Sprintf("%s=%s(%s)#%d", c.Container, c.State, c.Reason, c.RestartCount)
			if j := slices.Index(p.names, c.Container); j >= 0 {
				p.containers[j] = s
			} else {
				p.names, p.containers = append(p.names, c.Container), append(p.containers, s)
			}
		case model.ChangePod:
			if c.Reason == "Deleted" {
				p.deleted = true
			}
		}
		if rv > listRV {
			prefix := "update "
			switch {
			case p.deleted:
				prefix = "delete "
			case !p.listed:
				prefix = "add "
			}
			p.listed = true
			out = append(out, prefix+show(c.Pod))
		}
		if rv == listRV {
			slices.Sort(order) // a list is sorted by name
			for _, name := range order {
				if !pods[name].deleted {
					pods[name].listed = true
					out = append(out, "add "+show(name))
				}
			}
		}
	}
	return out
}

// informed renders a pod as the informer received it, like podState;
// container order is the pod's (the test's scenarios mention containers
// in spec order).
func informed(p *corev1.Pod) string {
	var cs []string
	for _, s := range append(append([]corev1.ContainerStatus(nil), p.Status.InitContainerStatuses...), p.Status.ContainerStatuses...) {
		var state, reason string
		switch {
		case s.State.Waiting != nil:
			state, reason = "Waiting", s.State.Waiting.Reason
		case s.State.Running != nil:
			state = "Running"
		case s.State.Terminated != nil:
			state, reason = "Terminated", s.State.Terminated.Reason
		default:
			continue
		}
		cs = append(cs, fmt.Sprintf("%s=%s(%s)#%d", s.Name, state, reason, s.RestartCount))
	}
	return podState(p.Name, string(p.Status.Phase), cs)
}

// TestInformersSeeTheTimeline watches pods, nodes and events with
// client-go's shared informers while the scenario plays on a mock clock:
// the informer's pod updates are the timeline's pod changes, one for one,
// each with the phase and container states the timeline says.
func TestInformersSeeTheTimeline(t *testing.T) {
	for _, file := range []string{"../scenarios/demo.yaml", "../scenarios/cluster/disk-failure-replicaset.yaml", "../scenarios/lifecycle/two-containers-onfailure.yaml",
		"../scenarios/rollouts/rolling-update.yaml"} {
		t.Run(file, func(t *testing.T) {
			p := play(t, file, Options{Speed: 10})
			changes := timeline(t, p.sc)

			cs, err := kubernetes.NewForConfig(&rest.Config{Host: p.http.URL})
			if err != nil {
				t.Fatal(err)
			}
			factory := informers.NewSharedInformerFactory(cs, 0)
			var mu sync.Mutex
			var got []string
			var lastRV string
			record := func(what string, pod *corev1.Pod) {
				mu.Lock()
				defer mu.Unlock()
				got = append(got, what+" "+informed(pod))
				lastRV = pod.ResourceVersion
			}
			pods := factory.Core().V1().Pods().Informer()
			pods.AddEventHandler(cache.ResourceEventHandlerFuncs{
				AddFunc:    func(o any) { record("add", o.(*corev1.Pod)) },
				UpdateFunc: func(_, o any) { record("update", o.(*corev1.Pod)) },
				DeleteFunc: func(o any) {
					if d, ok := o.(cache.DeletedFinalStateUnknown); ok {
						o = d.Obj
					}
					record("delete", o.(*corev1.Pod))
				},
			})
			nodes := factory.Core().V1().Nodes().Informer()
			deployments := factory.Apps().V1().Deployments().Informer()
			replicaSets := factory.Apps().V1().ReplicaSets().Informer()
			var nodeEvents sync.Map
			events := factory.Core().V1().Events().Informer()
			events.AddEventHandler(cache.ResourceEventHandlerFuncs{
				AddFunc: func(o any) { nodeEvents.Store(o.(*corev1.Event).Name, true) },
			})
			stop := make(chan struct{})
			defer close(stop)
			factory.Start(stop)
			if !cache.WaitForCacheSync(stop, pods.HasSynced, nodes.HasSynced, events.HasSynced, deployments.HasSynced, replicaSets.HasSynced) {
				t.Fatal("informers did not sync")
			}
			listRV, _ := p.srv.store.state()
			// The initial list's adds: client-go does not promise to hand
			// them out in the list's order, so they are compared as a set.
			mu.Lock()
			initial := len(got)
			mu.Unlock()
			p.start()
			p.advance(p.sc.Duration)
			p.waitEnded(t)
			want := expectedPodStates(changes, listRV)
			lastPodRV := fmt.Sprint(p.srv.store.newest(colPods))
			deadline := time.Now().Add(20 * time.Second)
			for {
				mu.Lock()
				done := lastRV == lastPodRV
				mu.Unlock()
				if done || time.Now().After(deadline) {
					break
				}
				time.Sleep(time.Millisecond)
			}
			mu.Lock()
			defer mu.Unlock()
			if initial <= len(got) && initial <= len(want) {
				slices.Sort(got[:initial])
				slices.Sort(want[:initial])
			}
			if !slices.Equal(got, want) {
				t.Errorf("the informer saw %d pod versions, the timeline has %d:\n%s", len(got), len(want), diffLines(want, got))
			}
			if n := len(nodes.GetStore().List()); n != len(p.srv.world.Nodes()) {
				t.Errorf("node informer holds %d nodes, the world has %d", n, len(p.srv.world.Nodes()))
			}
			// Deployments end with their controller's last status, and one
			// ReplicaSet per template they had.
			rss := 0
			for _, wl := range p.srv.world.Workloads() {
				switch wl.Spec.Kind {
				case model.KindDeployment:
					rss += len(wl.ReplicaSets(nil))
				case model.KindReplicaSet:
					rss++
				}
				if wl.Spec.Kind != model.KindDeployment {
					continue
				}
				st := wl.ReplicaStatus()
				same := func() (any, bool) {
					o, _, _ := deployments.GetStore().GetByKey(wl.Namespace() + "/" + wl.Spec.Name)
					d, ok := o.(*appsv1.Deployment)
					return o, ok && d.Status.UpdatedReplicas == int32(st.UpdatedReplicas) &&
						d.Status.AvailableReplicas == int32(st.AvailableReplicas) && d.Status.Replicas == int32(st.Replicas)
				}
				for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
					if _, ok := same(); ok {
						break
					}
				}
				if o, ok := same(); !ok {
					t.Errorf("the deployment informer holds %s as %+v, the model's status is %+v", wl.Key(), o, st)
				}
			}
			if n := len(replicaSets.GetStore().List()); n != rss {
				t.Errorf("the replicaset informer holds %d, the world has %d", n, rss)
			}
			if n := len(events.GetStore().List()); n != p.srv.world.APIEventCount() {
				t.Errorf("event informer holds %d events, the world has %d", n, p.srv.world.APIEventCount())
			}
		})
	}
}

// diffLines shows the first difference between two line lists.
func diffLines(want, got []string) string {
	for i := range max(len(want), len(got)) {
		var w, g string
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w != g {
			return fmt.Sprintf("first difference at %d:\n  want %q\n  got  %q", i, w, g)
		}
	}
	return ""
}
