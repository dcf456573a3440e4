package serve

import (
	"net/http"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// metrics.k8s.io answers PodMetrics and NodeMetrics from the last scrape,
// with metrics-server's quantities: the scrape at 3m15s averages the web
// pods' CPU over 3m..3m15s.
func TestMetricsAPI(t *testing.T) {
	p := play(t, "../scenarios/traffic/kubectl-top.yaml", Options{At: 3*time.Minute + 20*time.Second})
	p.freeze(t)
	base := p.http.URL + "/apis/metrics.k8s.io/v1beta1"
	var pods struct {
		Kind  string
		Items []struct {
			Metadata   struct{ Name, Namespace string }
			Timestamp  time.Time
			Window     string
			Containers []struct {
				Name  string
				Usage struct{ CPU, Memory string }
			}
		}
	}
	if code := call(t, "GET", base+"/namespaces/default/pods?labelSelector=app%3Dweb", "", nil, &pods); code != http.StatusOK || pods.Kind != "PodMetricsList" {
		t.Fatalf("pods: %d %s", code, pods.Kind)
	}
	var got []string
	for _, it := range pods.Items {
		for _, c := range it.Containers {
			got = append(got, it.Metadata.Namespace+"/"+it.Metadata.Name+"/"+c.Name+" "+c.Usage.CPU+" "+c.Usage.Memory+" "+it.Window)
		}
	}
	want := "default/web-0/app 130m 89Mi 15s,default/web-1/app 130m 89Mi 15s,default/web-2/app 130m 89Mi 15s"
	if strings.Join(got, ",") != want {
		t.Errorf("pods:\n%s\nwant\n%s", strings.Join(got, ","), want)
	}
	var one struct {
		Kind       string
		Containers []struct{ Usage struct{ CPU, Memory string } }
	}
	if code := call(t, "GET", base+"/namespaces/default/pods/worker-0", "", nil, &one); code != http.StatusOK || one.Kind != "PodMetrics" ||
		len(one.Containers) != 1 || one.Containers[0].Usage.CPU != "200m" || one.Containers[0].Usage.Memory != "180Mi" {
		t.Errorf("worker-0: %d %+v", code, one)
	}
	for _, path := range []string{"/namespaces/default/pods/nope", "/namespaces/other/pods/web-0", "/nodes/nope", "/namespaces/default/nodes", "/services"} {
		if code := call(t, "GET", base+path, "", nil, nil); code != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", path, code)
		}
	}
	var nodes struct {
		Kind  string
		Items []struct {
			Metadata struct{ Name string }
			Usage    struct{ CPU, Memory string }
		}
	}
	call(t, "GET", base+"/nodes", "", nil, &nodes)
	got = got[:0]
	for _, it := range nodes.Items {
		got = append(got, it.Metadata.Name+" "+it.Usage.CPU+" "+it.Usage.Memory)
	}
	// The pods' sums: node-a holds a web pod and worker-0, node-b two web pods.
	if nodes.Kind != "NodeMetricsList" || strings.Join(got, ",") != "node-a 330m 269Mi,node-b 260m 178Mi" {
		t.Errorf("nodes %s: %v", nodes.Kind, got)
	}
	if code := call(t, "POST", base+"/nodes", "", strings.NewReader("{}"), nil); code != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d, want 405", code)
	}

	bin, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("kubectl is not installed (make kubectl installs Debian's kubernetes-client)")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "kubeconfig")
	if err := WriteKubeconfig(cfg, strings.TrimPrefix(p.http.URL, "http://")); err != nil {
		t.Fatal(err)
	}
	for args, want := range map[string]string{
		"top pods": "NAME       CPU(cores)   MEMORY(bytes)   \nweb-0      130m         89Mi            \nweb-1      130m         89Mi            \n" +
			"web-2      130m         89Mi            \nworker-0   200m         180Mi           \n",
		"top nodes": "NAME     CPU(cores)   CPU(%)   MEMORY(bytes)   MEMORY(%)   \nnode-a   330m         16%      269Mi           6%          \n" +
			"node-b   260m         13%      178Mi           4%          \n",
	} {
		out, err := exec.Command(bin, append([]string{"--kubeconfig", cfg, "--cache-dir", filepath.Join(dir, "cache")}, strings.Fields(args)...)...).CombinedOutput()
		if err != nil || string(out) != want {
			t.Errorf("kubectl %s: %v\n%s\nwant\n%s", args, err, out, want)
		}
	}
}
