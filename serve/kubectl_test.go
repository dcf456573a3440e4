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

// TestKubectlDrain runs `kubectl drain node-b --ignore-daemonsets` against
// a server playing the drain scenario on a mock clock, the test moving
// virtual time while kubectl waits. kubectl cordons the node and evicts
// web-1 and web-2 at once: the budget allows one eviction, so the other is
// refused (429) and kubectl tries it again 5 s later on its own (a wall
// clock wait), by when the first replacement is ready; it waits for both
// pods to be gone and says the node is drained. The timeline has the
// cordon, and each eviction's DisruptionTarget and deletion.
func TestKubectlDrain(t *testing.T) {
	bin, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("kubectl is not installed (make kubectl installs Debian's kubernetes-client)")
	}
	p := play(t, drainFile, Options{Speed: 1, AllowWrites: true})
	p.record()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "kubeconfig")
	if err := WriteKubeconfig(cfg, strings.TrimPrefix(p.http.URL, "http://")); err != nil {
		t.Fatal(err)
	}
	p.start()
	p.advance(time.Minute)

	var out syncBuffer
	cmd := exec.Command(bin, "--kubeconfig", cfg, "--cache-dir", filepath.Join(dir, "cache"), "drain", "node-b", "--ignore-daemonsets")
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer cmd.Process.Kill()
	waitLog := func(what string) string {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			for line := range strings.Lines(p.log.String()) {
				if strings.Contains(line, what) {
					return line
				}
			}
		}
		t.Fatalf("podsim serve never logged %q: %s\nkubectl: %s", what, p.log.String(), out.String())
		return ""
	}
	refusal := waitLog("(Eviction API): refused, 429 TooManyRequests")
	first, second := "web-1", "web-2" // kubectl evicts both at once: either may come first
	if strings.Contains(refusal, "evict pod web-1 ") {
		first, second = second, first
	}
	waitLog("at 1m: evict pod " + first + " (Eviction API)\n")
	// The first pod goes (3 s), its replacement is ready 25 s later.
	p.advance(100 * time.Second)
	waitLog("at 1m40s: evict pod " + second + " (Eviction API)\n")
	p.advance(2 * time.Minute)
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("kubectl drain: %v\n%s", err, out.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatalf("kubectl drain did not end:\n%s", out.String())
	}
	for _, line := range []string{
		"node/node-b cordoned",
		"Warning: ignoring DaemonSet-managed Pods: default/logs-1",
		"evicting pod default/web-1",
		"evicting pod default/web-2",
		`error when evicting pods/"` + second + `" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.`,
		"pod/web-1 evicted",
		"pod/web-2 evicted",
		"node/node-b drained",
	} {
		if !strings.Contains(out.String(), line+"\n") {
			t.Errorf("kubectl drain did not print %q:\n%s", line, out.String())
		}
	}
	if !strings.Contains(p.log.String(), "at 1m: kubectl cordon node-b (fault cordon)\n") {
		t.Errorf("the log: %s", p.log.String())
	}

	p.stop()
	for _, want := range []struct {
		pod, what string
		at        time.Duration
	}{{first, "DisruptionTarget", time.Minute}, {second, "DisruptionTarget", 100 * time.Second}, {first, "Deleted", 0}, {second, "Deleted", 0}} {
		if !changed(&p.tl, func(c *model.Change) bool {
			if want.what == "Deleted" {
				return c.Kind == model.ChangePod && c.Pod == want.pod && c.Reason == "Deleted"
			}
			return c.Kind == model.ChangeCondition && c.Pod == want.pod && c.Type == model.DisruptionTarget && c.T == want.at
		}) {
			t.Errorf("the timeline has no %s of %s", want.what, want.pod)
		}
	}
}
