package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/report"
)

const drainFile = "testdata/drain-with-pdb.yaml"

// changed reports whether the timeline holds a change that matches.
func changed(tl *model.Timeline, match func(c *model.Change) bool) bool {
	for i := range tl.Changes {
		if match(&tl.Changes[i]) {
			return true
		}
	}
	return false
}

// failure checks a refusal: its code, reason and a part of its message.
func failure(t *testing.T, what string, code int, st *metav1.Status, wantCode int, reason metav1.StatusReason, msg string) {
	t.Helper()
	if code != wantCode || st.Code != int32(wantCode) || st.Kind != "Status" || st.Status != metav1.StatusFailure ||
		st.Reason != reason || !strings.Contains(st.Message, msg) {
		t.Errorf("%s: %d %+v, want %d %s %q", what, code, st, wantCode, reason, msg)
	}
}

// TestCordonIsTheFault: kubectl cordon's and uncordon's patches of
// spec.unschedulable (strategic merge, merge, JSON patch) are the cordon
// and uncordon faults; the node shows it at once; a patch of anything else
// is refused, naming the field.
func TestCordonIsTheFault(t *testing.T) {
	p := play(t, drainFile, Options{At: time.Minute, AllowWrites: true})
	p.record()
	p.freeze(t)
	u := p.http.URL + "/api/v1/nodes/node-a"
	var node corev1.Node
	if code := send(t, "PATCH", u, "", strategicPatch, strings.NewReader(`{"spec":{"unschedulable":true}}`), &node); code != 200 {
		t.Fatalf("cordon: %d", code)
	}
	if !node.Spec.Unschedulable || len(node.Spec.Taints) != 1 || node.Spec.Taints[0].Key != model.TaintUnschedulable {
		t.Errorf("the cordoned node: unschedulable %v, taints %v", node.Spec.Unschedulable, node.Spec.Taints)
	}
	if !strings.Contains(p.log.String(), "podsim serve: at 1m: kubectl cordon node-a (fault cordon)\n") {
		t.Errorf("the log says %q", p.log.String())
	}
	if !changed(&p.tl, func(c *model.Change) bool {
		return c.Kind == model.ChangeClient && c.T == time.Minute && c.Message == "node/node-a cordoned"
	}) {
		t.Errorf("the timeline has no cordon at 1m: %v", p.tl.Changes)
	}
	var table metav1.Table
	call(t, "GET", p.http.URL+"/api/v1/nodes?fieldSelector=spec.unschedulable%3Dtrue", tableAccept, nil, &table)
	if len(table.Rows) != 1 || table.Rows[0].Cells[0] != "node-a" || table.Rows[0].Cells[1] != "Ready,SchedulingDisabled" {
		t.Errorf("unschedulable nodes: %v", table.Rows)
	}

	// kubectl uncordon's two-way merge patch removes the field.
	node = corev1.Node{}
	if code := send(t, "PATCH", u, "", strategicPatch, strings.NewReader(`{"spec":{"unschedulable":null}}`), &node); code != 200 || node.Spec.Unschedulable || len(node.Spec.Taints) != 0 {
		t.Errorf("uncordon: %d, unschedulable %v, taints %v", code, node.Spec.Unschedulable, node.Spec.Taints)
	}
	for _, c := range []struct{ typ, body string }{
		{jsonPatch, `[{"op":"replace","path":"/spec/unschedulable","value":true}]`},
		{mergePatch, `{"spec":{"unschedulable":false}}`},
		{jsonPatch, `[{"op":"add","path":"/spec/unschedulable","value":true},{"op":"remove","path":"/spec/unschedulable"}]`},
	} {
		want := !strings.Contains(c.body, "false") && !strings.Contains(c.body, "remove")
		node = corev1.Node{}
		if code := send(t, "PATCH", u, "", c.typ, strings.NewReader(c.body), &node); code != 200 || node.Spec.Unschedulable != want {
			t.Errorf("%s: %d, unschedulable %v", c.body, code, node.Spec.Unschedulable)
		}
	}
	if got := strings.Count(p.log.String(), "(fault uncordon)"); got != 3 {
		t.Errorf("%d uncordons in the log, want 3: %s", got, p.log.String())
	}

	for _, c := range []struct {
		typ, body string
		code      int
		reason    metav1.StatusReason
		msg       string
	}{
		{mergePatch, `{"metadata":{"labels":{"disk":"ssd"}}}`, 422, metav1.StatusReasonInvalid,
			`Node "node-a" is invalid: metadata: podsim serve is a simulation: a patch may set only spec.unschedulable`},
		{strategicPatch, `{"spec":{"taints":[],"unschedulable":true}}`, 422, metav1.StatusReasonInvalid, "spec.taints: podsim serve"},
		{jsonPatch, `[{"op":"add","path":"/spec/taints/-","value":{}}]`, 422, metav1.StatusReasonInvalid, "spec.taints.-: podsim serve"},
		{mergePatch, `{"spec":{"unschedulable":"yes"}}`, 422, metav1.StatusReasonInvalid, `spec.unschedulable: want true or false, not "yes"`},
		{mergePatch, `{"spec":`, 400, metav1.StatusReasonBadRequest, "merge-patch+json is not valid"},
		{"application/apply-patch+yaml", `spec: {unschedulable: true}`, 415, metav1.StatusReasonUnsupportedMediaType, "server-side apply"},
	} {
		var st metav1.Status
		code := send(t, "PATCH", u, "", c.typ, strings.NewReader(c.body), &st)
		failure(t, c.body, code, &st, c.code, c.reason, c.msg)
	}
	var st metav1.Status
	code := send(t, "PATCH", p.http.URL+"/api/v1/nodes/nope", "", mergePatch, strings.NewReader(`{"spec":{"unschedulable":true}}`), &st)
	failure(t, "cordon nope", code, &st, 404, metav1.StatusReasonNotFound, `nodes "nope" not found`)
}

// eviction is a policy/v1 Eviction of a pod, as kubectl drain posts it.
func eviction(pod string) string {
	return `{"kind":"Eviction","apiVersion":"policy/v1","metadata":{"name":"` + pod + `","namespace":"default"},"deleteOptions":{}}`
}

// TestEvictionAnswersAsTheAPI: the eviction subresource is Pod.Evict on
// the run goroutine, answered as the API server does: 201 and a Success
// Status; 429 with the disruption budget's cause; 404 for a pod that is
// gone; 400 for a body that names another pod. The eviction shows in the
// timeline (DisruptionTarget, then the deletion) and in the log.
func TestEvictionAnswersAsTheAPI(t *testing.T) {
	p := play(t, drainFile, Options{At: time.Minute, AllowWrites: true})
	p.record()
	p.freeze(t)
	pods := p.http.URL + "/api/v1/namespaces/default/pods/"
	var st metav1.Status
	if code := send(t, "POST", pods+"web-0/eviction", "", "application/json", strings.NewReader(eviction("web-0")), &st); code != 201 ||
		st.Kind != "Status" || st.Status != metav1.StatusSuccess || st.Code != 201 {
		t.Fatalf("evicting web-0: %d %+v", code, st)
	}
	var pod corev1.Pod
	call(t, "GET", pods+"web-0", "", nil, &pod)
	target := false
	for _, c := range pod.Status.Conditions {
		target = target || c.Type == corev1.DisruptionTarget && c.Status == corev1.ConditionTrue && c.Reason == "EvictionByEvictionAPI"
	}
	if !target || pod.DeletionTimestamp == nil || *pod.DeletionGracePeriodSeconds != 10 {
		t.Errorf("the evicted pod: conditions %v, deletion %v", pod.Status.Conditions, pod.DeletionTimestamp)
	}
	if !changed(&p.tl, func(c *model.Change) bool {
		return c.Kind == model.ChangeCondition && c.Pod == "web-0" && c.Type == model.DisruptionTarget && c.T == time.Minute
	}) || !changed(&p.tl, func(c *model.Change) bool {
		return c.Kind == model.ChangePod && c.Pod == "web-0" && c.Reason == "Terminating"
	}) {
		t.Errorf("the timeline has no eviction of web-0 at 1m")
	}

	// The budget allowed one disruption, and web-0 took it.
	st = metav1.Status{}
	code := send(t, "POST", pods+"web-2/eviction", "", "application/json", strings.NewReader(eviction("web-2")), &st)
	failure(t, "evicting web-2", code, &st, 429, metav1.StatusReasonTooManyRequests, "Cannot evict pod as it would violate the pod's disruption budget.")
	if st.Details == nil || len(st.Details.Causes) != 1 || st.Details.Causes[0].Type != policyv1.DisruptionBudgetCause ||
		st.Details.Causes[0].Message != "The disruption budget web-pdb needs 2 healthy pods and has 2 currently" {
		t.Errorf("the 429's details: %+v", st.Details)
	}
	if !strings.Contains(p.log.String(), "at 1m: evict pod web-2 (Eviction API): refused, 429 TooManyRequests: Cannot evict pod as it would violate the pod's disruption budget. (The disruption budget web-pdb needs 2 healthy pods and has 2 currently)\n") {
		t.Errorf("the log says %q", p.log.String())
	}
	// The same refusal for policy/v1beta1, in protobuf as typed clients send it.
	var buf bytes.Buffer
	e := &policyv1.Eviction{TypeMeta: metav1.TypeMeta{Kind: "Eviction", APIVersion: "policy/v1beta1"}, ObjectMeta: metav1.ObjectMeta{Name: "web-2"}}
	if err := protobuf.NewSerializer(runtime.NewScheme(), nil).Encode(e, &buf); err != nil {
		t.Fatal(err)
	}
	st = metav1.Status{}
	code = send(t, "POST", pods+"web-2/eviction", "", "application/vnd.kubernetes.protobuf", &buf, &st)
	failure(t, "evicting web-2 in protobuf", code, &st, 429, metav1.StatusReasonTooManyRequests, "disruption budget")

	// A DaemonSet's pod has no budget.
	if code := send(t, "POST", pods+"logs-0/eviction", "", "application/json", strings.NewReader(eviction("logs-0")), &st); code != 201 {
		t.Errorf("evicting logs-0: %d %+v", code, st)
	}
	for _, c := range []struct {
		pod, body, query string
		code             int
		reason           metav1.StatusReason
		msg              string
	}{
		{"nope", eviction("nope"), "", 404, metav1.StatusReasonNotFound, `pods "nope" not found`},
		{"web-1", eviction("web-2"), "", 400, metav1.StatusReasonBadRequest, "name in URL does not match name in Eviction object"},
		{"web-1", "{", "", 400, metav1.StatusReasonBadRequest, "Eviction"},
		{"web-1", eviction("web-1"), "?dryRun=All", 405, metav1.StatusReasonMethodNotAllowed, "cannot try evict pod web-1"},
		{"web-1", strings.Replace(eviction("web-1"), `{}`, `{"gracePeriodSeconds":-1}`, 1), "", 400, metav1.StatusReasonBadRequest, "negative"},
	} {
		st = metav1.Status{}
		code := send(t, "POST", pods+c.pod+"/eviction"+c.query, "", "application/json", strings.NewReader(c.body), &st)
		failure(t, c.pod+" "+c.body+c.query, code, &st, c.code, c.reason, c.msg)
	}
}

// TestEvictionGracePeriod: the Eviction's deleteOptions.gracePeriodSeconds
// (kubectl drain --grace-period) is the deletion's.
func TestEvictionGracePeriod(t *testing.T) {
	p := play(t, drainFile, Options{At: time.Minute, AllowWrites: true})
	p.freeze(t)
	body := strings.Replace(eviction("web-0"), `{}`, `{"gracePeriodSeconds":2}`, 1)
	var st metav1.Status
	if code := send(t, "POST", p.http.URL+"/api/v1/namespaces/default/pods/web-0/eviction", "", "application/json", strings.NewReader(body), &st); code != 201 {
		t.Fatalf("evicting web-0: %d %+v", code, st)
	}
	var pod corev1.Pod
	call(t, "GET", p.http.URL+"/api/v1/namespaces/default/pods/web-0", "", nil, &pod)
	if g := pod.DeletionGracePeriodSeconds; g == nil || *g != 2 {
		t.Errorf("the evicted pod's grace period: %v, want 2", g)
	}
	if !strings.Contains(p.log.String(), "at 1m: evict pod web-0 --grace-period=2 (Eviction API)\n") {
		t.Errorf("the log says %q", p.log.String())
	}
}

// TestEvictionMoreThanOneBudget: a pod two budgets select is not evicted
// (500, the API server's message, no reason).
func TestEvictionMoreThanOneBudget(t *testing.T) {
	p := play(t, "testdata/two-budgets.yaml", Options{At: time.Minute, AllowWrites: true})
	p.freeze(t)
	var st metav1.Status
	code := send(t, "POST", p.http.URL+"/api/v1/namespaces/default/pods/web-0/eviction", "", "application/json", strings.NewReader(eviction("web-0")), &st)
	failure(t, "evicting web-0", code, &st, 500, "", "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.")
	var pod corev1.Pod
	call(t, "GET", p.http.URL+"/api/v1/namespaces/default/pods/web-0", "", nil, &pod)
	if pod.DeletionTimestamp != nil {
		t.Errorf("web-0 is being deleted")
	}
}

// scaleObj is what the test reads of a Scale.
type scaleObj struct {
	Kind     string
	Metadata metav1.ObjectMeta
	Spec     struct{ Replicas int32 }
	Status   struct {
		Replicas int32
		Selector string
	}
}

// TestScaleIsTheFault: the scale subresource (get, patch, put with a
// version) and a patch of a Deployment's spec.replicas; a write becomes the
// scale fault, the pods follow at once, the answer is the Scale (or the
// object).
func TestScaleIsTheFault(t *testing.T) {
	p := play(t, drainFile, Options{At: time.Minute, AllowWrites: true})
	p.record()
	p.freeze(t)
	u := p.http.URL + "/apis/apps/v1/namespaces/default/deployments/web"
	var sc scaleObj
	if code := call(t, "GET", u+"/scale", "", nil, &sc); code != 200 || sc.Kind != "Scale" || sc.Spec.Replicas != 3 ||
		sc.Status.Replicas != 3 || sc.Status.Selector != "app=web" {
		t.Fatalf("the Scale: %d %+v", code, sc)
	}
	if code := send(t, "PATCH", u+"/scale", "", mergePatch, strings.NewReader(`{"spec":{"replicas":5}}`), &sc); code != 200 ||
		sc.Spec.Replicas != 5 || sc.Status.Replicas != 5 {
		t.Errorf("scaled to 5: %d %+v", code, sc)
	}
	if got := strings.Join(podNames(t, p.http.URL), ","); got != "logs-0,logs-1,web-0,web-1,web-2,web-3,web-4" {
		t.Errorf("pods after scaling to 5: %s", got)
	}
	if !strings.Contains(p.log.String(), "at 1m: kubectl scale deployment web --replicas=5 (fault scale)\n") {
		t.Errorf("the log says %q", p.log.String())
	}
	if !changed(&p.tl, func(c *model.Change) bool {
		return c.Kind == model.ChangeEvent && c.Reason == "ScalingReplicaSet" && strings.HasSuffix(c.Message, "from 3 to 5")
	}) {
		t.Errorf("the timeline has no ScalingReplicaSet from 3 to 5")
	}
	var rs struct {
		Spec struct{ Replicas int32 }
	}
	call(t, "GET", p.http.URL+"/apis/apps/v1/namespaces/default/replicasets/"+p.srv.world.Workload("web").ReplicaSets(nil)[0].Name, "", nil, &rs)
	if rs.Spec.Replicas != 5 {
		t.Errorf("the Deployment's ReplicaSet has %d replicas", rs.Spec.Replicas)
	}

	// kubectl scale --current-replicas: get, then put with the version.
	stale := `{"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{"name":"web","resourceVersion":"1"},"spec":{"replicas":2}}`
	var st metav1.Status
	code := send(t, "PUT", u+"/scale", "", "application/json", strings.NewReader(stale), &st)
	failure(t, "put with a stale version", code, &st, 409, metav1.StatusReasonConflict, "the object has been modified")
	fresh := strings.Replace(stale, `"1"`, `"`+sc.Metadata.ResourceVersion+`"`, 1)
	if code := send(t, "PUT", u+"/scale", "", "application/json", strings.NewReader(fresh), &sc); code != 200 || sc.Spec.Replicas != 2 {
		t.Errorf("put 2: %d %+v", code, sc)
	}
	var d struct {
		Kind string
		Spec struct{ Replicas int32 }
	}
	if code := send(t, "PATCH", u, "", strategicPatch, strings.NewReader(`{"spec":{"replicas":4}}`), &d); code != 200 || d.Kind != "Deployment" || d.Spec.Replicas != 4 {
		t.Errorf("patch of the Deployment: %d %+v", code, d)
	}
	if got := p.srv.world.Workload("web").Spec.Replicas; got != 4 {
		t.Errorf("the model's Deployment has %d replicas", got)
	}

	for _, c := range []struct {
		method, path, typ, body string
		code                    int
		reason                  metav1.StatusReason
		msg                     string
	}{
		{"PATCH", "/scale", mergePatch, `{"spec":{"replicas":-1}}`, 422, metav1.StatusReasonInvalid, "spec.replicas: must be greater than or equal to 0"},
		{"PATCH", "/scale", mergePatch, `{"spec":{"replicas":"x"}}`, 422, metav1.StatusReasonInvalid, `want a number of replicas, not "x"`},
		{"PATCH", "/scale", mergePatch, `{"spec":{"replicas":10000000}}`, 422, metav1.StatusReasonInvalid, "at most 10000 replicas"},
		{"PATCH", "", mergePatch, `{"spec":{"paused":true}}`, 422, metav1.StatusReasonInvalid, "spec.paused: podsim serve is a simulation: a patch may set only spec.replicas (kubectl scale)"},
		{"PUT", "/scale", "application/json", `{"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{"name":"api"}}`, 400, metav1.StatusReasonBadRequest, "does not match the name on the URL"},
	} {
		st = metav1.Status{}
		code := send(t, c.method, u+c.path, "", c.typ, strings.NewReader(c.body), &st)
		failure(t, c.method+" "+c.body, code, &st, c.code, c.reason, c.msg)
	}
	rsName := p.srv.world.Workload("web").ReplicaSets(nil)[0].Name
	st = metav1.Status{}
	code = send(t, "PATCH", p.http.URL+"/apis/apps/v1/namespaces/default/replicasets/"+rsName+"/scale", "", mergePatch, strings.NewReader(`{"spec":{"replicas":1}}`), &st)
	failure(t, "scaling the Deployment's ReplicaSet", code, &st, 405, metav1.StatusReasonMethodNotAllowed, "is Deployment web's")
}

// TestScaleReplicaSet: a ReplicaSet of the scenario scales down; the pod it
// ranks first is deleted.
func TestScaleReplicaSet(t *testing.T) {
	p := play(t, "../scenarios/cluster/disk-failure-replicaset.yaml", Options{At: time.Minute, AllowWrites: true})
	p.freeze(t)
	var sc scaleObj
	u := p.http.URL + "/apis/apps/v1/namespaces/default/replicasets/api/scale"
	if code := send(t, "PATCH", u, "", jsonPatch, strings.NewReader(`[{"op":"replace","path":"/spec/replicas","value":1}]`), &sc); code != 200 ||
		sc.Spec.Replicas != 1 || sc.Status.Replicas != 1 {
		t.Errorf("scaled to 1: %d %+v", code, sc)
	}
	var table metav1.Table
	call(t, "GET", p.http.URL+"/apis/apps/v1/namespaces/default/replicasets", tableAccept, nil, &table)
	if len(table.Rows) != 1 || table.Rows[0].Cells[1] != float64(1) {
		t.Errorf("the ReplicaSet's row: %v", table.Rows)
	}
}

// pdbObj is what the test reads of a PodDisruptionBudget.
type pdbObj struct {
	Metadata metav1.ObjectMeta
	Spec     policyv1.PodDisruptionBudgetSpec
	Status   policyv1.PodDisruptionBudgetStatus
}

// TestPDBIsTheModels: a PodDisruptionBudget's object and row are the
// model's spec and status at the frozen instant, also where the status
// last moved without a change of the stream (budget-counts at 100s: the
// fourth pod became ready at 99s, the condition stayed True); a watch from
// the first version replays every status the budget had at the end of an
// instant, in order.
func TestPDBIsTheModels(t *testing.T) {
	for _, c := range []struct {
		file, budget string
		at           time.Duration
		min, max     string
	}{
		{"../scenarios/disruption/drain-with-pdb.yaml", "web-pdb", 59 * time.Second, "N/A", "1"},
		{"../scenarios/disruption/drain-with-pdb.yaml", "web-pdb", time.Minute + 10*time.Second, "N/A", "1"},
		{"../scenarios/disruption/drain-with-pdb.yaml", "web-pdb", 2 * time.Minute, "N/A", "1"},
		{"testdata/budget-counts.yaml", "web", 25 * time.Second, "2", "N/A"},
		{"testdata/budget-counts.yaml", "web", 100 * time.Second, "2", "N/A"},
		{"testdata/two-budgets.yaml", "web-min", time.Minute, "50%", "N/A"},
	} {
		p := play(t, c.file, Options{At: c.at})
		p.freeze(t)
		w := p.sc.Build()
		b := w.DisruptionBudget(c.budget)
		var want []string // the budget's states at the end of each millisecond
		for at := time.Duration(0); at <= c.at; at += time.Millisecond {
			w.Run(at)
			s := budgetState(b.Status.CurrentHealthy, b.Status.DesiredHealthy, b.Status.ExpectedPods, b.Status.DisruptionsAllowed, string(b.Condition.Status))
			if len(want) == 0 || want[len(want)-1] != s {
				want = append(want, s)
			}
		}
		var o pdbObj
		if code := call(t, "GET", p.http.URL+"/apis/policy/v1/namespaces/default/poddisruptionbudgets/"+c.budget, "", nil, &o); code != 200 {
			t.Fatalf("get: %d", code)
		}
		st := o.Status
		if got := budgetState(int(st.CurrentHealthy), int(st.DesiredHealthy), int(st.ExpectedPods), int(st.DisruptionsAllowed),
			string(st.Conditions[0].Status)); got != want[len(want)-1] || st.ObservedGeneration != 1 {
			t.Errorf("%s at %s: status %+v, the model's %s", c.budget, c.at, st, want[len(want)-1])
		}
		if len(st.Conditions) != 1 || st.Conditions[0].Type != model.DisruptionAllowed || st.Conditions[0].Reason != b.Condition.Reason {
			t.Errorf("%s at %s: conditions %+v, the model's %+v", c.budget, c.at, st.Conditions, b.Condition)
		}
		if intstrCell(o.Spec.MinAvailable) != c.min || intstrCell(o.Spec.MaxUnavailable) != c.max ||
			o.Spec.Selector.MatchLabels["app"] != "web" || o.Metadata.Generation != 1 {
			t.Errorf("%s: spec %+v", c.budget, o.Spec)
		}

		var table metav1.Table
		call(t, "GET", p.http.URL+"/apis/policy/v1/namespaces/default/poddisruptionbudgets?fieldSelector=metadata.name%3D"+c.budget, tableAccept, nil, &table)
		var cols []string
		for _, col := range table.ColumnDefinitions {
			cols = append(cols, col.Name)
		}
		if got := strings.Join(cols, ","); got != "Name,Min Available,Max Unavailable,Allowed Disruptions,Age" {
			t.Errorf("columns %s", got)
		}
		row := []any{c.budget, c.min, c.max, float64(b.Status.DisruptionsAllowed), report.HumanDuration(c.at)}
		if len(table.Rows) != 1 || fmt.Sprint(table.Rows[0].Cells) != fmt.Sprint(row) {
			t.Errorf("%s at %s: rows %v, want %v", c.budget, c.at, table.Rows, row)
		}

		// The history, from the first version.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second) // the watch would wait for more
		defer cancel()
		req, _ := http.NewRequestWithContext(ctx, "GET", p.http.URL+"/apis/policy/v1/poddisruptionbudgets?watch=1&resourceVersion=1&fieldSelector=metadata.name%3D"+c.budget, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		i := 0 // want[:i] seen in order
		sc := bufio.NewScanner(resp.Body)
		for i < len(want) && sc.Scan() {
			var e struct{ Object pdbObj }
			if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
				t.Fatal(err)
			}
			st, cond := &e.Object.Status, ""
			if len(st.Conditions) > 0 {
				cond = string(st.Conditions[0].Status)
			}
			got = append(got, budgetState(int(st.CurrentHealthy), int(st.DesiredHealthy), int(st.ExpectedPods), int(st.DisruptionsAllowed), cond))
			if got[len(got)-1] == want[i] {
				i++
			}
		}
		resp.Body.Close()
		if i < len(want) {
			t.Errorf("%s at %s: the watch from version 1 replayed %v, want %v in order", c.budget, c.at, got, want)
		}
	}
}

// intstrCell is an IntOrString as kubectl prints it, N/A for none.
func intstrCell(v *intstr.IntOrString) string {
	if v == nil {
		return "N/A"
	}
	return v.String()
}

// budgetState is what a watcher of a budget compares: its counts and its
// condition.
func budgetState(healthy, desired, expected, allowed int, cond string) string {
	return fmt.Sprintf("healthy %d desired %d expected %d allowed %d %s", healthy, desired, expected, allowed, cond)
}

// TestPDBWatchFollowsTheModel watches PodDisruptionBudgets while the drain
// scenario plays on a mock clock and a pod is evicted at 1m: the watch
// sees every status the model's budget has at the end of each instant (and
// those in between that came with a change), in order, and ends with the
// model's.
func TestPDBWatchFollowsTheModel(t *testing.T) {
	p := play(t, drainFile, Options{Speed: 1, AllowWrites: true})
	resp, err := http.Get(p.http.URL + "/apis/policy/v1/poddisruptionbudgets?watch=1")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	states := make(chan string, 1000)
	go func() {
		defer close(states)
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			var e struct{ Object pdbObj }
			if json.Unmarshal(sc.Bytes(), &e) != nil {
				return
			}
			st, cond := &e.Object.Status, ""
			if len(st.Conditions) > 0 {
				cond = string(st.Conditions[0].Status)
			}
			states <- budgetState(int(st.CurrentHealthy), int(st.DesiredHealthy), int(st.ExpectedPods), int(st.DisruptionsAllowed), cond)
		}
	}()
	p.start()
	p.advance(time.Minute)
	var st metav1.Status
	if code := send(t, "POST", p.http.URL+"/api/v1/namespaces/default/pods/web-0/eviction", "", "application/json", strings.NewReader(eviction("web-0")), &st); code != 201 {
		t.Fatalf("evicting web-0: %d %+v", code, st)
	}
	p.advance(2 * time.Minute)

	// The model's budget at the end of each millisecond, the same eviction
	// at 1m.
	w := p.sc.Build()
	b := w.DisruptionBudget("web-pdb")
	var want []string
	for at := time.Duration(0); at <= 2*time.Minute; at += time.Millisecond {
		w.Run(at)
		if at == time.Minute {
			w.Pod("web-0").Evict()
			w.Run(at)
		}
		s := budgetState(b.Status.CurrentHealthy, b.Status.DesiredHealthy, b.Status.ExpectedPods, b.Status.DisruptionsAllowed, string(b.Condition.Status))
		if len(want) == 0 || want[len(want)-1] != s {
			want = append(want, s)
		}
	}
	if len(want) < 4 {
		t.Fatalf("the model's budget took only %d states: %v", len(want), want)
	}
	var got []string
	deadline := time.After(20 * time.Second)
	for i := 0; i < len(want); {
		select {
		case s, ok := <-states:
			if !ok {
				t.Fatalf("the watch ended; it saw %v, want %v in order", got, want)
			}
			got = append(got, s)
			if s == want[i] {
				i++
			}
		case <-deadline:
			t.Fatalf("the watch saw %v, want %v in order", got, want)
		}
	}
	var o pdbObj
	call(t, "GET", p.http.URL+"/apis/policy/v1/namespaces/default/poddisruptionbudgets/web-pdb", "", nil, &o)
	if s := budgetState(int(o.Status.CurrentHealthy), int(o.Status.DesiredHealthy), int(o.Status.ExpectedPods),
		int(o.Status.DisruptionsAllowed), string(o.Status.Conditions[0].Status)); s != want[len(want)-1] {
		t.Errorf("the budget at 2m: %s, the model's %s", s, want[len(want)-1])
	}
}
