package model

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/podsim/podsim/sim"
)

// kubectl drain's pacing (staging/src/k8s.io/kubectl/pkg/drain/drain.go):
// a refused eviction is tried again after 5s; an evicted pod is polled for
// every second until it is gone.
const (
	evictionRetry    = 5 * time.Second
	deletionPollTime = 1 * time.Second
)

// Kubectl is kubectl as a client of the world's API: it acts through the
// API like any client and reports each step as kubectl prints it, as a
// ChangeClient change (Object "kubectl").
type Kubectl struct{ w *World }

// Kubectl returns the world's kubectl.
func (w *World) Kubectl() Kubectl { return Kubectl{w} }

// say records one line kubectl prints: verb names the step, code the
// API's answer ("" if none), node the object (see sayPod for a pod).
func (k Kubectl) say(node, verb, code, line string) {
	k.w.record(Change{Kind: ChangeClient, Object: "kubectl", Node: node, Reason: verb, Status: code, Message: line})
}

// sayPod is say about the pod p (World.ChangeNamesPod).
func (k Kubectl) sayPod(p *Pod, verb, code, line string) {
	k.w.current = Change{Kind: ChangeClient, Object: "kubectl", Pod: p.Name, Namespace: p.Namespace, Reason: verb, Status: code, Message: line}
	k.w.changePod, k.w.changeNames = nil, p
	k.w.emit()
}

// Cordon is `kubectl cordon NODE`.
func (k Kubectl) Cordon(n *Node) { k.setCordon(n, "Cordon", "cordoned", n.Cordon) }

// Uncordon is `kubectl uncordon NODE`.
func (k Kubectl) Uncordon(n *Node) { k.setCordon(n, "Uncordon", "uncordoned", n.Uncordon) }

// setCordon is what kubectl prints for cordon or uncordon (verb): a gone
// node is not found; change reports whether the node changed, else it was
// done already.
func (k Kubectl) setCordon(n *Node, verb, done string, change func() bool) {
	switch {
	case n.gone:
		k.say(n.Name, verb, "404", fmt.Sprintf("Error from server (NotFound): nodes %q not found", n.Name))
	case change():
		k.say(n.Name, verb, "200", "node/"+n.Name+" "+done)
	default:
		k.say(n.Name, verb, "", "node/"+n.Name+" already "+done)
	}
}

// drain is one `kubectl drain` under way.
type drain struct {
	k       Kubectl
	node    *Node
	pending int      // pods not yet gone or given up on
	errs    []string // evictions that failed for good
	then    func()   // what kubectl does next when the drain ends (DrainAll); nil: nothing
}

// Drain is `kubectl drain NODE --ignore-daemonsets --force`: it cordons
// the node, then evicts every pod bound to it that a DaemonSet does not own
// (bare pods too), all at once in the API's list order (by name), through
// the Eviction API (Pod.Evict). A refused eviction (429) is tried again
// every 5s, for ever; an evicted pod is waited for (polled every second)
// until it is gone. The drain ends when every pod is gone ("node/N
// drained"), or with an error if an eviction failed otherwise.
func (k Kubectl) Drain(n *Node) {
	k.Cordon(n)
	k.evictAll(n, nil)
}

// DrainAll is `kubectl drain -l SELECTOR` of nodes ns: as kubectl's
// RunDrain, it cordons every node first, then drains them one at a time
// in order, each once the one before it is drained or has failed
// ("continuing command...").
func (k Kubectl) DrainAll(ns []*Node) {
	for _, n := range ns {
		k.Cordon(n)
	}
	var from func(i int)
	from = func(i int) {
		if i < len(ns) {
			k.evictAll(ns[i], func() { from(i + 1) })
		}
	}
	from(0)
}

// evictAll is Drain's work after the cordon; then (if not nil) runs when
// it ends.
func (k Kubectl) evictAll(n *Node, then func()) {
	if n.gone {
		if then != nil {
			then()
		}
		return
	}
	var evict, daemons, bare []*Pod
	for _, p := range n.pods {
		switch {
		case p.deleted:
		case p.owner != nil && p.owner.Spec.Kind == KindDaemonSet:
			daemons = append(daemons, p)
		default:
			if p.owner == nil {
				bare = append(bare, p)
			}
			evict = append(evict, p)
		}
	}
	byName := func(ps []*Pod) {
		sort.Slice(ps, func(i, j int) bool { return ps[i].Name < ps[j].Name })
	}
	byName(evict)
	if len(daemons) > 0 {
		byName(daemons)
		k.say(n.Name, "Drain", "", "Warning: ignoring DaemonSet-managed Pods: "+qualified(daemons))
	}
	if len(bare) > 0 {
		byName(bare)
		k.say(n.Name, "Drain", "", "Warning: deleting Pods that declare no controller: "+qualified(bare))
	}
	d := &drain{k: k, node: n, pending: len(evict), then: then}
	if d.pending == 0 {
		d.finish()
		return
	}
	for _, p := range evict {
		d.evict(p)
	}
}

// qualified lists pods as namespace/name, comma separated.
func qualified(ps []*Pod) string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.Namespace + "/" + p.Name
	}
	return strings.Join(names, ", ")
}

// evict is one try of the eviction loop for p: kubectl says what it
// evicts, then acts on the answer.
func (d *drain) evict(p *Pod) {
	k, now := d.k, d.k.w.Now()
	k.sayPod(p, "Evict", "", "evicting pod "+p.Namespace+"/"+p.Name)
	res := p.Evict()
	switch res.Code {
	case EvictionCreated:
		d.waitGone(p, now)
	case EvictionNotFound:
		d.done()
	case EvictionTooManyRequests:
		k.sayPod(p, "Evict", "429", fmt.Sprintf("error when evicting pods/%q -n %q (will retry after 5s): %s", p.Name, p.Namespace, res.Message))
		k.w.eng.At(sim.AddSat(now, evictionRetry), sim.Normal, func() { d.evict(p) })
	default:
		msg := fmt.Sprintf("error when evicting pods/%q -n %q: %s", p.Name, p.Namespace, res.Message)
		k.sayPod(p, "Evict", fmt.Sprint(res.Code), msg)
		d.errs = append(d.errs, msg)
		d.done()
	}
}

// waitGone polls for p every second from since (waitForDelete's
// PollImmediate), after every change of each instant, until it is gone.
func (d *drain) waitGone(p *Pod, since time.Duration) {
	var poll func()
	at := since
	poll = func() {
		if p.deleted {
			d.k.sayPod(p, "Evicted", "", "pod/"+p.Name+" evicted")
			d.done()
			return
		}
		at = sim.AddSat(at, deletionPollTime)
		d.k.w.eng.At(at, sim.Late, poll)
	}
	d.k.w.eng.At(since, sim.Late, poll)
}

// done counts one pod off; the last one ends the drain.
func (d *drain) done() {
	if d.pending--; d.pending == 0 {
		d.finish()
	}
}

func (d *drain) finish() {
	n := d.node
	if len(d.errs) > 0 {
		d.k.say(n.Name, "Drain", "", fmt.Sprintf("error: unable to drain node %q due to error: %s, continuing command...", n.Name, strings.Join(d.errs, ", ")))
	} else {
		d.k.say(n.Name, "Drain", "", "node/"+n.Name+" drained")
	}
	if d.then != nil {
		d.then()
	}
}
