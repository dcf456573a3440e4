package report

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"net"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/podsim/podsim/model"
)

// WriteDescribePod prints `kubectl describe pod` for p as of world.Now(),
// in the layout of kubectl's describer (k8s.io/kubectl/pkg/describe,
// describePod): key/value lines aligned by a tabwriter, two spaces per
// level, then the Conditions and Events tables. Start Time and a
// container's Started/Finished are dates, as kubectl prints them
// (RFC1123Z), of the wall clock the scenario's spec.startTime sets
// (World.WallTime); ages are kubectl's (HumanDuration).
//
// Fields podsim does not model (IP, Container ID, Port, Volumes, ...) are
// left out rather than invented; docs/describe-vs-kubectl.md lists them.
// Tolerations include the default not-ready and unreachable ones the API
// server adds. A deleted pod shows its last status.
func WriteDescribePod(w io.Writer, world *model.World, p *model.Pod) error {
	now := world.Now()
	st := p.Status()

	var buf bytes.Buffer
	// kubectl's tabbedString: tabwriter.NewWriter(buf, 0, 8, 2, ' ', 0).
	tw := tabwriter.NewWriter(&buf, 0, 8, 2, ' ', 0)
	d := &describer{w: tw, world: world}

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
		d.line(0, "Start Time:\t%s", d.date(st.StartTime))
	}
	kind, owner := ControlledBy(p)
	d.labels("Labels", podLabels(p, kind, owner))
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
	// kubectl's describePod: IP always, IPs one line each or <none>.
	d.line(0, "IP:\t%s", st.PodIP)
	if st.PodIP == "" {
		d.line(0, "IPs:\t<none>")
	} else {
		d.line(0, "IPs:")
		d.line(1, "IP:\t%s", st.PodIP)
	}
	if kind != "" {
		d.line(0, "Controlled By:\t%s/%s", kind, owner)
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
	d.line(0, "QoS Class:\t%s", QOSClass(p.Spec))
	d.labels("Node-Selectors", p.Spec.NodeSelector)
	d.tolerations(podTolerations(p, world.Settings().EvictionTimeout))
	d.autoscaler(PodAutoscalerSays(world, p))
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
	w     *tabwriter.Writer
	world *model.World
	err   error
}

// date is virtual time t as kubectl prints a timestamp (time.RFC1123Z).
func (d *describer) date(t time.Duration) string {
	return d.world.WallTime(t).Format(time.RFC1123Z)
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

// podLabels are the pod's labels as the API has them: a Deployment's pod
// carries its ReplicaSet's pod-template-hash too.
func podLabels(p *model.Pod, kind, owner string) map[string]string {
	wl := p.Owner()
	if kind != model.KindReplicaSet || wl == nil || wl.Spec.Kind != model.KindDeployment {
		return p.Labels
	}
	out := make(map[string]string, len(p.Labels)+1)
	maps.Copy(out, p.Labels)
	out["pod-template-hash"] = strings.TrimPrefix(owner, wl.Spec.Name+"-")
	return out
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
		d.resources("Limits", c.Limits)
		d.resources("Requests", c.Requests)
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

// resources prints a container's limits or requests, cpu then memory as
// kubectl sorts resource names (describeResources); nothing if none.
func (d *describer) resources(title string, r model.Resources) {
	if r.MilliCPU == 0 && r.Memory == 0 {
		return
	}
	d.line(2, "%s:", title)
	if r.MilliCPU != 0 {
		d.line(3, "cpu:\t%s", FormatCPU(r.MilliCPU))
	}
	if r.Memory != 0 {
		d.line(3, "memory:\t%s", FormatMemory(r.Memory))
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
		d.line(3, "Started:\t%s", d.date(s.StartedAt))
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
		d.line(3, "Started:\t%s", d.date(s.StartedAt))
		d.line(3, "Finished:\t%s", d.date(s.FinishedAt))
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
		d.line(1, "%s\t%s\t%s\t%s\t%s", e.Type(), e.Reason(), EventAge(e, now), e.Source(), strings.TrimSpace(e.Message()))
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
// period=10s successThreshold=1 failureThreshold=3" (kubectl 1.37's words;
// before, "#success=1 #failure=3"), "exec [cat /tmp/healthy] ...",
// "tcp-socket :80 ...", "grpc <pod>:9090 ...".
func DescribeProbe(p *model.ProbeSpec) string {
	attrs := fmt.Sprintf("delay=%ds timeout=%ds period=%ds successThreshold=%d failureThreshold=%d",
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
