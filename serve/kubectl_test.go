package serve

import (
	"bufio"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/report"
)

// podRows is a sink that computes, after every pod change, the pod's
// `kubectl get pods` row (NAME READY STATUS and the restart count) from
// the world itself.
type podRows struct {
	w     *model.World
	n     uint64   // changes so far: the store's resourceVersion
	rows  []string // a row per pod change
	after []uint64 // the version of each row
}

func (r *podRows) Change(c *model.Change) {
	r.n++
	switch c.Kind {
	case model.ChangePhase, model.ChangeContainer, model.ChangeCondition, model.ChangePod:
	default:
		return
	}
	v := report.ViewPod(r.w.Pod(c.Pod))
	if c.Kind == model.ChangePhase {
		v.Status.Phase = c.To // sinks hear of a phase before the pod takes it
	}
	row := v.Row(c.T)
	restarts, _, _ := strings.Cut(row.Restarts, " ")
	r.rows = append(r.rows, strings.Join([]string{row.Name, row.Ready, row.Status, restarts}, " "))
	r.after = append(r.after, r.n)
}

// TestKubectlWatchStreams runs `kubectl get pods -w` against a server
// playing the crash-looping demo on a mock clock: after the list, kubectl
// prints one row per change of a pod, each as podsim's own view of the pod
// at that change.
func TestKubectlWatchStreams(t *testing.T) {
	bin, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("kubectl is not installed (make kubectl installs Debian's kubernetes-client)")
	}
	p := play(t, "../scenarios/demo.yaml", Options{Speed: 30})
	dir := t.TempDir()
	cfg := filepath.Join(dir, "kubeconfig")
	if err := WriteKubeconfig(cfg, strings.TrimPrefix(p.http.URL, "http://")); err != nil {
		t.Fatal(err)
	}
	listRV, _ := p.srv.store.state()

	w := p.sc.NewWorld()
	want := &podRows{w: w}
	w.Subscribe(want)
	p.sc.Populate(w)
	w.Run(p.sc.Duration)
	listed := 0
	for _, pod := range w.Pods() {
		if pod.CreatedAt == 0 {
			listed++
		}
	}

	cmd := exec.Command(bin, "--kubeconfig", cfg, "--cache-dir", filepath.Join(dir, "cache"), "get", "pods", "-w")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	next := func() string {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("kubectl ended")
			}
			return l
		case <-time.After(20 * time.Second):
			t.Fatal("kubectl printed nothing more")
		}
		return ""
	}
	if h := strings.Fields(next()); strings.Join(h, " ") != "NAME READY STATUS RESTARTS AGE" {
		t.Fatalf("header %v", h)
	}
	for range listed {
		next()
	}
	p.start()
	p.advance(p.sc.Duration)
	var after []string
	for i, rv := range want.after {
		if rv > listRV {
			after = append(after, want.rows[i])
		}
	}
	if len(after) < 20 {
		t.Fatalf("only %d pod changes after the list", len(after))
	}
	for i, wantRow := range after {
		f := strings.Fields(next())
		if len(f) < 4 || strings.Join(f[:4], " ") != wantRow {
			t.Fatalf("row %d of the watch: %v, podsim's view: %s", i, f, wantRow)
		}
	}
}
