package scenarios

import (
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/podsim/podsim/model"
)

var workloadKinds = map[string]string{"ReplicaSet": "apps/v1", "Deployment": "apps/v1", "DaemonSet": "apps/v1", "Job": "batch/v1",
	kindPDB: "policy/v1", kindStatefulSet: "apps/v1", kindCronJob: "batch/v1", kindPriorityClass: "scheduling.k8s.io/v1"}

// kindPDB is the kind of a PodDisruptionBudget in spec.workloads.
const kindPDB = "PodDisruptionBudget"

func (v *validator) workload(w *Workload) {
	if w.Kind == kindNodePool {
		v.nodePool(w)
		return
	}
	v.onlyFields(reflect.ValueOf(&w.Spec.NodePoolSpec).Elem(), "a "+w.Kind+" (only a NodePool)")
	if w.Kind == kindHPA {
		v.hpa(w)
		return
	}
	v.hpaFields(w)
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
		v.atKey(&w.Kind, "workload kind %q: want ReplicaSet, Deployment, StatefulSet, Job, CronJob, DaemonSet, PodDisruptionBudget, PriorityClass, Service, HorizontalPodAutoscaler or NodePool", w.Kind)
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
	v.controllerName(w, key)
	v.workloads[key] = w
	v.statefulSet(w)
	v.cronJob(w)
	v.controllerCounts(w)
	v.rollingFields(w)
	if w.Kind == kindCronJob {
		return // cronJob checked its job template
	}
	v.addWorkloadPods(w)
	sp := &w.Spec
	rp := sp.Template.Spec.RestartPolicy
	switch {
	case w.Kind == "Job" && rp != "OnFailure" && rp != "Never":
		v.at(&sp.Template.Spec, "a Job's pod template needs restartPolicy OnFailure or Never")
	case w.Kind != "Job" && rp != "" && rp != "Always":
		v.at(&sp.Template.Spec.RestartPolicy, "a %s's pods must have restartPolicy Always", w.Kind)
	}
	v.podSpec(&sp.Template.Spec, &sp.Template, "workload "+name)
	v.labels(&sp.Template.Metadata.Labels)
}

// controllerName checks that a controller, to be known by key, has a name
// of its own among controllers, bare pods and the Jobs of CronJobs, and no
// field of a PodDisruptionBudget.
func (v *validator) controllerName(w *Workload, key string) {
	name, ns := w.Metadata.Name, w.Metadata.Namespace
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
		if ownerOf(p, map[string]*Workload{key: w}) != "" && !v.adopted[p] {
			v.at(&w.Metadata.Name, "workload %q would name its pods like the bare pod %q", name, p)
		}
	}
	if cj := v.cronJobOf(key); cj != nil && !v.adopted[key] {
		v.at(&w.Metadata.Name, "workload %q is named like a Job of CronJob %q", name, cj.Metadata.Name)
	}
	if w.Kind == kindCronJob {
		for other := range v.workloads {
			if ownerOf(other, map[string]*Workload{key: w}) != "" && !v.adopted[other] {
				v.at(&w.Metadata.Name, "CronJob %q would name a Job like workload %q", name, other)
			}
		}
		var clash []string // a Job's pod <cronjob>-<minutes>-<n> named as a bare pod
		for p := range v.pods {
			if i := strings.LastIndexByte(p, '-'); i > 0 && !v.adopted[p] && ownerOf(p, map[string]*Workload{p[:i]: nil}) != "" &&
				ownerOf(p[:i], map[string]*Workload{key: w}) != "" {
				clash = append(clash, p)
			}
		}
		slices.Sort(clash)
		for _, p := range clash {
			v.at(&w.Metadata.Name, "CronJob %q would name a Job's pod like the bare pod %q", name, p)
		}
	}
}

// controllerCounts checks a controller's replicas and a Job's counts: not
// negative, and each on the kinds that have it.
func (v *validator) controllerCounts(w *Workload) {
	sp := &w.Spec
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
	if w.Kind == "Job" {
		v.jobPolicies(sp)
	} else if jp := &sp.JobPolicies; *jp != (JobPolicies{}) {
		v.atKey(jp, "only a Job has completionMode, backoffLimitPerIndex, maxFailedIndexes, podFailurePolicy, podReplacementPolicy and successPolicy")
	}
}

// addWorkloadPods counts the pods a controller other than a CronJob starts
// with.
func (v *validator) addWorkloadPods(w *Workload) {
	sp, t := &w.Spec, &w.Spec.Template
	switch w.Kind {
	case "ReplicaSet", "Deployment", kindStatefulSet:
		if sp.Replicas == nil {
			v.addPods(w, 1, t)
		} else {
			v.addPods(sp.Replicas, int(max(*sp.Replicas, 0)), t)
		}
	case "Job":
		if sp.Completions == nil {
			v.addPods(w, 1, t)
		} else {
			v.addPods(sp.Completions, int(max(*sp.Completions, 0)), t)
		}
	case "DaemonSet":
		v.addPods(w, max(v.nodeCount, 1), t)
	}
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
