package scenarios

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"

	"github.com/podsim/podsim/model"
)

// A FaultKind is one kind of fault: the action a Fault's one set field
// names. faultKinds, keyed by the YAML name, is every kind there is; the
// validator, the world's builder, podsim serve's writes, the scenario
// generator and the manual's test all read it.
type FaultKind interface {
	// Name is the kind's key in a fault ("cordon").
	Name() string
	// Random draws one fault of this kind from d.R with what d offers, as
	// its key and value in YAML ("cordon: {node: a}"); "" for a kind the
	// generator does not draw.
	Random(d *FaultDraw) string
	// in reports whether f's action is of this kind.
	in(f *Fault) bool
	// validate checks f's action (f is of this kind).
	validate(v *validator, f *Fault)
	// action returns what f does to the world when its time comes; its
	// durations are drawn now, through c.draw.
	action(c *faultWorld, f *Fault) func()
}

// faultKind is a FaultKind whose action is a *T in the Fault field that
// field returns.
type faultKind[T any] struct {
	name   string
	field  func(f *Fault) **T
	check  func(v *validator, x *T)
	act    func(c *faultWorld, x *T) func()
	random func(d *FaultDraw) string // its value in YAML, or ""; nil: not drawn
}

func (k *faultKind[T]) Name() string                    { return k.name }
func (k *faultKind[T]) in(f *Fault) bool                { return *k.field(f) != nil }
func (k *faultKind[T]) validate(v *validator, f *Fault) { k.check(v, *k.field(f)) }

func (k *faultKind[T]) action(c *faultWorld, f *Fault) func() { return k.act(c, *k.field(f)) }

func (k *faultKind[T]) Random(d *FaultDraw) string {
	if k.random == nil {
		return ""
	}
	if v := k.random(d); v != "" {
		return k.name + ": " + v
	}
	return ""
}

// FaultKinds returns every kind of fault, in the order of Fault's fields.
func FaultKinds() []FaultKind { return slices.Clone(faultKinds) }

// FaultKindNamed returns the kind of fault whose key is name, or nil.
func FaultKindNamed(name string) FaultKind {
	for _, k := range faultKinds {
		if k.Name() == name {
			return k
		}
	}
	return nil
}

// Kind returns the kind of f's action: the first kind whose field is set
// (a valid fault sets exactly one), or nil.
func (f *Fault) Kind() FaultKind {
	for _, k := range faultKinds {
		if k.in(f) {
			return k
		}
	}
	return nil
}

// faultKindList is the names of the kinds as the "exactly one of" message
// lists them: "exit, oom, ..., rollout".
func faultKindList() string {
	names := make([]string, len(faultKinds))
	for i, k := range faultKinds {
		names[i] = k.Name()
	}
	return strings.Join(names, ", ")
}

// FaultDraw is what the scenario generator (internal/scenariogen) offers a
// kind of fault to draw one of its own.
type FaultDraw struct {
	R              *rand.Rand
	Pod, Container string        // a container of a bare pod or of a workload's pods
	Code           string        // an exit's code; "" draws 0 or 1
	Pods           []string      // the bare pods
	Nodes          []string      // the nodes
	For            func() string // a positive duration, fixed or drawn; nil: for ever
	Deployment     string        // a Deployment's name, "" for none
}

// pick draws one of xs.
func (d *FaultDraw) pick(xs ...string) string { return xs[d.R.IntN(len(xs))] }

// faultWorld is what a fault acts on and with: the world, the draw of its
// durations (in the order at, then for), and the scenario's behaviours by
// pod or workload key (a rollout's new image takes its own).
type faultWorld struct {
	w         *model.World
	draw      func(*DurationDist) *time.Duration
	behaviors map[string]map[behaviorKey]*model.Behavior
	refused   error // what the API refused of the action, if anything (an eviction's 429)
}

// EvictionRefused is the Eviction API's refusal of an evict fault: the
// pod is not found (404), its PodDisruptionBudget allows no disruption
// now (429), or it has more than one budget (500). It changed nothing.
type EvictionRefused struct {
	Pod    string
	Result model.EvictionResult
}

func (e *EvictionRefused) Error() string {
	return fmt.Sprintf("eviction of pod %s refused (%d): %s", e.Pod, e.Result.Code, e.Result.Message)
}

// faultAction returns what f does when it acts (nothing for a fault
// without an action, which validation refuses).
func faultAction(c *faultWorld, f *Fault) func() {
	if k := f.Kind(); k != nil {
		return k.action(c, f)
	}
	return func() {}
}

// scheduleFault arranges for the i-th fault to act on the world at its
// time. A time given as a distribution (at, for) is drawn now from the
// stream "fault/<i>"; a fixed one draws nothing.
func (s *Scenario) scheduleFault(w *model.World, i int, f *Fault, behaviors map[string]map[behaviorKey]*model.Behavior) {
	var r *rand.Rand
	draw := func(d *DurationDist) *time.Duration {
		if d == nil {
			return nil
		}
		if d.Dist != nil && r == nil {
			r = w.Engine().Rand(fmt.Sprintf("fault/%d", i))
		}
		v := d.Sample(r)
		return &v
	}
	at := *draw(f.At)
	w.Schedule(at, faultAction(&faultWorld{w: w, draw: draw, behaviors: behaviors}, f))
}

// ApplyFault does what the fault f does, now: a fault injected into a
// running world between its events (podsim serve turns a client's writes
// into faults). Its at is ignored; its durations must be fixed ones. A
// rollout's new image runs with the scenario's behaviour for it. The
// error is what the API refused (*EvictionRefused), and then nothing
// changed; a fault in a scenario file that the API refuses changes
// nothing either.
func (s *Scenario) ApplyFault(w *model.World, f *Fault) error {
	draw := func(d *DurationDist) *time.Duration {
		if d == nil {
			return nil
		}
		v := d.Sample(nil)
		return &v
	}
	c := &faultWorld{w: w, draw: draw, behaviors: s.behaviors()}
	faultAction(c, f)()
	return c.refused
}
