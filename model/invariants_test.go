package model

import (
	"strings"
	"testing"
	"time"
)

// checked builds a world of two nodes under the invariant checker, with pod
// "p" on node "a": container "app" runs until stopped; it runs 10s.
func checked(t *testing.T) (*World, *Invariants, *Pod) {
	t.Helper()
	w := newWorld(1, DefaultSettings())
	inv := NewInvariants(w)
	for _, n := range []string{"a", "b"} {
		w.AddNode(NodeSpec{Name: n, Capacity: Resources{MilliCPU: 4000, Memory: 1 << 34, Pods: 110}})
	}
	p := w.AddPod("p", &PodSpec{RestartPolicy: RestartAlways, TerminationGracePeriod: 30 * time.Second, NodeName: "a",
		Containers: []ContainerSpec{{Name: "app", Image: "img", PullPolicy: PullIfNotPresent,
			Requests: Resources{MilliCPU: 1000, Memory: 1 << 30}}}}, PodOptions{})
	w.Run(10 * time.Second)
	if err := inv.Err(); err != nil {
		t.Fatalf("a healthy world breaks a rule: %v", err)
	}
	if p.Phase() != Running {
		t.Fatalf("pod is %s, want Running", p.Phase())
	}
	return w, inv, p
}

// recheck runs the end-of-instant checks on p and its node now.
func recheck(inv *Invariants, p *Pod) {
	inv.touchPod(p.Name)
	inv.EndInstant()
}

// wantViolation checks that inv saw a violation of rule whose message
// holds want.
func wantViolation(t *testing.T, inv *Invariants, rule, want string) {
	t.Helper()
	for _, v := range inv.Violations() {
		if v.Rule == rule && strings.Contains(v.Message, want) {
			return
		}
	}
	t.Errorf("no %s violation with %q; got %v", rule, want, inv.Violations())
}

func TestInvariantsCatchBadChanges(t *testing.T) {
	tests := []struct {
		name       string
		feed       func(w *World, p *Pod) []Change
		rule, want string
	}{
		{"time goes back", func(w *World, p *Pod) []Change {
			return []Change{{T: w.Now(), Kind: ChangeNode, Node: "a"}, {T: w.Now() - time.Second, Kind: ChangeNode, Node: "a"}}
		}, RuleTime, "after one at"},
		{"time is not now", func(w *World, p *Pod) []Change {
			return []Change{{T: w.Now() + time.Second, Kind: ChangeNode, Node: "a"}}
		}, RuleTime, "stamped"},
		{"terminal phase is sticky", func(w *World, p *Pod) []Change {
			return []Change{{T: w.Now(), Kind: ChangePhase, Pod: "p", From: Running, To: Succeeded},
				{T: w.Now(), Kind: ChangePhase, Pod: "p", From: Succeeded, To: Running}}
		}, RulePhase, `illegal phase transition "Succeeded" -> "Running"`},
		{"a new pod is Pending", func(w *World, p *Pod) []Change {
			return []Change{{T: w.Now(), Kind: ChangePhase, Pod: "q", To: Running}}
		}, RulePhase, `illegal phase transition "" -> "Running"`},
		{"phases follow each other", func(w *World, p *Pod) []Change {
			return []Change{{T: w.Now(), Kind: ChangePhase, Pod: "p", From: Pending, To: Failed}}
		}, RulePhase, "but its phase was"},
		{"a pod is created once", func(w *World, p *Pod) []Change {
			return []Change{{T: w.Now(), Kind: ChangePhase, Pod: "p", To: Pending}}
		}, RulePhase, "created a second time"},
		{"restartCount decreases", func(w *World, p *Pod) []Change {
			return []Change{{T: w.Now(), Kind: ChangeContainer, Pod: "p", Container: "app", State: StateWaiting, RestartCount: 3},
				{T: w.Now(), Kind: ChangeContainer, Pod: "p", Container: "app", State: StateRunning, RestartCount: 2}}
		}, RuleRestarts, "restartCount 3 -> 2"},
		{"scheduled twice", func(w *World, p *Pod) []Change {
			return []Change{{T: w.Now(), Kind: ChangeCondition, Pod: "p", Type: PodScheduled, Status: string(True)}}
		}, RuleBinding, "scheduled a second time"},
		{"a container starts on a powered-off node", func(w *World, p *Pod) []Change {
			w.Node("a").down = true
			return []Change{{T: w.Now(), Kind: ChangeContainer, Pod: "p", Container: "app", State: StateRunning}}
		}, RuleRunning, "powered off"},
		{"a container starts in a terminal pod", func(w *World, p *Pod) []Change {
			p.phase = Failed
			return []Change{{T: w.Now(), Kind: ChangeContainer, Pod: "p", Container: "app", State: StateRunning}}
		}, RuleRunning, "in a pod that is Failed"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w, inv, p := checked(t)
			for _, c := range tc.feed(w, p) {
				inv.Change(&c)
			}
			wantViolation(t, inv, tc.rule, tc.want)
		})
	}
}

func TestInvariantsCatchTamperedWorlds(t *testing.T) {
	tests := []struct {
		name       string
		tamper     func(w *World, p *Pod)
		rule, want string
	}{
		{"phase differs from the last change", func(w *World, p *Pod) { p.phase = Pending }, RulePhase, "last phase change said"},
		{"restartCount went down", func(w *World, p *Pod) {
			inv := w.sinks[0].(*Invariants)
			inv.pods["p"].restarts["app"] = 5
		}, RuleRestarts, "restartCount 0, was 5"},
		{"running totals drift", func(w *World, p *Pod) { w.Node("a").used.MilliCPU += 1 }, RuleAllocation, "running totals"},
		{"requests exceed allocatable", func(w *World, p *Pod) { w.Node("a").Capacity.Memory = 1 << 29 }, RuleAllocation, "exceed its allocatable"},
		{"cpu exceeds allocatable", func(w *World, p *Pod) { w.Node("a").Capacity.MilliCPU = 999 }, RuleAllocation, "exceed its allocatable"},
		{"bound again", func(w *World, p *Pod) {
			b := w.Node("b")
			p.Node, b.pods = b, append(b.pods, p)
		}, RuleBinding, "bound to a, then to b"},
		{"listed twice", func(w *World, p *Pod) { a := w.Node("a"); a.pods = append(a.pods, p) }, RuleBinding, "lists pod p twice"},
		{"a process in flight on a powered-off node", func(w *World, p *Pod) {
			// app, restarted after a crash, exits on its own a minute later
			p.Spec.Containers[0].Behavior = &Behavior{Runs: []RunSpec{{ExitAfter: time.Minute}}}
			p.ExitContainer("app", 1)
			w.Run(w.Now() + 15*time.Second)
			w.Node("a").down = true
		}, RuleRunning, "in flight on node a"},
		{"a container runs in a terminal pod", func(w *World, p *Pod) {
			p.phase = Succeeded
			w.sinks[0].(*Invariants).pods["p"].phase = Succeeded
		}, RuleRunning, "runs in a pod that is Succeeded"},
		{"finished before it started", func(w *World, p *Pod) {
			p.StatusOf(0).LastState = ContainerState{Kind: StateTerminated, StartedAt: 5 * time.Second, FinishedAt: 4 * time.Second}
		}, RuleDuration, "finished at 4s, before it started at 5s"},
		{"a time ahead of now", func(w *World, p *Pod) {
			p.conds[0].at = time.Hour
		}, RuleTime, "lastTransitionTime is 1h0m0s"},
		{"a negative time", func(w *World, p *Pod) { p.StatusOf(0).State.StartedAt = -time.Second }, RuleTime, "startedAt is -1s"},
		{"started before created", func(w *World, p *Pod) { p.CreatedAt = 2 * time.Second; p.startTime = time.Second }, RuleDuration, "before its creation"},
		{"an event that never occurred", func(w *World, p *Pod) { p.events.list[0].Occurrences = 0 }, RuleEventCount, "count 1 of 0 occurrences"},
		{"an event counted more than it occurred", func(w *World, p *Pod) { p.events.list[0].Count = 2 }, RuleEventCount, "count 2 of 1 occurrences"},
		{"Ready read without the conditions differs from them", func(w *World, p *Pod) { p.readyTrue = !p.readyTrue }, RuleReady, "its Ready condition says"},
		{"an event last seen before first seen", func(w *World, p *Pod) { p.events.list[0].FirstSeen = 9 * time.Second }, RuleTime, "firstSeen 9s, lastSeen 0s"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w, inv, p := checked(t)
			tc.tamper(w, p)
			recheck(inv, p)
			wantViolation(t, inv, tc.rule, tc.want)
		})
	}
}

// TestInvariantsCheckAfterEachInstant checks that the checker looks at the
// world by itself after an instant at which something changed.
func TestInvariantsCheckAfterEachInstant(t *testing.T) {
	w, inv, p := checked(t)
	w.Schedule(20*time.Second, func() {
		p.ExitContainer("app", 1)
		w.Node("a").used.Memory++ // drift, seen only by the end-of-instant check
	})
	w.Run(20 * time.Second)
	wantViolation(t, inv, RuleAllocation, "running totals")
	if err := inv.Err(); err == nil || !strings.Contains(err.Error(), "at 20s: allocation") {
		t.Errorf("Err() = %v", err)
	}
}
