package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// WriteDescribePod prints `kubectl describe pod` for p as of world.Now(),
// in the layout of kubectl's describer (k8s.io/kubectl/pkg/describe,
// describePod): key/value lines aligned by a tabwriter, two spaces per
// level, then the Conditions and Events tables. Times are virtual: Start
// Time and a container's Started/Finished are durations since the start of
// the scenario (FormatTime); ages are kubectl's (HumanDuration).
//
// Fields podsim does not model (IP, Container ID, Port, Volumes, QoS Class,
// ...) are left out rather than invented. Tolerations include the default
// not-ready and unreachable ones the API server adds. A deleted pod shows its last status.
func WriteDescribePod(w io.Writer, world *model.World, p *model.Pod) error {
	now := world.Now()
	st := p.Status()

	var buf bytes.Buffer
	// kubectl's tabbedString: tabwriter.NewWriter(buf, 0, 8, 2, ' ', 0).
	tw := tabwriter.NewWriter(&buf, 0, 8, 2, ' ', 0)
	d := &describer{w: tw}

	d.line(0, "Name:\t%s", p.Name)
	d.line(0, "Namespace:\t%s", p.Namespace)
	d.line(0, "Priority:\t%d", p.Priority())
	if c := p.Spec.PriorityClassName; c != "" {
		d.line(0, "Priority Class Name:\t%s", c)
	}
	if p.Node == nil {
		d.line(0, "Node:\t<none>")
	} else {
		d.line(0, "Node:\t%s", p.Node.Name)
	}
	if st.Started {
		d.line(0, "Start Time:\t%s", sim.FormatTime(st.StartTime))
	}
	d.labels("Labels", p.Labels)
	if ts, grace, ok := p.DeletionTimestamp(); ok && !st.Phase.Terminal() {
		// kubectl: "Terminating (lasts <age of deletionTimestamp>)"; the API
		// server sets deletionTimestamp to the delete's time plus the grace
		// period, so during the grace period kubectl says <invalid>.
		d.line(0, "Status:\tTerminating (lasts %s)", HumanDuration(now-ts))
		d.line(0, "Termination Grace Period:\t%ds", int64(grace/time.Second))
	} else {
		d.line(0, "Status:\t%s", st.Phase)
	}
	if st.Reason != "" {
		d.line(0, "Reason:\t%s", st.Reason)
	}
	if st.Message != "" {
		d.line(0, "Message:\t%s", st.Message)
	}
	if n := p.NominatedNodeName(); n != "" {
		d.line(0, "NominatedNodeName:\t%s", n)
	}
	if len(p.Spec.InitContainers) > 0 {
		d.containers("Init Containers", p.Spec.InitContainers, st.InitContainerStatuses)
	}
	d.containers("Containers", p.Spec.Containers, st.ContainerStatuses)
	if len(p.Spec.ReadinessGates) > 0 {
		d.line(0, "Readiness Gates:")
		d.line(1, "Type\tStatus")
		for _, g := range p.Spec.ReadinessGates {
			status := "<none>"
			if c, ok := st.Condition(g); ok {
				status = string(c.Status)
			}
			// kubectl writes "%v \t%v \n": the blank widens the column.
			d.line(1, "%s \t%s", g, status)
		}
	}
	if len(st.Conditions) > 0 {
		d.line(0, "Conditions:")
		d.line(1, "Type\tStatus")
		for _, c := range st.Conditions {
			d.line(1, "%s \t%s", c.Type, c.Status)
		}
	}
	d.labels("Node-Selectors", p.Spec.NodeSelector)
	d.tolerations(podTolerations(p, world.Settings().EvictionTimeout))
	d.events(sortedEvents(world.EventsFor("Pod", p.Key())), now)
	if d.err != nil {
		return d.err
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// kubectl leaves a blank after some cells ("True "); drop trailing
	// blanks so the output diffs cleanly. Column widths are unchanged.
	for _, line := range strings.SplitAfter(buf.String(), "\n") {
		if line == "" {
			continue
		}
		if _, err := io.WriteString(w, strings.TrimRight(line, " \n")+"\n"); err != nil {
			return err
		}
	}
	return nil
}

// describer is kubectl's PrefixWriter: each level indents two spaces.
type describer struct {
	w   *tabwriter.Writer
	err error
}

func (d *describer) line(level int, format string, args ...any) {
	if d.err != nil {
		return
	}
	s := format
	if len(args) > 0 {
		s = fmt.Sprintf(format, args...)
	}
	_, d.err = io.WriteString(d.w, strings.Repeat("  ", level)+s+"\n")
}

// labels prints key=value pairs one a line, sorted by key, aligned in the
// value column (kubectl's printLabelsMultiline).
func (d *describer) labels(title string, m map[string]string) {
	if len(m) == 0 {
		d.line(0, "%s:\t<none>", title)
		return
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for i, k := range keys {
		if i == 0 {
			d.line(0, "%s:\t%s=%s", title, k, m[k])
		} else {
			d.line(0, "\t%s=%s", k, m[k])
		}
	}
}

// podTolerations are p's tolerations as the API has them: its own, and
// those the DefaultTolerationSeconds admission plugin adds for the
// not-ready and unreachable taints it does not tolerate yet, for evict
// (plugin/pkg/admission/defaulttolerationseconds).
func podTolerations(p *model.Pod, evict time.Duration) []model.Toleration {
	out := slices.Clone(p.Tolerations())
	secs := int64(evict / time.Second)
	for _, key := range []string{model.TaintNotReady, model.TaintUnreachable} {
		if !slices.ContainsFunc(out, func(t model.Toleration) bool {
			return (t.Key == key || t.Key == "" && t.Operator == "Exists") && (t.Effect == "" || t.Effect == "NoExecute")
		}) {
			out = append(out, model.Toleration{Key: key, Operator: "Exists", Effect: "NoExecute", Seconds: &secs})
		}
	}
	return out
}

// tolerations prints kubectl's Tolerations, sorted by key
// (printTolerationsMultilineWithIndent).
func (d *describer) tolerations(ts []model.Toleration) {
	if len(ts) == 0 {
		d.line(0, "Tolerations:\t<none>")
		return
	}
	slices.SortStableFunc(ts, func(a, b model.Toleration) int { return strings.Compare(a.Key, b.Key) })
	for i, t := range ts {
		var b strings.Builder
		b.WriteString(t.Key)
		if t.Value != "" {
			b.WriteString("=" + t.Value)
		}
		if t.Effect != "" {
			b.WriteString(":" + t.Effect)
		}
		if t.Operator == "Exists" && t.Value == "" {
			if t.Key != "" || t.Effect != "" {
				b.WriteString(" ")
			}
			b.WriteString("op=Exists")
		}
		if t.Seconds != nil {
			fmt.Fprintf(&b, " for %ds", *t.Seconds)
		}
		if i == 0 {
			d.line(0, "Tolerations:\t%s", b.String())
		} else {
			d.line(0, "\t%s", b.String())
		}
	}
}

// containers prints one block per container of the spec, with its status
// when the kubelet has reported one (kubectl's describeContainers).
func (d *describer) containers(label string, specs []model.ContainerSpec, statuses []model.ContainerStatus) {
	if len(specs) == 0 {
		d.line(0, "%s: <none>", label)
		return
	}
	d.line(0, "%s:", label)
	for i := range specs {
		c := &specs[i]
		d.line(1, "%s:", c.Name)
		d.line(2, "Image:\t%s", c.Image)
		if s := findStatus(statuses, c.Name); s != nil {
			d.state("State", s.State)
			if s.LastState.Kind == model.StateTerminated {
				d.state("Last State", s.LastState)
			}
			d.line(2, "Ready:\t%s", boolWord(s.Ready))
			d.line(2, "Restart Count:\t%d", s.RestartCount)
		}
		if c.Requests.MilliCPU != 0 || c.Requests.Memory != 0 {
			d.line(2, "Requests:")
			if c.Requests.MilliCPU != 0 {
				d.line(3, "cpu:\t%s", FormatCPU(c.Requests.MilliCPU))
			}
			if c.Requests.Memory != 0 {
				d.line(3, "memory:\t%s", FormatMemory(c.Requests.Memory))
			}
		}
		for _, pr := range []struct {
			name string
			spec *model.ProbeSpec
		}{{"Liveness", c.Liveness}, {"Readiness", c.Readiness}, {"Startup", c.Startup}} {
			if pr.spec != nil {
				d.line(2, "%s:\t%s", pr.name, DescribeProbe(pr.spec))
			}
		}
	}
}

// findStatus returns the status of the container called name, or nil when
// the kubelet has not reported one yet.
func findStatus(statuses []model.ContainerStatus, name string) *model.ContainerStatus {
	for i := range statuses {
		if statuses[i].Name == name {
			if statuses[i].State.Kind == model.StateNone {
				return nil
			}
			return &statuses[i]
		}
	}
	return nil
}

// state prints a container state as kubectl's describeStatus does.
func (d *describer) state(name string, s model.ContainerState) {
	switch s.Kind {
	case model.StateRunning:
		d.line(2, "%s:\tRunning", name)
		d.line(3, "Started:\t%s", sim.FormatTime(s.StartedAt))
	case model.StateTerminated:
		d.line(2, "%s:\tTerminated", name)
		if s.Reason != "" {
			d.line(3, "Reason:\t%s", s.Reason)
		}
		if s.Message != "" {
			d.line(3, "Message:\t%s", s.Message)
		}
		d.line(3, "Exit Code:\t%d", s.ExitCode)
		if s.Signal > 0 {
			d.line(3, "Signal:\t%d", s.Signal)
		}
		d.line(3, "Started:\t%s", sim.FormatTime(s.StartedAt))
		d.line(3, "Finished:\t%s", sim.FormatTime(s.FinishedAt))
	default: // Waiting
		d.line(2, "%s:\tWaiting", name)
		if s.Reason != "" {
			d.line(3, "Reason:\t%s", s.Reason)
		}
	}
}

// events prints kubectl's Events table, or "Events: <none>".
func (d *describer) events(evs []*model.Event, now time.Duration) {
	if len(evs) == 0 {
		d.line(0, "Events:\t<none>")
		return
	}
	if d.err == nil {
		d.err = d.w.Flush() // kubectl flushes: the table aligns on its own
	}
	d.line(0, "Events:")
	d.line(1, "Type\tReason\tAge\tFrom\tMessage")
	d.line(1, "----\t------\t----\t----\t-------")
	for _, e := range evs {
		d.line(1, "%s\t%s\t%s\t%s\t%s", e.Type, e.Reason, EventAge(e, now), e.Source, strings.TrimSpace(e.Message))
	}
}

// sortedEvents orders the events that reached the API as kubectl describe
// does, by the time each was last seen; ties keep the order of first
// occurrence.
func sortedEvents(evs []*model.Event) []*model.Event {
	out := slices.DeleteFunc(slices.Clone(evs), func(e *model.Event) bool { return !e.Listed() })
	slices.SortStableFunc(out, func(a, b *model.Event) int {
		switch {
		case a.LastSeen < b.LastSeen:
			return -1
		case a.LastSeen > b.LastSeen:
			return 1
		}
		return 0
	})
	return out
}

// EventAge is the Age column of kubectl describe's Events table as of now:
// the age of the event for a single occurrence, and for a repeated one
// "<age of the last> (x<count> over <age of the first>)", e.g. "2m (x5 over 4m)".
func EventAge(e *model.Event, now time.Duration) string {
	first := HumanDuration(now - e.FirstSeen)
	if e.Count > 1 {
		return fmt.Sprintf("%s (x%d over %s)", HumanDuration(now-e.LastSeen), e.Count, first)
	}
	return first
}

// DescribeProbe formats a probe as kubectl's DescribeProbe does, with what
// its handler checks: "http-get http://:8080/healthz delay=0s timeout=1s
// period=10s #success=1 #failure=3", "exec [cat /tmp/healthy] ...",
// "tcp-socket :80 ...", "grpc <pod>:9090 ...".
func DescribeProbe(p *model.ProbeSpec) string {
	attrs := fmt.Sprintf("delay=%ds timeout=%ds period=%ds #success=%d #failure=%d",
		int64(p.InitialDelay/time.Second), int64(p.Timeout/time.Second), int64(p.Period/time.Second),
		p.SuccessThreshold, p.FailureThreshold)
	switch p.Handler {
	case "exec":
		return fmt.Sprintf("exec %v %s", p.Command, attrs)
	case "httpGet":
		u := url.URL{Scheme: strings.ToLower(p.Scheme), Host: p.Host, Path: p.Path}
		if p.Port != "" {
			u.Host = net.JoinHostPort(p.Host, p.Port)
		}
		return fmt.Sprintf("http-get %s %s", u.String(), attrs)
	case "tcpSocket":
		return fmt.Sprintf("tcp-socket %s:%s %s", p.Host, p.Port, attrs)
	case "grpc":
		return fmt.Sprintf("grpc <pod>:%s %s %s", p.Port, p.Service, attrs)
	}
	return "unknown " + attrs
}

func boolWord(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

// FormatCPU writes milli-cores as a Kubernetes quantity: "250m", "2".
func FormatCPU(milli int64) string {
	if milli%1000 == 0 {
		return strconv.FormatInt(milli/1000, 10)
	}
	return strconv.FormatInt(milli, 10) + "m"
}

// FormatMemory writes bytes as a Kubernetes quantity with the largest
// suffix that keeps it whole, binary (Ki, Mi, ...) or decimal (k, M, ...),
// whichever is shorter, binary on a tie: 128Mi, 1G, 1500.
func FormatMemory(b int64) string {
	best := strconv.FormatInt(b, 10)
	try := func(base int64, suffixes []string) string {
		n, s := b, ""
		for _, suf := range suffixes {
			if n%base != 0 || n == 0 {
				break
			}
			n, s = n/base, suf
		}
		return strconv.FormatInt(n, 10) + s
	}
	if bin := try(1024, []string{"Ki", "Mi", "Gi", "Ti", "Pi", "Ei"}); len(bin) <= len(best) {
		best = bin
	}
	if dec := try(1000, []string{"k", "M", "G", "T", "P", "E"}); len(dec) < len(best) {
		best = dec
	}
	return best
}

// JSON view of `podsim describe -o json`: the pod's metadata, node and
// status under the Kubernetes API's field names, plus its events. Times
// are virtual seconds since the start of the scenario (numbers).

type describeJSON struct {
	At       float64        `json:"at"` // the virtual time of the view
	Deleted  bool           `json:"deleted,omitempty"`
	Metadata podMetaJSON    `json:"metadata"`
	Spec     podSpecJSON    `json:"spec"`
	Status   podStatusJSON  `json:"status"`
	Events   []podEventJSON `json:"events"`
}

type podMetaJSON struct {
	Name              string            `json:"name"`
	Namespace         string            `json:"namespace"`
	Labels            map[string]string `json:"labels,omitempty"`
	CreationTimestamp float64           `json:"creationTimestamp"`
	DeletionTimestamp *float64          `json:"deletionTimestamp,omitempty"`
}

type podSpecJSON struct {
	NodeName string `json:"nodeName,omitempty"`
}

type podStatusJSON struct {
	Phase                 string                `json:"phase"`
	Reason                string                `json:"reason,omitempty"`
	Message               string                `json:"message,omitempty"`
	StartTime             *float64              `json:"startTime,omitempty"`
	Conditions            []podConditionJSON    `json:"conditions"`
	InitContainerStatuses []containerStatusJSON `json:"initContainerStatuses,omitempty"`
	ContainerStatuses     []containerStatusJSON `json:"containerStatuses"`
}

type podConditionJSON struct {
	Type               string  `json:"type"`
	Status             string  `json:"status"`
	Reason             string  `json:"reason,omitempty"`
	Message            string  `json:"message,omitempty"`
	LastTransitionTime float64 `json:"lastTransitionTime"`
}

type containerStatusJSON struct {
	Name         string             `json:"name"`
	Image        string             `json:"image"`
	State        containerStateJSON `json:"state"`
	LastState    containerStateJSON `json:"lastState"`
	Ready        bool               `json:"ready"`
	Started      bool               `json:"started"`
	RestartCount int32              `json:"restartCount"`
}

type containerStateJSON struct {
	Waiting    *stateWaitingJSON    `json:"waiting,omitempty"`
	Running    *stateRunningJSON    `json:"running,omitempty"`
	Terminated *stateTerminatedJSON `json:"terminated,omitempty"`
}

type stateWaitingJSON struct {
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

type stateRunningJSON struct {
	StartedAt float64 `json:"startedAt"`
}

type stateTerminatedJSON struct {
	ExitCode   int32   `json:"exitCode"`
	Signal     int32   `json:"signal,omitempty"`
	Reason     string  `json:"reason,omitempty"`
	Message    string  `json:"message,omitempty"`
	StartedAt  float64 `json:"startedAt"`
	FinishedAt float64 `json:"finishedAt"`
}

type podEventJSON struct {
	Type           string          `json:"type"`
	Reason         string          `json:"reason"`
	Message        string          `json:"message"`
	Source         eventSourceJSON `json:"source"`
	Count          int             `json:"count"`
	FirstTimestamp float64         `json:"firstTimestamp"`
	LastTimestamp  float64         `json:"lastTimestamp"`
}

type eventSourceJSON struct {
	Component string `json:"component"`
}

// WriteDescribePodJSON writes the pod as `podsim describe -o json` shows
// it: metadata, spec.nodeName, status (phase, conditions, container
// statuses with state, lastState, ready, restartCount) and events, with the
// Kubernetes API's field names; times are virtual seconds (numbers).
func WriteDescribePodJSON(w io.Writer, world *model.World, p *model.Pod) error {
	st := p.Status()
	doc := describeJSON{
		At: Seconds(world.Now()),
		Metadata: podMetaJSON{Name: p.Name, Namespace: p.Namespace, Labels: p.Labels,
			CreationTimestamp: Seconds(p.CreatedAt)},
		Status: podStatusJSON{Phase: string(st.Phase), Reason: st.Reason, Message: st.Message,
			Conditions: []podConditionJSON{}, ContainerStatuses: []containerStatusJSON{}},
		Events:  []podEventJSON{},
		Deleted: p.Deleted(),
	}
	if ts, _, ok := p.DeletionTimestamp(); ok {
		t := Seconds(ts)
		doc.Metadata.DeletionTimestamp = &t
	}
	if p.Node != nil {
		doc.Spec.NodeName = p.Node.Name
	}
	if st.Started {
		t := Seconds(st.StartTime)
		doc.Status.StartTime = &t
	}
	for _, c := range st.Conditions {
		doc.Status.Conditions = append(doc.Status.Conditions, podConditionJSON{Type: c.Type,
			Status: string(c.Status), Reason: c.Reason, Message: c.Message,
			LastTransitionTime: Seconds(c.LastTransitionTime)})
	}
	doc.Status.InitContainerStatuses = containerStatusesJSON(st.InitContainerStatuses)
	if cs := containerStatusesJSON(st.ContainerStatuses); cs != nil {
		doc.Status.ContainerStatuses = cs
	}
	for _, e := range sortedEvents(world.EventsFor("Pod", p.Key())) {
		doc.Events = append(doc.Events, podEventJSON{Type: string(e.Type), Reason: e.Reason,
			Message: e.Message, Source: eventSourceJSON{e.Source}, Count: e.Count,
			FirstTimestamp: Seconds(e.FirstSeen), LastTimestamp: Seconds(e.LastSeen)})
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

func containerStatusesJSON(ss []model.ContainerStatus) []containerStatusJSON {
	var out []containerStatusJSON
	for i := range ss {
		s := &ss[i]
		if s.State.Kind == model.StateNone {
			continue // not reported by the kubelet yet
		}
		out = append(out, containerStatusJSON{Name: s.Name, Image: s.Image,
			State: stateJSON(s.State), LastState: stateJSON(s.LastState),
			Ready: s.Ready, Started: s.Started, RestartCount: s.RestartCount})
	}
	return out
}

func stateJSON(s model.ContainerState) containerStateJSON {
	switch s.Kind {
	case model.StateWaiting:
		return containerStateJSON{Waiting: &stateWaitingJSON{Reason: s.Reason, Message: s.Message}}
	case model.StateRunning:
		return containerStateJSON{Running: &stateRunningJSON{StartedAt: Seconds(s.StartedAt)}}
	case model.StateTerminated:
		return containerStateJSON{Terminated: &stateTerminatedJSON{ExitCode: s.ExitCode, Signal: s.Signal,
			Reason: s.Reason, Message: s.Message, StartedAt: Seconds(s.StartedAt), FinishedAt: Seconds(s.FinishedAt)}}
	}
	return containerStateJSON{}
}
