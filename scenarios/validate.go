package scenarios

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/podsim/podsim/model"
)

// validator collects every problem of a decoded scenario.
type validator struct {
	s    *Scenario
	errs ErrorList
	// here is where the item being checked (a pod, a workload, a fault...)
	// was written: the place of problems with a value that has no position
	// of its own (not written at all, or lost), so that every message has
	// one. Without an item, the root mapping. hereFile is its file: the
	// scenario's, or an included manifest's.
	here     Pos
	hereFile string

	nodes     map[string]bool      // node names after count expansion
	nodeCount int                  // nodes after count expansion, at most MaxNodes+1
	podCount  int                  // pods the scenario creates, at most MaxPods+1
	pods      map[string]*PodSpec  // by key: name, or namespace/name outside default (model.Key)
	workloads map[string]*Workload // controllers by key
	budgets   map[string]*Workload // PodDisruptionBudgets by key
	classes   map[string]*Workload // PriorityClasses by name (cluster-scoped)
	services  map[string]*Workload // Services by key
}

func (v *validator) at(ptr any, format string, args ...any) {
	file, p := v.s.locate(ptr, false)
	v.add(file, p, format, args...)
}

func (v *validator) atKey(ptr any, format string, args ...any) {
	file, p := v.s.locate(ptr, true)
	v.add(file, p, format, args...)
}

// atMapKey reports a problem with the key of a map entry.
func (v *validator) atMapKey(m any, key string, format string, args ...any) {
	file, p := v.s.locateMapKey(m, key)
	v.add(file, p, format, args...)
}

// add reports a problem at file:p, or if p is unknown at the place of the
// item being checked.
func (v *validator) add(file string, p Pos, format string, args ...any) {
	if p.IsZero() {
		file, p = v.hereFile, v.here
	}
	v.errs.Add(file, p, format, args...)
}

// item makes ptr, a list item about to be checked, the place of problems
// without a position of their own.
func (v *validator) item(ptr any) {
	v.hereFile, v.here = v.s.Path, v.s.root
	if file, p := v.s.locate(ptr, false); !p.IsZero() {
		v.hereFile, v.here = file, p
	}
}

var dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

// namespace checks a namespace name ("" is default).
func (v *validator) namespace(ns *string) {
	if *ns != "" && (len(*ns) > 63 || !dnsLabel.MatchString(*ns)) {
		v.at(ns, "namespace %q: want lowercase letters, digits and '-', starting and ending with a letter or digit (at most 63)", *ns)
	}
}

// inNamespace is " in namespace ns" for a namespace other than default,
// for messages.
func inNamespace(ns string) string {
	if namespaceOf(ns) == model.DefaultNamespace {
		return ""
	}
	return " in namespace " + ns
}

func (v *validator) name(ptr *string, parent any, what string) {
	switch {
	case *ptr == "":
		v.at(parent, "%s: name is required", what)
	case len(*ptr) > 63 || !dnsLabel.MatchString(*ptr):
		v.at(ptr, "%s name %q: want lowercase letters, digits and '-', starting and ending with a letter or digit (at most 63)", what, *ptr)
	}
}

// validate checks everything the decoder cannot: required fields, ranges,
// names and references between parts of the file.
func (s *Scenario) validate() ErrorList {
	v := &validator{s: s, here: s.root, hereFile: s.Path, nodes: map[string]bool{}, pods: map[string]*PodSpec{}, workloads: map[string]*Workload{}, budgets: map[string]*Workload{}, classes: map[string]*Workload{}}
	f := &s.File
	if f.APIVersion != APIVersion {
		v.atKey(&f.APIVersion, "apiVersion must be %q, not %q", APIVersion, f.APIVersion)
	}
	if f.Kind != KindScenario {
		v.atKey(&f.Kind, "kind must be %q, not %q", KindScenario, f.Kind)
	}
	v.name(&f.Metadata.Name, &f.Metadata, "scenario")
	sp := &f.Spec
	if sp.Duration != nil && sp.Duration.D() <= 0 {
		v.at(sp.Duration, "duration must be positive")
	}
	v.settings(&sp.Settings)
	if st := &sp.StartTime; *st != "" {
		if _, err := time.Parse(time.RFC3339, *st); err != nil {
			v.at(st, "startTime %q: want an RFC 3339 time such as 2024-01-01T00:00:00Z", *st)
		}
	}
	for i := range sp.Nodes {
		v.item(&sp.Nodes[i])
		v.node(&sp.Nodes[i])
	}
	for _, p := range s.pods {
		v.item(p)
		v.name(&p.Metadata.Name, &p.Metadata, "pod")
		v.namespace(&p.Metadata.Namespace)
		if p.Kind != "" && p.Kind != "Pod" {
			v.at(&p.Kind, "a pod's kind must be Pod, not %q", p.Kind)
		}
		key := model.Key(p.Metadata.Namespace, p.Metadata.Name)
		if _, dup := v.pods[key]; dup && p.Metadata.Name != "" {
			v.at(&p.Metadata.Name, "duplicate pod name %q%s", p.Metadata.Name, inNamespace(p.Metadata.Namespace))
		}
		v.pods[key] = &p.Spec
		v.addPods(p, 1)
		v.podSpec(&p.Spec, &p.Metadata, "pod "+p.Metadata.Name)
	}
	for _, w := range s.workloads {
		v.item(w)
		v.workload(w)
	}
	v.hereFile, v.here = v.s.Path, v.s.root
	v.admission()
	for i := range sp.Behavior {
		v.item(&sp.Behavior[i])
		v.behavior(&sp.Behavior[i], sp.Behavior[:i])
	}
	for i := range sp.Faults {
		v.item(&sp.Faults[i])
		v.fault(&sp.Faults[i])
	}
	v.traffic()
	for i := range sp.Behavior {
		v.item(&sp.Behavior[i])
		v.behaviorImage(&sp.Behavior[i], sp.Faults)
	}
	for i := range sp.Expect {
		v.item(&sp.Expect[i])
		v.expect(&sp.Expect[i])
	}
	return v.errs
}

func (v *validator) settings(st *Settings) {
	for _, b := range []*Backoff{&st.CrashLoopBackOff, &st.ImagePullBackOff} {
		if b.Initial != nil && b.Initial.D() <= 0 {
			v.at(b.Initial, "initial must be positive")
		}
		if b.Max != nil && b.Initial != nil && b.Max.D() < b.Initial.D() {
			v.at(b.Max, "max (%s) must not be less than initial (%s)", b.Max, b.Initial)
		}
	}
	if t := st.TerminatedPodGCThreshold; t != nil && *t < 0 {
		v.at(t, "terminatedPodGCThreshold must not be negative")
	}
	if d := st.NodeStatusUpdateFrequency; d != nil && d.D() <= 0 {
		v.at(d, "nodeStatusUpdateFrequency must be positive")
	}
	if _, ok := model.ParseKubeletSync(st.KubeletSync); st.KubeletSync != "" && !ok {
		v.at(&st.KubeletSync, "kubeletSync %q: want exact or realistic", st.KubeletSync)
	}
	seen := map[string]bool{}
	for i := range st.Images {
		im := &st.Images[i]
		switch {
		case im.Name == "":
			v.at(im, "image: name is required")
		case seen[im.Name]:
			v.at(&im.Name, "image %q is listed twice", im.Name)
		}
		seen[im.Name] = true
	}
}

var resourceNames = []string{"cpu", "memory", "pods", "ephemeral-storage"}

func (v *validator) node(n *Node) {
	v.name(&n.Name, n, "node")
	for k := range n.Capacity {
		if !slices.Contains(resourceNames, k) && !strings.Contains(k, "/") {
			v.atMapKey(&n.Capacity, k, "unknown resource %q: want cpu, memory, pods or ephemeral-storage", k)
		}
	}
	count := 1
	if n.Count != nil {
		count = *n.Count
		switch {
		case count < 1:
			v.at(n.Count, "count must be at least 1")
		case count > MaxNodes:
			v.at(n.Count, "count %d: a scenario has at most %d nodes", count, MaxNodes)
			count = 1
		}
	}
	if before := v.nodeCount; before <= MaxNodes {
		v.nodeCount = min(before+max(count, 1), MaxNodes+1)
		if v.nodeCount > MaxNodes && (n.Count == nil || *n.Count <= MaxNodes) {
			v.at(n, "%d nodes: a scenario has at most %d nodes, counts expanded", before+max(count, 1), MaxNodes)
		}
	}
	if v.nodeCount > MaxNodes {
		return // do not stamp out names past the limit
	}
	for _, name := range ExpandNodeNames(n.Name, count) {
		if v.nodes[name] {
			v.at(&n.Name, "duplicate node name %q", name)
		}
		v.nodes[name] = true
	}
	if n.MTBF != nil && n.MTBF.D() < time.Second {
		v.at(n.MTBF, "mtbf must be at least 1s")
	}
	if n.RepairTime != nil && n.MTBF == nil {
		v.atKey(&n.RepairTime, "repairTime goes with mtbf (a nodeFailure fault takes for)")
	}
	for i := range n.Taints {
		t := &n.Taints[i]
		if t.Key == "" {
			v.at(t, "taint: key is required")
		}
		if !slices.Contains([]string{"NoSchedule", "PreferNoSchedule", "NoExecute"}, t.Effect) {
			v.at(t, "taint effect %q: want NoSchedule, PreferNoSchedule or NoExecute", t.Effect)
		}
	}
}

// ExpandNodeNames returns the names a node entry stamps out: itself, or
// name-0 ... name-(count-1).
func ExpandNodeNames(name string, count int) []string {
	if count <= 1 {
		return []string{name}
	}
	out := make([]string, count)
	for i := range out {
		out[i] = fmt.Sprintf("%s-%d", name, i)
	}
	return out
}

func (v *validator) podSpec(ps *PodSpec, parent any, what string) {
	what = strings.TrimSpace(what) // "pod", not "pod ", for a pod without a name
	if ps.NodeName != "" && !v.nodes[ps.NodeName] && !(len(v.s.File.Spec.Nodes) == 0 && ps.NodeName == DefaultNodeName) {
		v.at(&ps.NodeName, "%s: nodeName %q is not a node of this scenario", what, ps.NodeName)
	}
	if ps.RestartPolicy != "" && !slices.Contains([]string{"Always", "OnFailure", "Never"}, ps.RestartPolicy) {
		v.at(&ps.RestartPolicy, "restartPolicy %q: want Always, OnFailure or Never", ps.RestartPolicy)
	}
	if g := ps.TerminationGracePeriodSeconds; g != nil && *g < 0 {
		v.at(g, "terminationGracePeriodSeconds must not be negative")
	}
	if len(ps.Containers) == 0 {
		v.at(parent, "%s: spec.containers must list at least one container", what)
	}
	v.scheduling(ps)
	v.sleepActions(ps)
	names := map[string]bool{}
	for i := range ps.InitContainers {
		c := &ps.InitContainers[i]
		v.container(c, names, true)
	}
	for i := range ps.Containers {
		v.container(&ps.Containers[i], names, false)
	}
	for i := range ps.Tolerations {
		t := &ps.Tolerations[i]
		if t.Operator != "" && t.Operator != "Exists" && t.Operator != "Equal" {
			v.at(&t.Operator, "toleration operator %q: want Exists or Equal", t.Operator)
		}
		if t.Operator == "Exists" && t.Value != "" {
			v.at(&t.Value, "a toleration with operator Exists takes no value")
		}
	}
	for i := range ps.ReadinessGates {
		if ps.ReadinessGates[i].ConditionType == "" {
			v.at(&ps.ReadinessGates[i], "readinessGates: conditionType is required")
		}
	}
	for i := range ps.SchedulingGates {
		if ps.SchedulingGates[i].Name == "" {
			v.at(&ps.SchedulingGates[i], "schedulingGates: name is required")
		}
	}
}

func (v *validator) container(c *Container, names map[string]bool, init bool) {
	v.name(&c.Name, c, "container")
	if names[c.Name] && c.Name != "" {
		v.at(&c.Name, "duplicate container name %q", c.Name)
	}
	names[c.Name] = true
	if c.Image == "" {
		v.at(c, "container %s: image is required", c.Name)
	}
	if c.ImagePullPolicy != "" && !slices.Contains([]string{"Always", "IfNotPresent", "Never"}, c.ImagePullPolicy) {
		v.at(&c.ImagePullPolicy, "imagePullPolicy %q: want Always, IfNotPresent or Never", c.ImagePullPolicy)
	}
	switch {
	case c.RestartPolicy != "" && !init:
		v.at(&c.RestartPolicy, "restartPolicy on a container is only allowed on init containers (sidecars)")
	case c.RestartPolicy != "" && c.RestartPolicy != "Always":
		v.at(&c.RestartPolicy, "an init container's restartPolicy can only be Always (a sidecar)")
	}
	sidecar := init && c.RestartPolicy == "Always"
	for _, r := range []map[string]Quantity{c.Resources.Requests, c.Resources.Limits} {
		for k := range r {
			if !slices.Contains(resourceNames, k) && !strings.Contains(k, "/") {
				v.atMapKey(r, k, "unknown resource %q: want cpu, memory or ephemeral-storage", k)
			}
		}
	}
	for k, lim := range c.Resources.Limits {
		if req, ok := c.Resources.Requests[k]; ok && req.MilliValue() > lim.MilliValue() {
			v.at(c, "container %s: %s request %s is more than its limit %s", c.Name, k, req, lim)
		}
	}
	probes := []struct {
		p    *Probe
		kind string
	}{{c.LivenessProbe, "livenessProbe"}, {c.ReadinessProbe, "readinessProbe"}, {c.StartupProbe, "startupProbe"}}
	for _, pr := range probes {
		if pr.p == nil {
			continue
		}
		if init && !sidecar {
			v.at(pr.p, "%s is not allowed on an init container that is not a sidecar", pr.kind)
		}
		v.probe(pr.p, pr.kind)
	}
	if c.Lifecycle != nil {
		if init && !sidecar {
			v.at(c.Lifecycle, "lifecycle hooks are not allowed on an init container that is not a sidecar")
		}
		for _, h := range []*Handler{c.Lifecycle.PostStart, c.Lifecycle.PreStop} {
			if h != nil {
				v.handler(h)
			}
		}
	}
}

func (v *validator) handler(h *Handler) int {
	n := 0
	for _, x := range []any{h.Exec, h.HTTPGet, h.TCPSocket, h.GRPC, h.Sleep} {
		if !isNilPtr(x) && !isNilNode(x) {
			n++
		}
	}
	if n != 1 {
		v.at(h, "want exactly one handler of exec, httpGet, tcpSocket, grpc or sleep; found %d", n)
	}
	return n
}

func (v *validator) probe(p *Probe, kind string) {
	v.handler(&p.Handler)
	positive := func(x *int32, field string, min int32) {
		if x != nil && *x < min {
			v.at(x, "%s.%s must be at least %d", kind, field, min)
		}
	}
	positive(p.InitialDelaySeconds, "initialDelaySeconds", 0)
	positive(p.PeriodSeconds, "periodSeconds", 1)
	positive(p.TimeoutSeconds, "timeoutSeconds", 1)
	positive(p.SuccessThreshold, "successThreshold", 1)
	positive(p.FailureThreshold, "failureThreshold", 1)
	if p.SuccessThreshold != nil && *p.SuccessThreshold != 1 && kind != "readinessProbe" {
		v.at(p.SuccessThreshold, "%s.successThreshold must be 1", kind)
	}
	if g := p.TerminationGracePeriodSeconds; g != nil {
		if kind == "readinessProbe" {
			v.at(g, "readinessProbe.terminationGracePeriodSeconds is not allowed")
		} else if *g < 1 {
			v.at(g, "%s.terminationGracePeriodSeconds must be at least 1", kind)
		}
	}
}

var workloadKinds = map[string]string{"ReplicaSet": "apps/v1", "Deployment": "apps/v1", "DaemonSet": "apps/v1", "Job": "batch/v1",
	kindPDB: "policy/v1", kindStatefulSet: "apps/v1", kindCronJob: "batch/v1", kindPriorityClass: "scheduling.k8s.io/v1"}

// kindPDB is the kind of a PodDisruptionBudget in spec.workloads.
const kindPDB = "PodDisruptionBudget"

func (v *validator) workload(w *Workload) {
	if w.Kind == kindService {
		v.service(w)
		return
	}
	v.selectorLabels(w)
	v.name(&w.Metadata.Name, &w.Metadata, "workload")
	v.namespace(&w.Metadata.Namespace)
	want, ok := workloadKinds[w.Kind]
	switch {
	case !ok:
		v.atKey(&w.Kind, "workload kind %q: want ReplicaSet, Deployment, StatefulSet, Job, CronJob, DaemonSet, PodDisruptionBudget, PriorityClass or Service", w.Kind)
	case w.APIVersion != "" && w.APIVersion != want:
		v.at(&w.APIVersion, "a %s's apiVersion is %s, not %q", w.Kind, want, w.APIVersion)
	}
	name, ns := w.Metadata.Name, w.Metadata.Namespace
	key := model.Key(ns, name)
	if w.Kind == kindPriorityClass {
		// Cluster-scoped: its name is unique among PriorityClasses, and
		// may be a controller's too, as in Kubernetes; a namespace is
		// dropped, as the API server clears it (BeforeCreate).
		if _, dup := v.classes[name]; dup && name != "" {
			v.at(&w.Metadata.Name, "duplicate PriorityClass name %q", name)
		}
		v.classes[name] = w
		v.priorityClass(w)
		return
	}
	v.priorityClassFields(w)
	if w.Kind == kindPDB {
		// A budget may share its name with a controller, as in Kubernetes
		// (a Deployment web and its PodDisruptionBudget web); workload: web
		// then names the controller, as the checks read it.
		if _, dup := v.budgets[key]; dup && name != "" {
			v.at(&w.Metadata.Name, "duplicate PodDisruptionBudget name %q%s", name, inNamespace(ns))
		}
		v.budgets[key] = w
		v.disruptionBudget(w)
		v.statefulSet(w)
		v.cronJob(w)
		return
	}
	if _, dup := v.workloads[key]; dup && name != "" {
		v.at(&w.Metadata.Name, "duplicate workload name %q%s", name, inNamespace(ns))
	}
	if _, dup := v.pods[key]; dup && name != "" {
		v.at(&w.Metadata.Name, "workload %q has the name of a bare pod%s; behavior and expectations could not tell them apart", name, inNamespace(ns))
	}
	sp := &w.Spec
	for _, f := range []any{sp.MinAvailable, sp.MaxUnavailable} {
		if !isNilPtr(f) {
			v.atKey(f, "only a PodDisruptionBudget has minAvailable and maxUnavailable")
		}
	}
	if sp.UnhealthyPodEvictionPolicy != "" {
		v.atKey(&sp.UnhealthyPodEvictionPolicy, "only a PodDisruptionBudget has unhealthyPodEvictionPolicy")
	}
	for p := range v.pods {
		if ownerOf(p, map[string]*Workload{key: w}) != "" {
			v.at(&w.Metadata.Name, "workload %q would name its pods like the bare pod %q", name, p)
		}
	}
	if cj := v.cronJobOf(key); cj != nil {
		v.at(&w.Metadata.Name, "workload %q is named like a Job of CronJob %q", name, cj.Metadata.Name)
	}
	if w.Kind == kindCronJob {
		for other := range v.workloads {
			if ownerOf(other, map[string]*Workload{key: w}) != "" {
				v.at(&w.Metadata.Name, "CronJob %q would name a Job like workload %q", name, other)
			}
		}
	}
	v.workloads[key] = w
	v.statefulSet(w)
	v.cronJob(w)
	for _, n := range []*int32{sp.Replicas, sp.Completions, sp.Parallelism, sp.BackoffLimit} {
		if n != nil && *n < 0 {
			v.at(n, "must not be negative")
		}
	}
	if w.Kind != "Job" {
		for _, f := range []any{sp.Completions, sp.Parallelism, sp.BackoffLimit, sp.ActiveDeadlineSeconds} {
			if !isNilPtr(f) {
				v.atKey(f, "only a Job has completions, parallelism, backoffLimit and activeDeadlineSeconds")
			}
		}
	}
	if (w.Kind == "Job" || w.Kind == "DaemonSet" || w.Kind == kindCronJob) && sp.Replicas != nil {
		v.atKey(sp.Replicas, "a %s has no replicas", w.Kind)
	}
	if sp.ActiveDeadlineSeconds != nil && *sp.ActiveDeadlineSeconds < 0 {
		v.at(sp.ActiveDeadlineSeconds, "activeDeadlineSeconds must not be negative")
	}
	v.rollingFields(w)
	switch w.Kind {
	case kindCronJob:
		return // cronJob checked its job template
	case "ReplicaSet", "Deployment", kindStatefulSet:
		if sp.Replicas == nil {
			v.addPods(w, 1)
		} else {
			v.addPods(sp.Replicas, int(max(*sp.Replicas, 0)))
		}
	case "Job":
		if sp.Completions == nil {
			v.addPods(w, 1)
		} else {
			v.addPods(sp.Completions, int(max(*sp.Completions, 0)))
		}
	case "DaemonSet":
		v.addPods(w, max(v.nodeCount, 1))
	}
	rp := sp.Template.Spec.RestartPolicy
	switch {
	case w.Kind == "Job" && rp != "OnFailure" && rp != "Never":
		v.at(&sp.Template.Spec, "a Job's pod template needs restartPolicy OnFailure or Never")
	case w.Kind != "Job" && rp != "" && rp != "Always":
		v.at(&sp.Template.Spec.RestartPolicy, "a %s's pods must have restartPolicy Always", w.Kind)
	}
	v.podSpec(&sp.Template.Spec, &sp.Template, "workload "+name)
}

// disruptionBudget checks a PodDisruptionBudget: a selector by labels, at
// most one of minAvailable and maxUnavailable (an integer >= 0, or a
// percentage 0..100%), and nothing of a controller.
func (v *validator) disruptionBudget(w *Workload) {
	sp := &w.Spec
	for _, f := range []any{sp.Replicas, sp.Completions, sp.Parallelism, sp.BackoffLimit, sp.ActiveDeadlineSeconds} {
		if !isNilPtr(f) {
			v.atKey(f, "a PodDisruptionBudget has no replicas, completions, parallelism, backoffLimit or activeDeadlineSeconds")
		}
	}
	for _, f := range []any{sp.MinReadySeconds, sp.ProgressDeadlineSeconds, sp.Strategy} {
		if !isNilPtr(f) {
			v.atKey(f, "a PodDisruptionBudget has no minReadySeconds, progressDeadlineSeconds or strategy")
		}
	}
	if p := v.s.pos.Of(&sp.Template); !p.IsZero() {
		v.atKey(&sp.Template, "a PodDisruptionBudget has no template: it selects pods by spec.selector.matchLabels")
	}
	if sel := sp.Selector; sel != nil && len(sel.MatchExpressions) > 0 {
		v.atKey(&sel.MatchExpressions, "matchExpressions is not supported: select the pods by matchLabels")
	}
	if sp.MinAvailable != nil && sp.MaxUnavailable != nil {
		v.atKey(sp.MaxUnavailable, "minAvailable and maxUnavailable cannot be both set")
	}
	for _, f := range []struct {
		x    *IntOrPercent
		name string
	}{{sp.MinAvailable, "minAvailable"}, {sp.MaxUnavailable, "maxUnavailable"}} {
		switch x := f.x; {
		case x == nil:
		case x.Value < 0:
			v.at(x, "%s %s must not be negative", f.name, x)
		case x.Percent && x.Value > 100:
			v.at(x, "%s %s: a percentage must be between 0%% and 100%%", f.name, x)
		case x.Value > math.MaxInt32:
			v.at(x, "%s %s is out of range (at most %d)", f.name, x, math.MaxInt32)
		}
	}
	if p := sp.UnhealthyPodEvictionPolicy; p != "" && p != "IfHealthyBudget" && p != "AlwaysAllow" {
		v.at(&sp.UnhealthyPodEvictionPolicy, "unhealthyPodEvictionPolicy %q: want IfHealthyBudget or AlwaysAllow", p)
	}
}

// addPods counts n more pods of the scenario, written at ptr, and reports
// the first value that takes the scenario past MaxPods.
func (v *validator) addPods(ptr any, n int) {
	before := v.podCount
	if before > MaxPods {
		return
	}
	v.podCount = min(before+n, MaxPods+1)
	if v.podCount > MaxPods {
		v.at(ptr, "%d pods: a scenario creates at most %d pods (bare pods, replicas, Job completions, DaemonSet pods)", before+n, MaxPods)
	}
}

// ownerOf returns the key of the workload whose pods are named like the
// pod with key pod (<workload>-<n>, in its namespace), or "".
func ownerOf(pod string, workloads map[string]*Workload) string {
	i := strings.LastIndexByte(pod, '-')
	if i <= 0 || i == len(pod)-1 {
		return ""
	}
	for _, r := range pod[i+1:] {
		if r < '0' || r > '9' {
			return ""
		}
	}
	if _, ok := workloads[pod[:i]]; ok {
		return pod[:i]
	}
	return ""
}

// podTemplate finds the pod spec a pod reference in namespace ns means: a
// bare pod, a workload's template (by the workload's name), or a
// workload's pod (<workload>-<n>). allowWorkload says whether a workload's
// own name is a valid reference here.
func (v *validator) podTemplate(ref *string, ns string, allowWorkload bool) *PodSpec {
	if *ref == "" {
		return nil
	}
	key := model.Key(ns, *ref)
	if ps := v.pods[key]; ps != nil {
		return ps
	}
	if v.budgets[key] != nil && v.workloads[key] == nil {
		v.at(ref, "%q is a PodDisruptionBudget: it has no pods of its own", *ref)
		return nil
	}
	if v.classes[*ref] != nil && v.workloads[key] == nil {
		v.at(ref, "%q is a PriorityClass: it has no pods of its own", *ref)
		return nil
	}
	if w := v.workloads[key]; w != nil && allowWorkload {
		return &templateOf(w).Spec
	}
	if o := ownerOf(key, v.workloads); o != "" {
		return &templateOf(v.workloads[o]).Spec
	}
	if cj := v.cronJobOfPod(key); cj != nil {
		return &templateOf(cj).Spec
	}
	if v.workloads[key] != nil {
		v.at(ref, "%q is a workload; name one of its pods (%s-0, %s-1, ...)", *ref, *ref, *ref)
		return nil
	}
	v.at(ref, "no pod or workload called %q%s%s", *ref, inNamespace(ns), v.elsewhere(*ref, ns))
	return nil
}

// elsewhere says in which other namespaces than ns a pod or workload
// called name, or a workload whose pods are named like it, exists: a hint
// for a reference that lacks its namespace.
func (v *validator) elsewhere(name, ns string) string {
	ns = namespaceOf(ns)
	var found []string
	for key := range v.pods {
		if other, n := splitKey(key); other != ns && n == name {
			found = append(found, other)
		}
	}
	for key := range v.workloads {
		if other, n := splitKey(key); other != ns && (n == name || ownerOf(name, map[string]*Workload{n: nil}) != "") {
			found = append(found, other)
		}
	}
	if len(found) == 0 {
		return ""
	}
	slices.Sort(found)
	found = slices.Compact(found)
	return fmt.Sprintf("; there is one in namespace %s: add namespace: %s", strings.Join(found, ", "), found[0])
}

// namespaceOf is ns, or the default namespace for "".
func namespaceOf(ns string) string {
	if ns == "" {
		return model.DefaultNamespace
	}
	return ns
}

// splitKey splits a model.Key into its namespace and name.
func splitKey(key string) (ns, name string) {
	if ns, name, ok := strings.Cut(key, "/"); ok {
		return ns, name
	}
	return model.DefaultNamespace, key
}

func (v *validator) containerRef(ps *PodSpec, pod string, c *string, parent any) {
	if ps == nil {
		return
	}
	if *c == "" {
		v.at(parent, "container is required")
		return
	}
	for _, list := range [][]Container{ps.InitContainers, ps.Containers} {
		for i := range list {
			if list[i].Name == *c {
				return
			}
		}
	}
	v.at(c, "pod %s has no container %q", pod, *c)
}

func (v *validator) behavior(b *Behavior, earlier []Behavior) {
	if b.Pod == "" {
		v.at(b, "behavior: pod is required")
		return
	}
	v.namespace(&b.Namespace)
	key := model.Key(b.Namespace, b.Pod)
	if o := ownerOf(key, v.workloads); o != "" && v.pods[key] == nil && v.workloads[key] == nil {
		// Build gives a workload's behavior to every pod it makes: one
		// pod of it cannot have its own.
		name := v.workloads[o].Metadata.Name
		v.at(&b.Pod, "%q is a pod of workload %q, whose pods all behave alike: name the workload (pod: %s)", b.Pod, name, name)
		return
	}
	ps := v.podTemplate(&b.Pod, b.Namespace, true)
	v.containerRef(ps, b.Pod, &b.Container, b)
	if c := findContainer(ps, b.Container); c != nil {
		v.behaviorMatches(b, c)
	}
	for i := range earlier {
		if e := &earlier[i]; e.Pod == b.Pod && e.Container == b.Container && e.Image == b.Image &&
			namespaceOf(e.Namespace) == namespaceOf(b.Namespace) {
			what := b.Pod + "/" + b.Container
			if b.Image != "" {
				what += " with image " + b.Image
			}
			v.at(b, "a second behavior for %s (first at line %d)", what, v.s.pos.Of(e).Line)
		}
	}
	for i := range b.Runs {
		r := &b.Runs[i]
		if r.Times != nil && *r.Times < 1 {
			v.at(r.Times, "times must be at least 1")
		}
		if r.ExitCode != nil && (*r.ExitCode < 0 || *r.ExitCode > 255) {
			v.at(r.ExitCode, "exitCode must be 0..255")
		}
		if r.OOM && r.ExitCode != nil {
			v.at(r.ExitCode, "an OOM kill always exits 137; drop exitCode or oom")
		}
		if p := r.CrashProbability; p != nil {
			switch {
			case !(*p >= 0 && *p <= 1):
				v.at(p, "crashProbability must be between 0 and 1")
			case r.ExitAfter == nil:
				v.atKey(&r.CrashProbability, "crashProbability needs exitAfter: when the run crashes")
			}
		}
	}
	if c := b.ShutdownExitCode; c != nil && (*c < 0 || *c > 255) {
		v.at(c, "shutdownExitCode must be 0..255")
	}
	lifetime, bounded := runsEnd(b.Runs)
	for _, ws := range [][]Window{b.Probes.Liveness, b.Probes.Readiness, b.Probes.Startup} {
		for i := range ws {
			w := &ws[i]
			switch {
			case w.To != nil && w.To.D() <= w.From.D() && w.SinceStart:
				v.at(w.To, "to (%s after each start) must be after from (%s after each start)", w.To, &w.From)
			case w.To != nil && w.To.D() <= w.From.D():
				v.at(w.To, "to (%s) must be after from (%s)", w.To, &w.From)
			case w.SinceStart && bounded && w.From.D() >= lifetime:
				var at any = &w.From
				if v.s.pos.Of(&w.From) == (Pos{}) {
					at = w // from not written
				}
				v.at(at, "from %s after each start: every run of container %s exits within %s of its start, so this window would change nothing",
					&w.From, b.Container, lifetime)
			}
		}
	}
}

// runsEnd is how long after its start the longest of the runs lasts, and
// whether every run ends on its own by a fixed time (none runs forever,
// none draws its end).
func runsEnd(runs []Run) (time.Duration, bool) {
	if len(runs) == 0 {
		return 0, false
	}
	var longest time.Duration
	for _, r := range runs {
		if r.ExitAfter == nil {
			if r.ExitCode == nil && !r.OOM {
				return 0, false // {} runs until stopped
			}
			continue // exits at once
		}
		at, fixed := r.ExitAfter.FixedValue()
		if !fixed || r.CrashProbability != nil && r.ExitCode == nil && !r.OOM {
			return 0, false // drawn, or may run on when it does not crash
		}
		longest = max(longest, at)
	}
	return longest, true
}

// findContainer returns the (init) container called name, or nil.
func findContainer(ps *PodSpec, name string) *Container {
	if ps == nil {
		return nil
	}
	for _, list := range [][]Container{ps.InitContainers, ps.Containers} {
		for i := range list {
			if list[i].Name == name {
				return &list[i]
			}
		}
	}
	return nil
}

// behaviorMatches reports behavior that could never take effect: failing
// windows for a probe, or a hook outcome, the container does not declare.
func (v *validator) behaviorMatches(b *Behavior, c *Container) {
	probes := []struct {
		windows *[]Window
		probe   *Probe
		name    string
	}{{&b.Probes.Liveness, c.LivenessProbe, "livenessProbe"}, {&b.Probes.Readiness, c.ReadinessProbe, "readinessProbe"}, {&b.Probes.Startup, c.StartupProbe, "startupProbe"}}
	for _, p := range probes {
		if *p.windows != nil && p.probe == nil {
			v.atKey(p.windows, "container %s has no %s: these windows would change nothing", c.Name, p.name)
		}
	}
	var post, pre *Handler
	if c.Lifecycle != nil {
		post, pre = c.Lifecycle.PostStart, c.Lifecycle.PreStop
	}
	if b.Hooks.PostStart != nil && post == nil {
		v.atKey(b.Hooks.PostStart, "container %s has no lifecycle.postStart hook", c.Name)
	}
	if b.Hooks.PreStop != nil && pre == nil {
		v.atKey(b.Hooks.PreStop, "container %s has no lifecycle.preStop hook", c.Name)
	}
}

func (v *validator) fault(f *Fault) {
	if f.At == nil {
		v.at(f, "fault: at is required")
	} else if at, fixed := f.At.FixedValue(); fixed {
		if d := v.s.File.Spec.Duration; d != nil && d.D() > 0 && at > d.D() {
			v.at(f.At, "at %s is after the end of the run (%s)", f.At, d)
		}
	}
	n := 0
	for _, a := range []any{f.Exit, f.OOM, f.Delete, f.DiskFailure, f.Partition, f.NodeFailure, f.SetCondition,
		f.Cordon, f.Uncordon, f.Drain, f.DeleteNode, f.Taint, f.Scale, f.Rollout} {
		if !isNilPtr(a) {
			n++
		}
	}
	if n != 1 {
		v.at(f, "a fault takes exactly one of exit, oom, delete, diskFailure, partition, nodeFailure, setCondition, cordon, uncordon, drain, deleteNode, taint, scale, rollout; found %d", n)
		return
	}
	switch {
	case f.Cordon != nil:
		v.nodeRef(&f.Cordon.Node, f.Cordon)
	case f.Uncordon != nil:
		v.nodeRef(&f.Uncordon.Node, f.Uncordon)
	case f.Drain != nil:
		v.nodeRef(&f.Drain.Node, f.Drain)
	case f.DeleteNode != nil:
		v.nodeRef(&f.DeleteNode.Node, f.DeleteNode)
	case f.Taint != nil:
		t := f.Taint
		v.nodeRef(&t.Node, t)
		if t.Key == "" {
			v.at(t, "taint: key is required")
		}
		if !slices.Contains([]string{"NoSchedule", "PreferNoSchedule", "NoExecute"}, t.Effect) {
			v.at(t, "taint effect %q: want NoSchedule, PreferNoSchedule or NoExecute", t.Effect)
		}
	case f.Scale != nil:
		sc := f.Scale
		v.namespace(&sc.Namespace)
		k := model.Key(sc.Namespace, sc.Workload)
		w := v.workloads[k]
		if w == nil {
			w = v.budgets[k] // named to say it does not scale
		}
		switch {
		case sc.Workload == "":
			v.at(sc, "scale: workload is required")
		case w == nil:
			v.at(&sc.Workload, "no workload called %q%s%s", sc.Workload, inNamespace(sc.Namespace), v.elsewhere(sc.Workload, sc.Namespace))
		case w.Kind != "ReplicaSet" && w.Kind != "Deployment" && w.Kind != kindStatefulSet:
			v.at(&sc.Workload, "%q is a %s: only a ReplicaSet, a Deployment or a StatefulSet scales", sc.Workload, w.Kind)
		}
		switch {
		case sc.Replicas == nil:
			v.at(sc, "scale: replicas is required")
		case *sc.Replicas < 0:
			v.at(sc.Replicas, "replicas must not be negative")
		default:
			v.addPods(sc.Replicas, int(*sc.Replicas))
		}
	case f.Rollout != nil:
		v.rollout(f.Rollout)
	case f.Exit != nil:
		v.namespace(&f.Exit.Namespace)
		ps := v.podTemplate(&f.Exit.Pod, f.Exit.Namespace, true)
		v.containerRef(ps, f.Exit.Pod, &f.Exit.Container, f.Exit)
		if f.Exit.Code < 0 || f.Exit.Code > 255 {
			v.at(&f.Exit.Code, "code must be 0..255")
		}
	case f.OOM != nil:
		v.namespace(&f.OOM.Namespace)
		ps := v.podTemplate(&f.OOM.Pod, f.OOM.Namespace, true)
		v.containerRef(ps, f.OOM.Pod, &f.OOM.Container, f.OOM)
	case f.Delete != nil:
		if f.Delete.Pod == "" {
			v.at(f.Delete, "delete: pod is required")
		} else {
			v.namespace(&f.Delete.Namespace)
			v.podTemplate(&f.Delete.Pod, f.Delete.Namespace, true)
		}
		if g := f.Delete.GracePeriodSeconds; g != nil && *g < 0 {
			v.at(g, "gracePeriodSeconds must not be negative")
		}
	case f.SetCondition != nil:
		sc := f.SetCondition
		if sc.Pod == "" {
			v.at(sc, "setCondition: pod is required")
		} else {
			v.namespace(&sc.Namespace)
			v.podTemplate(&sc.Pod, sc.Namespace, true)
		}
		if sc.Type == "" {
			v.at(sc, "setCondition: type is required")
		}
		if !slices.Contains([]string{"True", "False", "Unknown"}, sc.Status) {
			v.at(sc, "setCondition: status must be \"True\", \"False\" or \"Unknown\"")
		}
	default:
		for _, nf := range []*NodeFault{f.DiskFailure, f.Partition, f.NodeFailure} {
			if nf == nil {
				continue
			}
			if !v.nodeRef(&nf.Node, nf) {
				continue
			}
			if nf.For != nil {
				if d, fixed := nf.For.FixedValue(); fixed && d <= 0 {
					v.at(nf.For, "for must be positive")
				}
			}
			if nf == f.DiskFailure && nf.For != nil {
				v.atKey(nf.For, "a dead disk does not come back: diskFailure takes no for")
			}
		}
	}
}

func (v *validator) nodeRef(name *string, parent any) bool {
	switch {
	case *name == "":
		v.at(parent, "node is required")
		return false
	case !v.nodes[*name] && !(len(v.s.File.Spec.Nodes) == 0 && *name == DefaultNodeName):
		v.at(name, "no node called %q", *name)
		return false
	}
	return true
}

var (
	phaseNames = []string{"Pending", "Running", "Succeeded", "Failed", "Unknown"}
	stateNames = []string{"Waiting", "Running", "Terminated"}
)

func (v *validator) expect(e *Expect) {
	end := Duration(time.Hour) // the default duration
	if d := v.s.File.Spec.Duration; d != nil && d.D() > 0 {
		end = *d
	}
	if e.At != nil && e.At.D() > end.D() {
		v.at(e.At, "at %s is after the end of the run (%s)", e.At, end)
	}
	whens := 0
	for _, set := range []bool{e.At != nil, e.Within != nil, e.Always != nil} {
		if set {
			whens++
		}
	}
	if whens > 1 {
		v.at(e, "an expectation takes one of at, within and always; found %d", whens)
	}
	for _, sp := range []*Span{e.Within, e.Always} {
		switch {
		case sp == nil:
		case sp.To() < sp.From():
			v.at(&sp[1], "the span ends (%s) before it starts (%s)", &sp[1], &sp[0])
		case sp.To() > end.D():
			v.at(&sp[1], "%s is after the end of the run (%s)", &sp[1], end)
		}
	}
	if tr := e.Transition; tr != nil {
		if tr.From == "" && tr.To == "" {
			v.at(tr, "transition: give from, to or both")
		}
		for _, ph := range []*string{&tr.From, &tr.To} {
			if *ph != "" && !slices.Contains(phaseNames, *ph) {
				v.at(ph, "phase %q: want Pending, Running, Succeeded, Failed or Unknown", *ph)
			}
		}
		if e.Within != nil || e.Always != nil {
			v.atKey(&e.Transition, "a transition is counted up to at; it takes no within or always")
		}
	}
	if e.Count != nil && e.Transition == nil {
		v.atKey(&e.Count, "count goes with transition (an event's count goes inside event)")
	}
	subjects := 0
	v.serviceExpect(e)
	for _, s := range []string{e.Pod, e.Workload, e.Node, e.Service} {
		if s != "" {
			subjects++
		}
	}
	if e.Event != nil {
		subjects++
	}
	if subjects != 1 {
		v.at(e, "an expectation is about exactly one of pod, workload, node, service or event; found %d", subjects)
		return
	}
	podOnly := func(what string, set bool, ptr any) {
		if set && e.Pod == "" {
			v.atKey(ptr, "%s is checked on a pod", what)
		}
	}
	podOnly("phase", e.Phase != "", &e.Phase)
	podOnly("phases", e.Phases != nil, &e.Phases)
	podOnly("status", e.Status != "", &e.Status)
	podOnly("ready", e.Ready != nil, e.Ready)
	podOnly("exists", e.Exists != nil, e.Exists)
	podOnly("container", e.Container != "", &e.Container)
	podOnly("transition", e.Transition != nil, &e.Transition)
	podOnly("nodeName", e.NodeName != nil, e.NodeName)
	podOnly("nominatedNodeName", e.NominatedNodeName != nil, e.NominatedNodeName)
	wk := model.Key(e.Namespace, e.Workload)
	pdb := v.workloads[wk] == nil && v.budgets[wk] != nil
	for _, r := range []*IntRange{e.ReadyPods, e.Pods, e.SucceededPods, e.FailedPods} {
		switch {
		case r == nil:
		case e.Workload == "":
			v.atKey(r, "readyPods, pods, succeededPods and failedPods are checked on a workload")
		case pdb:
			v.atKey(r, "readyPods, pods, succeededPods and failedPods are checked on a controller; a PodDisruptionBudget has currentHealthy, desiredHealthy, expectedPods and disruptionsAllowed")
		}
	}
	kind := ""
	if w := v.workloads[wk]; w != nil {
		kind = w.Kind
	}
	if e.UpdatedPods != nil && kind != "Deployment" {
		v.atKey(e.UpdatedPods, "updatedPods is checked on a Deployment")
	}
	if e.AvailablePods != nil && kind != "Deployment" && kind != "ReplicaSet" {
		v.atKey(e.AvailablePods, "availablePods is checked on a ReplicaSet or Deployment")
	}
	for _, r := range []*IntRange{e.Jobs, e.ActiveJobs} {
		if r != nil && kind != kindCronJob {
			v.atKey(r, "jobs and activeJobs are checked on a CronJob (workload: its name)")
		}
	}
	for _, r := range []*IntRange{e.DisruptionsAllowed, e.CurrentHealthy, e.DesiredHealthy, e.ExpectedPods} {
		if r != nil && !pdb {
			v.atKey(r, "disruptionsAllowed, currentHealthy, desiredHealthy and expectedPods are checked on a PodDisruptionBudget (workload: its name)")
		}
	}
	if e.Container == "" {
		for _, set := range []struct {
			ok  bool
			ptr any
		}{{e.State != "", &e.State}, {e.Reason != "", &e.Reason}, {e.ExitCode != nil, e.ExitCode}, {e.RestartCount != nil, e.RestartCount}, {e.LastState != nil, e.LastState}} {
			if set.ok {
				v.atKey(set.ptr, "state, reason, exitCode, restartCount and lastState need a container")
			}
		}
	}
	if l := e.LastState; l != nil && l.Reason == "" && l.ExitCode == nil {
		v.at(l, "lastState: give reason, exitCode or both")
	}
	if e.Phase != "" && !slices.Contains(phaseNames, e.Phase) {
		v.at(&e.Phase, "phase %q: want Pending, Running, Succeeded, Failed or Unknown", e.Phase)
	}
	for i := range e.Phases {
		if !slices.Contains(phaseNames, e.Phases[i]) {
			v.at(&e.Phases[i], "phase %q: want Pending, Running, Succeeded, Failed or Unknown", e.Phases[i])
		}
	}
	if e.State != "" && !slices.Contains(stateNames, e.State) {
		v.at(&e.State, "state %q: want Waiting, Running or Terminated", e.State)
	}
	if c := e.Condition; c != nil {
		if c.Type == "" {
			v.at(c, "condition: type is required")
		}
		if !slices.Contains([]string{"True", "False", "Unknown"}, c.Status) {
			v.at(c, "condition: status must be \"True\", \"False\" or \"Unknown\"")
		}
	}
	v.namespace(&e.Namespace)
	if e.Namespace != "" && e.Node != "" {
		v.atKey(&e.Namespace, "a node has no namespace: namespace goes with pod, workload or event")
	}
	switch {
	case e.Pod != "":
		ps := v.podTemplate(&e.Pod, e.Namespace, false)
		if e.Container != "" {
			v.containerRef(ps, e.Pod, &e.Container, e)
		}
	case e.Workload != "":
		switch k := model.Key(e.Namespace, e.Workload); {
		case v.workloads[k] != nil || v.budgets[k] != nil || v.cronJobOf(k) != nil:
		case v.classes[e.Workload] != nil:
			v.at(&e.Workload, "%q is a PriorityClass: it has no status to check", e.Workload)
		default:
			v.at(&e.Workload, "no workload called %q%s%s", e.Workload, inNamespace(e.Namespace), v.elsewhere(e.Workload, e.Namespace))
		}
	case e.Node != "":
		v.nodeRef(&e.Node, e)
		if e.Condition == nil {
			v.at(e, "a node expectation checks a condition")
		}
	case e.Event != nil:
		ev := e.Event
		if ev.Reason == "" {
			v.at(ev, "event: reason is required")
		}
		if ev.Pod != "" {
			v.podTemplate(&ev.Pod, e.Namespace, false)
		}
		if ev.Node != "" {
			v.nodeRef(&ev.Node, ev)
		}
		if k := model.Key(e.Namespace, ev.Workload); ev.Workload != "" && v.workloads[k] == nil && v.budgets[k] == nil && v.cronJobOf(k) == nil {
			v.at(&ev.Workload, "no workload called %q%s%s", ev.Workload, inNamespace(e.Namespace), v.elsewhere(ev.Workload, e.Namespace))
		}
		objects := 0
		for _, o := range []string{ev.Pod, ev.Node, ev.Workload} {
			if o != "" {
				objects++
			}
		}
		if objects > 1 {
			v.at(ev, "event: give one of pod, node and workload (node counts the events about the node itself)")
		}
		if ev.Type != "" && ev.Type != "Normal" && ev.Type != "Warning" {
			v.at(&ev.Type, "event type %q: want Normal or Warning", ev.Type)
		}
	}
}
