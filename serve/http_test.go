package serve

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/report"
)

// call makes one request and decodes the JSON answer into out (if not nil);
// it returns the status code.
func call(t *testing.T, method, url, accept string, body io.Reader, out any) int {
	t.Helper()
	return send(t, method, url, accept, "", body, out)
}

// send is call with a Content-Type.
func send(t *testing.T, method, url, accept, contentType string, body io.Reader, out any) int {
	t.Helper()
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		t.Fatal(err)
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: %v in %s", method, url, err, b)
		}
	}
	return resp.StatusCode
}

const tableAccept = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json"

// TestTableIsPodsimsView: the Table form of pods is report's rows of the
// world at the frozen instant, column for column.
func TestTableIsPodsimsView(t *testing.T) {
	p := play(t, "../scenarios/cluster/disk-failure-replicaset.yaml", Options{At: 3 * time.Minute})
	p.freeze(t)
	w := p.sc.Build()
	w.Run(3 * time.Minute)
	var want [][]any
	for _, name := range []string{"api-0", "api-1", "api-2"} {
		r := report.GetPod(w.Pod(name), w.Now())
		want = append(want, []any{r.Name, r.Ready, r.Status, r.Restarts, r.Age, r.IP, r.Node, r.NominatedNode, r.ReadinessGates})
	}
	var table metav1.Table
	if code := call(t, "GET", p.http.URL+"/api/v1/namespaces/default/pods", tableAccept, nil, &table); code != 200 {
		t.Fatalf("code %d", code)
	}
	var cols []string
	for _, c := range table.ColumnDefinitions {
		cols = append(cols, c.Name)
	}
	if got := strings.Join(cols, ","); got != "Name,Ready,Status,Restarts,Age,IP,Node,Nominated Node,Readiness Gates" {
		t.Errorf("columns %s", got)
	}
	if len(table.Rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(table.Rows), len(want))
	}
	for i, row := range table.Rows {
		for j, cell := range row.Cells {
			if cell != want[i][j] {
				t.Errorf("row %d column %s: %v, podsim's view says %v", i, cols[j], cell, want[i][j])
			}
		}
	}
}

// TestAPIErrors: every request podsim does not take gets a Status with
// the right code.
func TestAPIErrors(t *testing.T) {
	p := play(t, "../scenarios/demo.yaml", Options{At: time.Minute, History: 4})
	p.freeze(t)
	u := p.http.URL
	for _, c := range []struct {
		method, path, accept string
		code                 int
		reason               metav1.StatusReason
		message              string
	}{
		{"GET", "/api/v1/namespaces/default/pods/nope", "", 404, metav1.StatusReasonNotFound, `pods "nope" not found`},
		{"GET", "/api/v1/widgets", "", 404, metav1.StatusReasonNotFound, "could not find"},
		{"GET", "/apis/apps/v2/deployments", "", 404, metav1.StatusReasonNotFound, "could not find"},
		{"GET", "/api/v1/namespaces/default/nodes", "", 404, metav1.StatusReasonNotFound, "could not find"},
		{"GET", "/api/v1/pods?labelSelector=app+in+(", "", 400, metav1.StatusReasonBadRequest, "labelSelector"},
		{"GET", "/api/v1/pods?fieldSelector=spec.colour%3Dred", "", 400, metav1.StatusReasonBadRequest, "field label not supported: spec.colour"},
		{"GET", "/api/v1/pods?watch=1&resourceVersion=x", "", 400, metav1.StatusReasonBadRequest, "resourceVersion"},
		{"GET", "/api/v1/pods?watch=1&resourceVersion=1", "", 410, metav1.StatusReasonExpired, "too old resource version"},
		{"GET", "/api/v1/pods", "application/vnd.kubernetes.protobuf", 406, metav1.StatusReasonNotAcceptable, "only application/json"},
		{"POST", "/api/v1/namespaces/default/pods", "", 405, metav1.StatusReasonMethodNotAllowed, "simulation"},
		{"PUT", "/api/v1/nodes/node-a", "", 405, metav1.StatusReasonMethodNotAllowed, "simulation"},
		{"DELETE", "/api/v1/namespaces/default/pods/web", "", 405, metav1.StatusReasonMethodNotAllowed, "--allow-writes"},
		{"PATCH", "/api/v1/nodes/node-a", "", 405, metav1.StatusReasonMethodNotAllowed, "--allow-writes"},
	} {
		var st metav1.Status
		if code := call(t, c.method, u+c.path, c.accept, nil, &st); code != c.code || st.Code != int32(c.code) ||
			st.Reason != c.reason || !strings.Contains(st.Message, c.message) || st.Kind != "Status" {
			t.Errorf("%s %s: %d %+v, want %d %s %q", c.method, c.path, code, st, c.code, c.reason, c.message)
		}
	}
}

// TestWritesAndTheRest: with --allow-writes, a delete is the delete fault
// (the ReplicaSet replaces the pod at once) and the writes podsim does not
// take are 405, saying it is a simulation.
func TestWritesAndTheRest(t *testing.T) {
	p := play(t, "../scenarios/cluster/disk-failure-replicaset.yaml", Options{At: time.Minute, AllowWrites: true})
	p.freeze(t)
	u := p.http.URL
	for _, path := range []string{
		"PATCH /api/v1/namespaces/default/pods/api-0",
		"PUT /api/v1/nodes/node-a",
		"POST /api/v1/namespaces/default/events",
		"DELETE /api/v1/namespaces/default/pods?labelSelector=app%3Dapi",
		"DELETE /api/v1/nodes/node-a",
	} {
		method, path, _ := strings.Cut(path, " ")
		var st metav1.Status
		if code := call(t, method, u+path, "", strings.NewReader("{}"), &st); code != 405 || !strings.Contains(st.Message, "simulation") {
			t.Errorf("%s %s: %d %q, want 405 saying it is a simulation", method, path, code, st.Message)
		}
	}
	var pod struct {
		Metadata metav1.ObjectMeta `json:"metadata"`
	}
	body := strings.NewReader(`{"kind":"DeleteOptions","apiVersion":"v1","gracePeriodSeconds":7}`)
	if code := call(t, "DELETE", u+"/api/v1/namespaces/default/pods/api-1", "", body, &pod); code != 200 {
		t.Fatalf("delete: %d", code)
	}
	if g := pod.Metadata.DeletionGracePeriodSeconds; g == nil || *g != 7 || pod.Metadata.DeletionTimestamp == nil {
		t.Errorf("the deleted pod's deletion: %v %v, want grace 7", pod.Metadata.DeletionTimestamp, g)
	}
	// The ReplicaSet replaced it at the same instant.
	if got := strings.Join(podNames(t, u), ","); got != "api-0,api-2" {
		// Its process stops at once on SIGTERM, so it is gone at once.
		t.Errorf("pods after the delete: %s, want api-0 and api-1's replacement api-2", got)
	}
	if !strings.Contains(p.log.String(), "at 1m: kubectl delete pod api-1 --grace-period=7 (fault delete)") {
		t.Errorf("the log says %q", p.log.String())
	}
	var st metav1.Status
	if code := call(t, "DELETE", u+"/api/v1/namespaces/default/pods/nope", "", nil, &st); code != 404 {
		t.Errorf("delete of a missing pod: %d", code)
	}
}

// podNames lists the pods' names.
func podNames(t *testing.T, u string) []string {
	t.Helper()
	var list struct {
		Items []struct {
			Metadata metav1.ObjectMeta `json:"metadata"`
		} `json:"items"`
	}
	call(t, "GET", u+"/api/v1/namespaces/default/pods", "", nil, &list)
	var names []string
	for _, it := range list.Items {
		names = append(names, it.Metadata.Name)
	}
	return names
}

// TestDiscovery: kubectl finds every resource, with its short names.
func TestDiscovery(t *testing.T) {
	p := play(t, "../scenarios/demo.yaml", Options{At: time.Minute})
	p.freeze(t)
	var groups metav1.APIGroupList
	call(t, "GET", p.http.URL+"/apis", "", nil, &groups)
	want := map[string][]string{"v1": {"namespaces/ns", "nodes/no", "pods/po", "events/ev"},
		"apps/v1":  {"deployments/deploy", "deployments/scale/", "replicasets/rs", "replicasets/scale/", "daemonsets/ds", "statefulsets/sts", "statefulsets/scale/"},
		"batch/v1": {"jobs/", "cronjobs/cj"}, "events.k8s.io/v1": {"events/ev"}, "policy/v1": {"poddisruptionbudgets/pdb"},
		"autoscaling/v2": {"horizontalpodautoscalers/hpa"}, "autoscaling/v1": {"horizontalpodautoscalers/hpa"}, "scheduling.k8s.io/v1": {"priorityclasses/pc"}, "coordination.k8s.io/v1": {"leases/"},
		"authorization.k8s.io/v1": {"selfsubjectaccessreviews/", "selfsubjectrulesreviews/"}, "metrics.k8s.io/v1beta1": {"nodes/", "pods/"}}
	var gvs []string
	for _, g := range groups.Groups {
		gvs = append(gvs, g.PreferredVersion.GroupVersion)
	}
	if got := strings.Join(gvs, ","); got != "apps/v1,batch/v1,events.k8s.io/v1,policy/v1,autoscaling/v2,coordination.k8s.io/v1,scheduling.k8s.io/v1,authorization.k8s.io/v1,metrics.k8s.io/v1beta1" {
		t.Errorf("groups %s", got)
	}
	for gv, rs := range want {
		path := "/apis/" + gv
		if gv == "v1" {
			path = "/api/v1"
		}
		var l metav1.APIResourceList
		call(t, "GET", p.http.URL+path, "", nil, &l)
		var got []string
		for _, r := range l.APIResources {
			short := ""
			if len(r.ShortNames) > 0 {
				short = r.ShortNames[0]
			}
			got = append(got, r.Name+"/"+short)
			if inAll := slices.Contains(r.Categories, "all"); inAll != (gv != "metrics.k8s.io/v1beta1") && slices.Contains([]string{"pods", "deployments", "replicasets",
				"daemonsets", "statefulsets", "jobs", "cronjobs", "horizontalpodautoscalers"}, r.Name) {
				t.Errorf("%s %s categories %v", gv, r.Name, r.Categories)
			}
			if v := strings.Join(r.Verbs, ","); v != "get,list,watch" && !(strings.HasSuffix(r.Name, "/scale") && v == "get") &&
				!(strings.HasPrefix(r.Name, "selfsubject") && v == "create") && !(gv == "metrics.k8s.io/v1beta1" && v == "get,list") {
				t.Errorf("%s %s verbs %v on a read-only server", gv, r.Name, r.Verbs)
			}
		}
		if strings.Join(got, " ") != strings.Join(rs, " ") {
			t.Errorf("%s: %v, want %v", gv, got, rs)
		}
	}
	var v struct{ GitVersion string }
	if call(t, "GET", p.http.URL+"/version", "", nil, &v); !strings.HasPrefix(v.GitVersion, "v1.") {
		t.Errorf("version %q", v.GitVersion)
	}
	for _, path := range []string{"/healthz", "/livez", "/readyz"} {
		resp, err := http.Get(p.http.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || string(body) != "ok" {
			t.Errorf("%s: %d %q", path, resp.StatusCode, body)
		}
	}
}

// TestWatchReplaysAndFilters: a watch from version 0 starts with the
// object as it is; a watch from a version replays every later version of
// the objects that match, in order.
func TestWatchReplaysAndFilters(t *testing.T) {
	p := play(t, "../scenarios/demo.yaml", Options{At: time.Minute})
	p.freeze(t)
	changes := timeline(t, p.sc)
	var want []string
	for i := range changes {
		c := &changes[i]
		switch c.Kind {
		case model.ChangePhase, model.ChangeContainer, model.ChangeCondition, model.ChangePod:
			if c.T <= time.Minute && c.Pod == "web" && i+1 > 1 {
				want = append(want, strconv.Itoa(i+1))
			}
		}
	}
	watchRVs := func(query string, n int) []string {
		resp, err := http.Get(p.http.URL + "/api/v1/pods?watch=1&fieldSelector=metadata.name%3Dweb&timeoutSeconds=1&" + query)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var got []string
		sc := bufio.NewScanner(resp.Body)
		for len(got) < n && sc.Scan() {
			var e struct {
				Type   string
				Object struct{ Metadata metav1.ObjectMeta }
			}
			if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
				t.Fatal(err)
			}
			if e.Object.Metadata.Name != "web" {
				t.Errorf("%s: an event about %s", query, e.Object.Metadata.Name)
			}
			got = append(got, e.Type+" "+e.Object.Metadata.ResourceVersion)
		}
		return got
	}
	if got := watchRVs("resourceVersion=0", 1); len(got) != 1 || got[0] != "ADDED "+want[len(want)-1] {
		t.Errorf("a watch from 0 began with %v, want web ADDED at %s", got, want[len(want)-1])
	}
	got := watchRVs("resourceVersion=1", len(want))
	for i := range want {
		typ := "MODIFIED "
		if i == 0 {
			typ = "ADDED "
		}
		want[i] = typ + want[i]
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("a watch from version 1 replayed\n%v\nwant\n%v", got, want)
	}
}

// TestAccessReview: a SelfSubjectAccessReview (kubectl auth can-i, k9s)
// allows every read of what is served, the writes podsim takes only with
// --allow-writes, and nothing else.
func TestAccessReview(t *testing.T) {
	review := func(u, attrs string) (bool, string) {
		var out struct {
			Kind   string
			Status struct {
				Allowed bool
				Reason  string
			}
		}
		body := `{"kind":"SelfSubjectAccessReview","apiVersion":"authorization.k8s.io/v1","spec":` + attrs + `}`
		if code := send(t, "POST", u+"/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", "", "application/json",
			strings.NewReader(body), &out); code != 201 || out.Kind != "SelfSubjectAccessReview" {
			t.Fatalf("review %s: %d %+v", attrs, code, out)
		}
		return out.Status.Allowed, out.Status.Reason
	}
	cases := []struct {
		attrs          string
		readOnly, rw   bool
		reasonContains string
	}{
		{`{"resourceAttributes":{"verb":"list","resource":"pods"}}`, true, true, "every read"},
		{`{"resourceAttributes":{"verb":"watch","group":"apps","resource":"deployments","namespace":"default"}}`, true, true, "every read"},
		{`{"resourceAttributes":{"verb":"get","group":"apps","resource":"deployments","subresource":"scale"}}`, true, true, "every read"},
		{`{"resourceAttributes":{"verb":"get","resource":"pods","subresource":"log"}}`, false, false, "does not serve pods/log"},
		{`{"resourceAttributes":{"verb":"delete","resource":"pods","namespace":"default"}}`, false, true, "kubectl delete pod"},
		{`{"resourceAttributes":{"verb":"create","resource":"pods","subresource":"eviction"}}`, false, true, "kubectl drain"},
		{`{"resourceAttributes":{"verb":"patch","group":"apps","resource":"deployments"}}`, false, true, "set image"},
		{`{"resourceAttributes":{"verb":"create","resource":"pods"}}`, false, false, "does not create pods"},
		{`{"resourceAttributes":{"verb":"list","resource":"secrets"}}`, false, false, "does not serve secrets"},
		{`{"nonResourceAttributes":{"verb":"get","path":"/version"}}`, true, true, "every read"},
		{`{"resourceAttributes":{"verb":"create","group":"authorization.k8s.io","resource":"selfsubjectaccessreviews"}}`, true, true, "may ask"},
	}
	ro := play(t, "../scenarios/demo.yaml", Options{At: time.Minute})
	rw := play(t, "../scenarios/demo.yaml", Options{At: time.Minute, AllowWrites: true})
	for _, c := range cases {
		if ok, reason := review(ro.http.URL, c.attrs); ok != c.readOnly || !strings.Contains(reason, c.reasonContains) &&
			!strings.Contains(reason, "read-only unless started with --allow-writes") {
			t.Errorf("read-only %s: %v %q", c.attrs, ok, reason)
		}
		if ok, reason := review(rw.http.URL, c.attrs); ok != c.rw || !strings.Contains(reason, c.reasonContains) {
			t.Errorf("--allow-writes %s: %v %q", c.attrs, ok, reason)
		}
	}
	for _, spec := range []string{`{}`, `{"resourceAttributes":{"verb":"get","resource":"pods"},"nonResourceAttributes":{"verb":"get","path":"/api"}}`} {
		var st metav1.Status
		code := send(t, "POST", ro.http.URL+"/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", "", "application/json",
			strings.NewReader(`{"kind":"SelfSubjectAccessReview","apiVersion":"authorization.k8s.io/v1","spec":`+spec+`}`), &st)
		failure(t, "review "+spec, code, &st, 422, metav1.StatusReasonInvalid, "exactly one of nonResourceAttributes or resourceAttributes")
	}

	// A rules review lists the same: reads everywhere, writes with
	// --allow-writes.
	rules := func(u string) []string {
		var out struct {
			Status struct {
				ResourceRules []struct{ Verbs, APIGroups, Resources []string }
			}
		}
		if code := send(t, "POST", u+"/apis/authorization.k8s.io/v1/selfsubjectrulesreviews", "", "application/json",
			strings.NewReader(`{"kind":"SelfSubjectRulesReview","apiVersion":"authorization.k8s.io/v1","spec":{"namespace":"default"}}`), &out); code != 201 {
			t.Fatalf("rules review: %d", code)
		}
		var got []string
		for _, r := range out.Status.ResourceRules {
			got = append(got, strings.Join(r.Verbs, ",")+" "+strings.Join(r.Resources, ","))
		}
		return got
	}
	roRules, rwRules := rules(ro.http.URL), rules(rw.http.URL)
	if !slices.Contains(roRules, "get,list,watch pods") || slices.Contains(roRules, "delete pods") || !slices.Contains(rwRules, "delete pods") ||
		!slices.Contains(rwRules, "create pods/eviction") || !slices.Contains(rwRules, "patch deployments/scale") {
		t.Errorf("rules: read-only %v, with writes %v", roRules, rwRules)
	}

	if out := kubectl(t, rw, "auth", "can-i", "delete", "pods"); strings.TrimSpace(out) != "yes" {
		t.Errorf("kubectl auth can-i delete pods: %q", out)
	}
	if out := kubectl(t, rw, "auth", "can-i", "--list"); !strings.Contains(out, "pods/eviction") || !strings.Contains(out, "[create]") {
		t.Errorf("kubectl auth can-i --list:\n%s", out)
	}
}
