package scenarios

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
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

	nodes     map[string]bool // node names after count expansion
	nodeCount int             // nodes after count expansion, at most MaxNodes+1
	podCount  int             // pods the scenario creates, at most MaxPods+1
	// containers and labels of those pods, counted while at most MaxPods
	containerCount, labelCount int
	pods                       map[string]*PodSpec  // by key: name, or namespace/name outside default (model.Key)
	workloads                  map[string]*Workload // controllers by key
	budgets                    map[string]*Workload // PodDisruptionBudgets by key
	classes                    map[string]*Workload // PriorityClasses by name (cluster-scoped)
	services                   map[string]*Workload // Services by key
	hpas                       []*Workload          // HorizontalPodAutoscalers, in order
	nodePools                  []*Workload          // Karpenter's NodePools, in order
	adopted                    map[string]bool      // keys of the pods and Jobs of a snapshot that their controller adopts (snapshot.go)
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

var dnsLabel = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`) })

// namespace checks a namespace name ("" is default).
func (v *validator) namespace(ns *string) {
	if *ns != "" && (len(*ns) > 63 || !dnsLabel().MatchString(*ns)) {
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
	case len(*ptr) > 63 || !dnsLabel().MatchString(*ptr):
		v.at(ptr, "%s name %q: want lowercase letters, digits and '-', starting and ending with a letter or digit (at most 63)", what, *ptr)
	}
}

// validate checks everything the decoder cannot: required fields, ranges,
// names and references between parts of the file.
func (s *Scenario) validate() ErrorList {
	v := &validator{s: s, here: s.root, hereFile: s.Path, nodes: map[string]bool{}, pods: map[string]*PodSpec{}, workloads: map[string]*Workload{}, budgets: map[string]*Workload{}, classes: map[string]*Workload{}}
	v.adopted = s.adoptedKeys()
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
	for _, n := range s.nodes {
		v.item(n)
		v.node(n)
	}
	v.nodeAutoscaling(&sp.NodeAutoscaling)
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
		v.addPods(p, 1, &PodTemplate{Metadata: p.Metadata, Spec: p.Spec})
		v.podSpec(&p.Spec, &p.Metadata, "pod "+p.Metadata.Name)
		v.labels(&p.Metadata.Labels)
	}
	v.instanceTypes(sp.InstanceTypes)
	for _, w := range s.workloads {
		v.item(w)
		v.workload(w)
	}
	v.autoscalerTargets()
	v.snapshotChecks()
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
	if q := st.KubeAPIQPS; q != nil && !(*q >= 0.01 && *q <= 1e6) {
		v.at(q, "kubeAPIQPS must be between 0.01 and 1000000")
	}
	if b := st.KubeAPIBurst; b != nil && (*b < 1 || *b > 1e6) {
		v.at(b, "kubeAPIBurst must be between 1 and 1000000")
	}
	if d := st.NodeStatusUpdateFrequency; d != nil && d.D() <= 0 {
		v.at(d, "nodeStatusUpdateFrequency must be positive")
	}
	v.evictionSettings(st)
	v.hpaSettings(&st.HorizontalPodAutoscaler)
	v.nodeShutdown(&NodeShutdown{}, &st.NodeShutdown)
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

// addPods counts n more pods of the scenario made from t (nil: not
// known), written at ptr, and reports the first value that takes the
// scenario past MaxPods, MaxContainers or MaxLabels.
func (v *validator) addPods(ptr any, n int, t *PodTemplate) {
	before := v.podCount
	if before > MaxPods {
		return
	}
	v.podCount = min(before+n, MaxPods+1)
	if v.podCount > MaxPods {
		v.at(ptr, "%d pods: a scenario creates at most %d pods (bare pods, replicas, Job completions, DaemonSet pods)", before+n, MaxPods)
		return
	}
	if t == nil {
		return
	}
	c := len(t.Spec.Containers) + len(t.Spec.InitContainers)
	if v.containerCount += c * n; v.containerCount > MaxContainers {
		v.at(ptr, "%d pods of %d containers: a scenario runs at most %d containers and init containers in all", n, c, MaxContainers)
		v.podCount = MaxPods + 1 // one message
		return
	}
	if v.labelCount += len(t.Metadata.Labels) * n; v.labelCount > MaxLabels {
		v.at(ptr, "%d pods of %d labels: a scenario's pods carry at most %d labels in all", n, len(t.Metadata.Labels), MaxLabels)
		v.podCount = MaxPods + 1
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
	// An Indexed Job's pod: <job>-<index>-<n>.
	if o := ownerOf(pod[:i], workloads); o != "" && workloads[o] != nil && workloads[o].Spec.CompletionMode == "Indexed" {
		return o
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
	v.at(ref, "no pod or workload called %q%s%s", *ref, inNamespace(ns), v.hint(*ref, ns, true))
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
