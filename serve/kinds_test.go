package serve

import (
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

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
	if got := strings.Join(ns.keys(), ","); got != "/canary,/default,/kube-system" {
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
