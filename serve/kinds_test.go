package serve

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podsim/podsim/report"
)

// kubectl runs kubectl against p with a written kubeconfig and returns its
// output; the test is skipped where kubectl is not installed.
func kubectl(t *testing.T, p *played, args ...string) string {
	t.Helper()
	bin, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("kubectl is not installed (make kubectl installs Debian's kubernetes-client)")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "kubeconfig")
	if err := WriteKubeconfig(cfg, strings.TrimPrefix(p.http.URL, "http://")); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(bin, append([]string{"--kubeconfig", cfg, "--cache-dir", filepath.Join(dir, "cache")}, args...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("kubectl %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// metaList is the metadata of a list's items.
type metaList struct {
	Items []struct {
		Metadata metav1.ObjectMeta `json:"metadata"`
	} `json:"items"`
}

func (l *metaList) keys() []string {
	var out []string
	for _, it := range l.Items {
		out = append(out, it.Metadata.Namespace+"/"+it.Metadata.Name)
	}
	slices.Sort(out)
	return out
}

// TestNamespaces: objects of the same name in two namespaces are two
// objects; each namespace's routes see its own, the cluster-wide list sees
// both, and a write addresses the one its namespace names.
func TestNamespaces(t *testing.T) {
	at := 65 * time.Second
	p := play(t, "../scenarios/namespaces/same-name.yaml", Options{At: at, AllowWrites: true})
	p.freeze(t)
	u := p.http.URL
	w := p.sc.Build()
	w.Run(at)

	var ns metaList
	call(t, "GET", u+"/api/v1/namespaces", "", nil, &ns)
	if got := strings.Join(ns.keys(), ","); got != "/canary,/default,/kube-node-lease,/kube-public,/kube-system" {
		t.Errorf("namespaces %s", got)
	}
	var want []string
	for _, pod := range w.Pods() {
		if !pod.Deleted() {
			want = append(want, pod.Namespace+"/"+pod.Name)
		}
	}
	slices.Sort(want)
	var all, canary metaList
	call(t, "GET", u+"/api/v1/pods", "", nil, &all)
	if got := all.keys(); !slices.Equal(got, want) {
		t.Errorf("every pod: %v, want %v", got, want)
	}
	call(t, "GET", u+"/api/v1/namespaces/canary/pods", "", nil, &canary)
	if got := strings.Join(canary.keys(), ","); got != "canary/api-0,canary/web" {
		t.Errorf("canary's pods: %s", got)
	}
	var deps metaList
	call(t, "GET", u+"/apis/apps/v1/deployments", "", nil, &deps)
	if got := strings.Join(deps.keys(), ","); got != "canary/api,default/api" {
		t.Errorf("deployments: %s", got)
	}
	if deps.Items[0].Metadata.UID == deps.Items[1].Metadata.UID {
		t.Error("the two Deployments called api share a UID")
	}

	// Each web is its own namespace's: its table row is podsim's view.
	for _, key := range []string{"canary/web", "web"} {
		nsName := "default"
		if strings.HasPrefix(key, "canary/") {
			nsName = "canary"
		}
		var table metav1.Table
		if code := call(t, "GET", u+"/api/v1/namespaces/"+nsName+"/pods/web", tableAccept, nil, &table); code != 200 || len(table.Rows) != 1 {
			t.Fatalf("get %s: %d %v", key, code, table.Rows)
		}
		r := report.GetPod(w.Pod(key), at)
		if got := table.Rows[0].Cells[2]; got != r.Status {
			t.Errorf("%s: STATUS %v, want %s", key, got, r.Status)
		}
	}
	var events metaList
	call(t, "GET", u+"/api/v1/namespaces/canary/events?fieldSelector=involvedObject.name%3Dweb,reason%3DBackOff", "", nil, &events)
	if len(events.Items) != 1 || events.Items[0].Metadata.Namespace != "canary" {
		t.Errorf("canary/web's BackOff events: %v", events.keys())
	}
	call(t, "GET", u+"/api/v1/namespaces/default/events?fieldSelector=involvedObject.name%3Dweb,reason%3DBackOff", "", nil, &events)
	if len(events.Items) != 0 {
		t.Errorf("default/web has BackOff events: %v", events.keys())
	}

	// A delete in canary deletes canary's api-0, not default's.
	if code := call(t, "DELETE", u+"/api/v1/namespaces/canary/pods/api-0", "", nil, nil); code != 200 {
		t.Fatalf("delete canary/api-0: %d", code)
	}
	if !strings.Contains(p.log.String(), "kubectl delete pod api-0 -n canary (fault delete)") {
		t.Errorf("the log: %s", p.log.String())
	}
	call(t, "GET", u+"/api/v1/pods", "", nil, &all)
	if got := all.keys(); !slices.Contains(got, "default/api-0") || !slices.Contains(got, "canary/api-1") {
		t.Errorf("pods after deleting canary/api-0: %v", got)
	}

	// kubectl sees the same.
	out := kubectl(t, p, "get", "pods", "-A")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if !strings.HasPrefix(lines[0], "NAMESPACE") || !strings.Contains(out, "canary") || !strings.Contains(out, "default") {
		t.Errorf("kubectl get pods -A:\n%s", out)
	}
	out = kubectl(t, p, "get", "pods", "-n", "canary", "web", "--no-headers")
	if f := strings.Fields(out); len(f) < 3 || f[2] != report.GetPod(w.Pod("canary/web"), at).Status {
		t.Errorf("kubectl get pods -n canary web: %s", out)
	}
	out = kubectl(t, p, "describe", "pod", "web", "-n", "canary")
	if !strings.Contains(out, "Namespace:") || !strings.Contains(out, "canary") || !strings.Contains(out, "BackOff") {
		t.Errorf("kubectl describe pod web -n canary:\n%s", out)
	}
	out = kubectl(t, p, "describe", "pod", "web")
	if strings.Contains(out, "BackOff") {
		t.Errorf("kubectl describe pod web (default) shows canary's events:\n%s", out)
	}
}

// watchEvents reads a watch until an event "TYPE name" is until, or 10
// seconds passed.
func watchEvents(t *testing.T, url, until string) []string {
	t.Helper()
	var got []string
	readWatch(t, url, func(typ string, m *metav1.ObjectMeta) bool {
		got = append(got, typ+" "+m.Name)
		return got[len(got)-1] == until
	})
	return got
}

// readWatch reads a watch, handing each event's type and object metadata to
// stop, until stop says so or 10 seconds passed.
func readWatch(t *testing.T, url string, stop func(typ string, m *metav1.ObjectMeta) bool) {
	t.Helper()
	resp, err := (&http.Client{Timeout: 10 * time.Second}).Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		var e struct {
			Type   string
			Object struct{ Metadata metav1.ObjectMeta }
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatal(err)
		}
		if stop(e.Type, &e.Object.Metadata) {
			return
		}
	}
}

// TestCronJobsAndTheirJobs: CronJobs show their controller's status, their
// Jobs are owned by them, and a Job the history limit deletes leaves with
// a DELETED event.
func TestCronJobsAndTheirJobs(t *testing.T) {
	at := 3*time.Minute + 5*time.Second
	p := play(t, "../scenarios/cronjob/history-limits.yaml", Options{At: at})
	p.freeze(t)
	u := p.http.URL
	w := p.sc.Build()
	w.Run(at)

	var table metav1.Table
	if code := call(t, "GET", u+"/apis/batch/v1/namespaces/default/cronjobs", tableAccept, nil, &table); code != 200 {
		t.Fatalf("cronjobs: %d", code)
	}
	var cols []string
	for _, c := range table.ColumnDefinitions {
		if c.Priority == 0 {
			cols = append(cols, c.Name)
		}
	}
	if got := strings.Join(cols, ","); got != "Name,Schedule,Timezone,Suspend,Active,Last Schedule,Age" {
		t.Errorf("columns %s", got)
	}
	var rows []string
	for _, r := range table.Rows {
		rows = append(rows, fmt.Sprint(r.Cells[:7]...))
	}
	var want []string
	for _, name := range []string{"broken", "report"} {
		wl := w.Workload(name)
		last := report.HumanDuration(at - wl.LastScheduleTime().Sub(w.WallTime(0)))
		want = append(want, fmt.Sprint(name, wl.Spec.CronJob.ScheduleText, "<none>", "False", int64(wl.ActiveJobs()), last, report.HumanDuration(at)))
	}
	if strings.Join(rows, "\n") != strings.Join(want, "\n") {
		t.Errorf("cronjob rows\n%s\nwant\n%s", strings.Join(rows, "\n"), strings.Join(want, "\n"))
	}

	var cj batchv1.CronJob
	call(t, "GET", u+"/apis/batch/v1/namespaces/default/cronjobs/report", "", nil, &cj)
	if len(cj.Status.Active) != 1 || cj.Status.Active[0].Name != "report-3" || cj.Status.LastScheduleTime == nil || cj.Status.LastSuccessfulTime == nil {
		t.Errorf("report's status: %+v", cj.Status)
	}
	var jobs batchv1.JobList
	call(t, "GET", u+"/apis/batch/v1/namespaces/default/jobs", "", nil, &jobs)
	var got []string
	for _, j := range jobs.Items {
		if len(j.OwnerReferences) != 1 || j.OwnerReferences[0].Kind != "CronJob" || !strings.HasPrefix(j.Name, j.OwnerReferences[0].Name+"-") {
			t.Errorf("job %s owned by %v", j.Name, j.OwnerReferences)
		}
		got = append(got, j.Name)
	}
	want = nil
	for _, name := range []string{"broken", "report"} {
		for _, j := range w.Workload(name).Jobs() {
			want = append(want, j.Spec.Name)
		}
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("jobs %v, want the model's %v", got, want)
	}
	// broken-1 was deleted at 2m10.1s: a watch from the start sees it go.
	events := watchEvents(t, u+"/apis/batch/v1/namespaces/default/jobs?watch=1&resourceVersion=1", "DELETED broken-1")
	if !slices.Contains(events, "DELETED broken-1") {
		t.Errorf("the watch of jobs: %v", events)
	}
	var pods corev1.PodList
	call(t, "GET", u+"/api/v1/namespaces/default/pods", "", nil, &pods)
	for _, pod := range pods.Items {
		if len(pod.OwnerReferences) != 1 || pod.OwnerReferences[0].Kind != "Job" {
			t.Errorf("pod %s owned by %v", pod.Name, pod.OwnerReferences)
		}
	}

	out := kubectl(t, p, "get", "cronjobs,jobs")
	for _, s := range []string{"cronjob.batch/report", "@every 1m", "job.batch/report-3", "job.batch/broken-2"} {
		if !strings.Contains(out, s) {
			t.Errorf("kubectl get cronjobs,jobs lacks %q:\n%s", s, out)
		}
	}
	out = kubectl(t, p, "describe", "cronjob", "broken")
	for _, s := range []string{"Schedule:", "* * * * *", "Active Jobs:", "broken-3", "SuccessfulDelete", "Deleted job broken-1"} {
		if !strings.Contains(out, s) {
			t.Errorf("kubectl describe cronjob broken lacks %q:\n%s", s, out)
		}
	}
}

// TestStatefulSets: a StatefulSet's status counts its pods as the model
// does, its pods are owned by it, and kubectl scale scales it.
func TestStatefulSets(t *testing.T) {
	at := 15 * time.Second
	p := play(t, "../scenarios/statefulset/ordered-start.yaml", Options{At: at, AllowWrites: true})
	p.freeze(t)
	u := p.http.URL
	var sts appsv1.StatefulSet
	if code := call(t, "GET", u+"/apis/apps/v1/namespaces/default/statefulsets/web", "", nil, &sts); code != 200 {
		t.Fatalf("statefulset: %d", code)
	}
	// web-0 is ready at 10s; web-1 is created then and not ready yet.
	if st := sts.Status; st.Replicas != 2 || st.ReadyReplicas != 1 || st.CurrentReplicas != 2 || *sts.Spec.Replicas != 3 {
		t.Errorf("status %+v", st)
	}
	var pod corev1.Pod
	call(t, "GET", u+"/api/v1/namespaces/default/pods/web-1", "", nil, &pod)
	if len(pod.OwnerReferences) != 1 || pod.OwnerReferences[0].Kind != "StatefulSet" || pod.Labels["statefulset.kubernetes.io/pod-name"] != "web-1" {
		t.Errorf("web-1: owners %v labels %v", pod.OwnerReferences, pod.Labels)
	}
	out := kubectl(t, p, "get", "sts", "--no-headers")
	if f := strings.Fields(out); len(f) < 3 || f[0] != "web" || f[1] != "1/3" || f[2] != "15s" {
		t.Errorf("kubectl get sts: %s", out)
	}
	out = kubectl(t, p, "describe", "sts", "web")
	for _, s := range []string{"Replicas:", "3 desired | 2 total", "SuccessfulCreate", "create Pod web-1 in StatefulSet web successful"} {
		if !strings.Contains(out, s) {
			t.Errorf("kubectl describe sts web lacks %q:\n%s", s, out)
		}
	}
	out = kubectl(t, p, "scale", "sts", "web", "--replicas=1")
	if !strings.Contains(out, "statefulset.apps/web scaled") || !strings.Contains(p.log.String(), "kubectl scale statefulset web --replicas=1 (fault scale)") {
		t.Errorf("kubectl scale: %s\nlog: %s", out, p.log.String())
	}
	call(t, "GET", u+"/apis/apps/v1/namespaces/default/statefulsets/web", "", nil, &sts)
	if *sts.Spec.Replicas != 1 || sts.Generation != 2 || sts.Status.ObservedGeneration != 2 {
		t.Errorf("after the scale: replicas %d, generation %d, observed %d", *sts.Spec.Replicas, sts.Generation, sts.Status.ObservedGeneration)
	}
}

// TestNodeControllerTaints: the node controller taints an unreachable node
// right after its Ready condition goes Unknown, with no change of its own;
// the node is served with the taints from that instant on.
func TestNodeControllerTaints(t *testing.T) {
	p := play(t, "../scenarios/cluster/node-partition-bare-pod.yaml", Options{At: 3*time.Minute + 46*time.Second})
	p.freeze(t)
	var n corev1.Node
	call(t, "GET", p.http.URL+"/api/v1/nodes/node-a", "", nil, &n)
	var got []string
	for _, taint := range n.Spec.Taints {
		got = append(got, taint.Key+":"+string(taint.Effect))
	}
	if want := "node.kubernetes.io/unreachable:NoSchedule,node.kubernetes.io/unreachable:NoExecute"; strings.Join(got, ",") != want {
		t.Errorf("node-a's taints at 3m46s: %v, want %s", got, want)
	}
}

// TestPriorityClassesAndNomination: the scenario's PriorityClasses and the
// system's are served; a preempting pod shows its priority and, while it
// waits for its victims, the node it is nominated to.
func TestPriorityClassesAndNomination(t *testing.T) {
	p := play(t, "../scenarios/scheduling/preemption.yaml", Options{At: 65 * time.Second})
	p.freeze(t)
	u := p.http.URL
	var l struct {
		Items []struct {
			Metadata         metav1.ObjectMeta
			Value            int32
			PreemptionPolicy string
			Description      string
		}
	}
	call(t, "GET", u+"/apis/scheduling.k8s.io/v1/priorityclasses", "", nil, &l)
	var got []string
	for _, c := range l.Items {
		got = append(got, fmt.Sprintf("%s=%d/%s", c.Metadata.Name, c.Value, c.PreemptionPolicy))
	}
	slices.Sort(got)
	if want := "batch-low=100/PreemptLowerPriority critical-no-preempt=100000/Never critical=100000/PreemptLowerPriority " +
		"system-cluster-critical=2000000000/PreemptLowerPriority system-node-critical=2000001000/PreemptLowerPriority"; strings.Join(got, " ") != want {
		t.Errorf("priorityclasses: %s", strings.Join(got, " "))
	}
	var pod corev1.Pod
	call(t, "GET", u+"/api/v1/namespaces/default/pods/urgent-0", "", nil, &pod)
	if pod.Spec.PriorityClassName != "critical" || pod.Spec.Priority == nil || *pod.Spec.Priority != 100000 ||
		pod.Status.NominatedNodeName != "node-b" {
		t.Errorf("urgent-0: class %q priority %v nominated %q", pod.Spec.PriorityClassName, pod.Spec.Priority, pod.Status.NominatedNodeName)
	}
	var nominated metaList
	call(t, "GET", u+"/api/v1/pods?fieldSelector=status.nominatedNodeName%3Dnode-b", "", nil, &nominated)
	if k := nominated.keys(); len(k) != 1 || k[0] != "default/urgent-0" {
		t.Errorf("pods nominated to node-b: %v", k)
	}
	out := kubectl(t, p, "get", "pods", "urgent-0", "-o", "wide", "--no-headers")
	if f := strings.Fields(out); len(f) < 8 || f[7] != "node-b" {
		t.Errorf("kubectl get pods -o wide: NOMINATED NODE is not node-b: %s", out)
	}
	out = kubectl(t, p, "get", "pc", "critical-no-preempt", "--no-headers")
	if f := strings.Fields(out); len(f) != 5 || f[1] != "100000" || f[2] != "false" || f[4] != "Never" {
		t.Errorf("kubectl get pc: %s", out)
	}
}

// TestNodeLeasesAndHeartbeats: each node has a Lease in kube-node-lease
// that its kubelet renews every 10s until it is cut off; the Ready
// condition's lastHeartbeatTime is the kubelet's last status post (every
// 5 minutes, and at changes), kept when the node controller marks it
// Unknown.
func TestNodeLeasesAndHeartbeats(t *testing.T) {
	p := play(t, "../scenarios/cluster/node-partition-bare-pod.yaml", Options{At: 5 * time.Minute}) // node-a cut off at 3m
	p.freeze(t)
	u := p.http.URL
	renewed := func(node string) time.Time {
		var l coordinationv1.Lease
		if code := call(t, "GET", u+"/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/"+node, "", nil, &l); code != 200 ||
			*l.Spec.HolderIdentity != node || *l.Spec.LeaseDurationSeconds != 40 || len(l.OwnerReferences) != 1 {
			t.Fatalf("lease %s: %d %+v", node, code, l)
		}
		return l.Spec.RenewTime.Time
	}
	a, b := renewed("node-a"), renewed("node-b")
	if d := b.Sub(a); d != 130*time.Second {
		t.Errorf("node-b renewed %s after node-a, want 130s (node-a's last beat at 2m50s, node-b's at 5m)", d)
	}
	heartbeat := func(node string) (time.Time, string) {
		var n corev1.Node
		call(t, "GET", u+"/api/v1/nodes/"+node, "", nil, &n)
		for _, c := range n.Status.Conditions {
			if c.Type == corev1.NodeReady {
				return c.LastHeartbeatTime.Time, string(c.Status)
			}
		}
		return time.Time{}, ""
	}
	hbA, statusA := heartbeat("node-a")
	hbB, statusB := heartbeat("node-b")
	if statusA != "Unknown" || statusB != "True" || !hbB.Equal(b) || b.Sub(hbA) != 5*time.Minute {
		t.Errorf("Ready: node-a %s heard %s, node-b %s heard %s (lease renewed %s)", statusA, hbA, statusB, hbB, b)
	}

	// At 7m12s node-b last posted its status at 5m and renewed at 7m10s.
	later := play(t, "../scenarios/cluster/node-partition-bare-pod.yaml", Options{At: 7*time.Minute + 12*time.Second})
	later.freeze(t)
	u = later.http.URL
	b = renewed("node-b")
	if hb, _ := heartbeat("node-b"); b.Sub(hb) != 2*time.Minute+10*time.Second {
		t.Errorf("at 7m12s node-b heard %s, renewed %s", hb, b)
	}
	out := kubectl(t, p, "describe", "node", "node-a")
	if strings.Contains(out, "Failed to get lease") || !strings.Contains(out, "HolderIdentity:  node-a") {
		t.Errorf("kubectl describe node:\n%s", out)
	}
}

// TestDeletedNode: a node the deleteNode fault deletes leaves the API with
// its Lease, and a watch sees it go.
func TestDeletedNode(t *testing.T) {
	p := play(t, "../scenarios/cluster/partition-delete-node.yaml", Options{At: 10 * time.Minute}) // node-a deleted at 8m
	p.freeze(t)
	u := p.http.URL
	var nodes, leases metaList
	call(t, "GET", u+"/api/v1/nodes", "", nil, &nodes)
	call(t, "GET", u+"/apis/coordination.k8s.io/v1/leases", "", nil, &leases)
	if n, l := strings.Join(nodes.keys(), ","), strings.Join(leases.keys(), ","); n != "/node-b" || l != "kube-node-lease/node-b" {
		t.Errorf("nodes %s, leases %s", n, l)
	}
	for _, path := range []string{"/api/v1/nodes", "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases"} {
		if got := watchEvents(t, u+path+"?watch=1&resourceVersion=1", "DELETED node-a"); got[len(got)-1] != "DELETED node-a" {
			t.Errorf("the watch of %s saw %v", path, got)
		}
	}
}

// TestOneVersionPerObjectPerChange: an object the model touches twice at
// one version (a kubelet going silent and the node controller's
// condition; a pod's change and its ReplicaSet's status) has one version
// there, so a watch never sees two events of it with one
// resourceVersion.
func TestOneVersionPerObjectPerChange(t *testing.T) {
	for _, c := range []struct {
		file string
		at   time.Duration
	}{{"../scenarios/cluster/partition-heals-in-time.yaml", 6 * time.Minute}, {"../scenarios/rollouts/rolling-update.yaml", 3 * time.Minute}} {
		p := play(t, c.file, Options{At: c.at})
		p.freeze(t)
		for path, col := range map[string]collection{"/api/v1/nodes": colNodes, "/api/v1/pods": colPods,
			"/apis/apps/v1/replicasets": colReplicaSets, "/apis/apps/v1/deployments": colDeployments,
			"/apis/coordination.k8s.io/v1/leases": colLeases} {
			rv := p.srv.store.newest(col)
			if rv == 0 {
				continue
			}
			seen := map[string]bool{}
			readWatch(t, p.http.URL+path+"?watch=1&resourceVersion=1", func(_ string, m *metav1.ObjectMeta) bool {
				k := m.Name + "@" + m.ResourceVersion
				if seen[k] {
					t.Errorf("%s %s: two events of %s", c.file, path, k)
				}
				seen[k] = true
				return m.ResourceVersion == fmt.Sprint(rv) // the last version: the watch has replayed its history
			})
		}
	}
}
