package model

import "time"

// ChangeKind says what a Change is about.
type ChangeKind uint8

// The kinds of change; their String is the timeline's "kind" field.
const (
	ChangePhase     ChangeKind = iota + 1 // a pod's phase: From -> To
	ChangeContainer                       // a container's state: State, Reason, ExitCode, RestartCount
	ChangeCondition                       // a pod condition: Type, Status, Reason
	ChangeEvent                           // a Kubernetes event: Type (Normal, Warning), Reason, Message
	ChangeNode                            // a node condition: Type, Status, Reason
	ChangeWorkload                        // a workload condition: Type, Status, Reason
	ChangePod                             // the pod object: Reason Terminating (Message) or Deleted
	ChangeClient                          // a client's request as it reports it (kubectl): Object the client, Reason the verb, Status the answer's code, Message its line
)

var changeKindNames = [...]string{ChangePhase: "phase", ChangeContainer: "container", ChangeCondition: "condition",
	ChangeEvent: "event", ChangeNode: "node", ChangeWorkload: "workload", ChangePod: "pod", ChangeClient: "client"}

func (k ChangeKind) String() string {
	if int(k) < len(changeKindNames) {
		return changeKindNames[k]
	}
	return "unknown"
}

// Change is one entry of the timeline: something observable changed. Which
// fields are set depends on Kind. Its strings are the model's own (object
// names, reason constants, interned messages): a Change costs no allocation.
type Change struct {
	T         time.Duration
	Pod       string
	Namespace string // of a pod or a workload; "default" or "" is the default namespace
	Container string
	Node      string
	Workload  string // a workload's name (events about it, its conditions)
	Object    string // the kind of object an event or a workload condition is about, if not a pod or node
	// Owner is the Deployment of the ReplicaSet (Workload, Object
	// ReplicaSet) an event is about: its pods' SuccessfulCreate and
	// SuccessfulDelete, which the API records on the ReplicaSet; "" otherwise.
	Owner string

	From, To Phase // phase; From is "" when the pod was created

	Reason  string
	Message string

	Type   string // condition type, event type (Normal/Warning), node condition type
	Status string // condition status; "" for a pod condition removed

	// The small fields sit together, so that a Change has no padding to
	// clear with it (World.begin clears one per change, when a sink hears).
	ExitCode     int32
	RestartCount int32
	Kind         ChangeKind
	State        StateKind // container
	HasExitCode  bool

	// An event's Message is the component's. Combined marks an occurrence
	// that the event recorder's correlator put into the combined event of
	// similar ones ("(combined from similar events): <message>" in the API);
	// Dropped one that its spam filter kept from the API (events.go): the
	// component recorded it, and kubectl never sees it.
	Combined, Dropped bool
}

// A Sink receives every change of a world as it happens, in time order.
// The *Change is only valid during the call: a sink keeps what it needs.
type Sink interface {
	Change(c *Change)
}

// Subscribe adds s to the sinks that receive every change from now on.
// Subscribe before the world is populated to see its first changes. A
// sink that is also an ObjectSink hears the objects too.
func (w *World) Subscribe(s Sink) {
	w.sinks = append(w.sinks, s)
	if o, ok := s.(ObjectSink); ok {
		w.objectSinks = append(w.objectSinks, o)
	}
	u, ok1 := s.(UseSink)
	t, ok2 := s.(TrafficSink)
	if (ok1 || ok2) && len(w.useSinks)+len(w.trafficSinks) == 0 {
		w.sinkFlush.Init(w.flushSinks)
	}
	if ok1 {
		w.useSinks = append(w.useSinks, u)
	}
	if ok2 {
		w.trafficSinks = append(w.trafficSinks, t)
	}
}

// ChangeCount is how many changes the world has made so far: a state that
// any check can see only differs after this number grows.
func (w *World) ChangeCount() int { return w.changeCount }

// record stamps c with the current time and hands it to every sink. (The
// world's own copy is what sinks get, so that c does not escape.)
func (w *World) record(c Change) {
	w.current, w.changePod, w.changeNames = c, nil, nil
	w.emit()
}

// begin clears the world's current change for a new one of kind k and
// returns it, to be filled in place and handed to the sinks by emit. It
// writes the change where the sinks read it, without building a copy first.
// With no sink, nothing reads it: it is not cleared (a run that checks
// nothing, as the crash-loop fleet's `podsim test`, makes 700,000 changes).
func (w *World) begin(k ChangeKind) *Change {
	c := &w.current
	if len(w.sinks) > 0 {
		*c = Change{}
	}
	c.Kind = k
	w.changePod, w.changeNames = nil, nil
	return c
}

// begin is World.begin for a change of p's own (its phase, a container,
// a condition, the pod object), with p's names.
func (p *Pod) begin(k ChangeKind) *Change {
	c := p.w.begin(k)
	c.Pod, c.Namespace = p.Name, p.Namespace
	p.w.changePod, p.w.changeNames = p, p
	return c
}

// record is World.record for a change of p's own, with p's names.
func (p *Pod) record(c Change) {
	c.Pod, c.Namespace = p.Name, p.Namespace
	p.w.current, p.w.changePod, p.w.changeNames = c, p, p
	p.w.emit()
}

// ChangePod is the pod whose own change (Kind ChangePhase, ChangeContainer,
// ChangeCondition or ChangePod) the sinks are being handed, so that a sink
// need not find it by its names; nil for any other change (an event about
// the pod too). For sinks, during Change.
func (w *World) ChangePod() *Pod { return w.changePod }

// ChangeNamesPod is the pod that the change the sinks are being handed
// names (Change.Pod): the pod of its own change, as ChangePod, of an
// event about it, or of what kubectl printed about it; nil for a change
// that names none (or names a pod gone from the world). For sinks,
// during Change.
func (w *World) ChangeNamesPod() *Pod { return w.changeNames }

// emit stamps the world's current change with the current time and hands
// it to every sink: record for a change built in place (w.current), as the
// hot paths do, without copying it.
func (w *World) emit() {
	w.current.T = w.eng.Now()
	w.changeCount++
	for _, s := range w.sinks {
		s.Change(&w.current)
	}
}

// Timeline is a sink that keeps every change: for tests and for outputs
// that need the whole run at once. Nothing else should hold a whole run.
type Timeline struct {
	Changes []Change
}

// Change appends c.
func (t *Timeline) Change(c *Change) { t.Changes = append(t.Changes, *c) }
