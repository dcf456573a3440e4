package serve

import (
	"bufio"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"

	"github.com/podsim/podsim/model"
)

const hpaFile = "../scenarios/hpa/load-step.yaml"

// TestHPAServed: at 1m30s of the load step the autoscaler has scaled web
// from 2 to 4 and asks for 7 (the scenario's own expectations). The API
// shows its status in autoscaling/v2 and v1, kubectl get hpa its TARGETS
// and REPLICAS as kubectl's printer computes them, kubectl describe hpa
// its metric, its conditions and the events on the HPA object.
func TestHPAServed(t *testing.T) {
	p := play(t, hpaFile, Options{At: 90 * time.Second})
	p.freeze(t)
	st := p.srv.world.Autoscaler("web").Status // the world is still now
	util := st.CurrentMetrics[0].Utilization
	if !st.CurrentMetrics[0].Valid || util <= 50 || st.CurrentReplicas != 4 || st.DesiredReplicas != 7 {
		t.Fatalf("the model's status %+v", st)
	}
	u := p.http.URL
	var v2 autoscalingv2.HorizontalPodAutoscaler
	if code := call(t, "GET", u+"/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/web", "", nil, &v2); code != 200 {
		t.Fatalf("v2: %d", code)
	}
	s := v2.Status
	if s.CurrentReplicas != 4 || s.DesiredReplicas != 7 || len(s.CurrentMetrics) != 1 || s.CurrentMetrics[0].Resource == nil ||
		*s.CurrentMetrics[0].Resource.Current.AverageUtilization != util || s.LastScaleTime == nil || len(s.Conditions) != 3 {
		t.Errorf("v2 status %+v", s)
	}
	if sp := v2.Spec; sp.ScaleTargetRef.Kind != "Deployment" || *sp.MinReplicas != 2 || sp.MaxReplicas != 10 ||
		*sp.Metrics[0].Resource.Target.AverageUtilization != 50 {
		t.Errorf("v2 spec %+v", sp)
	}
	var v1 autoscalingv1.HorizontalPodAutoscaler
	call(t, "GET", u+"/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/web", "", nil, &v1)
	if *v1.Spec.TargetCPUUtilizationPercentage != 50 || *v1.Status.CurrentCPUUtilizationPercentage != util || v1.Status.DesiredReplicas != 7 {
		t.Errorf("v1 %+v", v1)
	}

	out := kubectl(t, p, "get", "hpa", "--no-headers")
	want := fmt.Sprintf("web Deployment/web cpu: %d%%/50%% 2 10 4 90s", util)
	if strings.Join(strings.Fields(out), " ") != want {
		t.Errorf("kubectl get hpa: %q, want %q", out, want)
	}
	if out := kubectl(t, p, "api-versions"); !strings.Contains(out, "autoscaling/v1\n") || !strings.Contains(out, "autoscaling/v2\n") {
		t.Errorf("kubectl api-versions: %s", out)
	}
	out = kubectl(t, p, "describe", "hpa", "web")
	for _, s := range []string{
		fmt.Sprintf("resource cpu on pods  (as a percentage of request):  %d%% (", util),
		"Deployment pods:                                       4 current / 7 desired",
		"ScalingActive   True    ValidMetricFound",
		"ScalingLimited  False   DesiredWithinRange",
		"Warning  FailedGetResourceMetric",
		"horizontal-pod-autoscaler  New size: 4; reason: cpu resource utilization (percentage of request) above target",
		"horizontal-pod-autoscaler  New size: 7; reason: cpu resource utilization (percentage of request) above target",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("kubectl describe hpa web lacks %q:\n%s", s, out)
		}
	}
}

// TestHPABeforeItsMetrics: before a sync could read the metric, TARGETS
// shows <unknown> and currentMetrics holds the empty entry the controller
// writes for it.
func TestHPABeforeItsMetrics(t *testing.T) {
	p := play(t, hpaFile, Options{At: 20 * time.Second})
	p.freeze(t)
	out := kubectl(t, p, "get", "hpa", "--no-headers")
	if f := strings.Join(strings.Fields(out), " "); f != "web Deployment/web cpu: <unknown>/50% 2 10 2 20s" {
		t.Errorf("kubectl get hpa: %q", out)
	}
	var v2 autoscalingv2.HorizontalPodAutoscaler
	call(t, "GET", p.http.URL+"/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/web", "", nil, &v2)
	if m := v2.Status.CurrentMetrics; len(m) != 1 || m[0].Type != "" {
		t.Errorf("currentMetrics %+v", m)
	}
	if c, ok := cond(v2.Status.Conditions, "ScalingActive"); !ok || c.Reason != "FailedGetResourceMetric" {
		t.Errorf("conditions %+v", v2.Status.Conditions)
	}
}

func cond(cs []autoscalingv2.HorizontalPodAutoscalerCondition, typ string) (autoscalingv2.HorizontalPodAutoscalerCondition, bool) {
	for _, c := range cs {
		if string(c.Type) == typ {
			return c, true
		}
	}
	return autoscalingv2.HorizontalPodAutoscalerCondition{}, false
}

// hpaRows is an object sink that keeps, at each status the autoscaler
// announces after from, its TARGETS and REPLICAS cells.
type hpaRows struct {
	from time.Duration
	rows []string
}

func (r *hpaRows) Change(*model.Change) {}

func (r *hpaRows) Object(o *model.ObjectChange) {
	if o.Kind == model.ObjectAutoscaler && o.Op == model.ObjectUpdated && o.T > r.from {
		a := o.Autoscaler
		r.rows = append(r.rows, fmt.Sprintf("%s %d", hpaTargets(&a.Spec, a.Status.CurrentMetrics), a.Status.CurrentReplicas))
	}
}

// TestKubectlGetHPAWatch runs `kubectl get hpa -w` against the load step
// played on a mock clock: the listed row is the status of the
// controller's first sync, at the autoscaler's creation (no metrics yet,
// 2 replicas); then kubectl prints a row per status the controller
// writes, TARGETS and REPLICAS as the model had them, through the
// scale-up to 7 and the scale-down to 3.
func TestKubectlGetHPAWatch(t *testing.T) {
	bin, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("kubectl is not installed (make kubectl installs Debian's kubernetes-client)")
	}
	p := play(t, hpaFile, Options{Speed: 60})
	dir := t.TempDir()
	cfg := filepath.Join(dir, "kubeconfig")
	if err := WriteKubeconfig(cfg, strings.TrimPrefix(p.http.URL, "http://")); err != nil {
		t.Fatal(err)
	}
	w := p.sc.NewWorld()
	want := &hpaRows{from: time.Second} // kubectl lists at 1s, then watches
	w.Subscribe(want)
	p.sc.Populate(w)
	w.Run(p.sc.Duration)

	// The autoscaler is served from the run's first change on; kubectl
	// lists it after its first sync.
	p.start()
	p.advance(time.Second)
	cmd := exec.Command(bin, "--kubeconfig", cfg, "--cache-dir", filepath.Join(dir, "cache"), "get", "hpa", "-w")
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
	next := func() []string {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("kubectl ended")
			}
			return strings.Fields(l)
		case <-time.After(20 * time.Second):
			t.Fatalf("kubectl printed nothing more; the model's rows: %q", want.rows)
		}
		return nil
	}
	if h := strings.Join(next(), " "); h != "NAME REFERENCE TARGETS MINPODS MAXPODS REPLICAS AGE" {
		t.Fatalf("header %q", h)
	}
	// TARGETS is "cpu: 85%/50%", two fields; REPLICAS the sixth cell.
	cells := func(f []string) string { return strings.Join(f[2:4], " ") + " " + f[6] }
	if got := cells(next()); got != "cpu: <unknown>/50% 2" {
		t.Errorf("the listed row %q", got)
	}
	p.advance(p.sc.Duration)
	var seen []string
	for i, wantRow := range want.rows {
		got := cells(next())
		seen = append(seen, got)
		if got != wantRow {
			t.Fatalf("row %d of the watch: %q, the model's: %q", i, got, wantRow)
		}
	}
	all := strings.Join(seen, "\n")
	for _, r := range []string{"/50% 4", "/50% 7", "/50% 3"} {
		if !strings.Contains(all, r) {
			t.Errorf("the watch never showed %q:\n%s", r, all)
		}
	}
}

// TestHPATargets: TARGETS as formatHPAMetrics writes it for each kind of
// metric podsim provides, a metric not computed, and more than two.
func TestHPATargets(t *testing.T) {
	cpu := model.MetricSpec{Source: model.MetricResource, Resource: "cpu", Target: model.TargetUtilization, Utilization: 50}
	mem := model.MetricSpec{Source: model.MetricResource, Resource: "memory", Target: model.TargetAverageValue, MilliValue: 256 << 20 * 1000}
	pods := model.MetricSpec{Source: model.MetricPods, Name: "requests_per_second", Target: model.TargetAverageValue, MilliValue: 10000}
	obj := model.MetricSpec{Source: model.MetricObject, Name: "requests_per_second", ObjectKind: "Service", ObjectName: "web", Target: model.TargetValue, MilliValue: 100000}
	objAvg := obj
	objAvg.Target, objAvg.MilliValue = model.TargetAverageValue, 50000
	for _, c := range []struct {
		metrics []model.MetricSpec
		cur     []model.MetricStatus
		want    string
	}{
		{nil, nil, "<none>"},
		{[]model.MetricSpec{cpu}, nil, "cpu: <unknown>/50%"},
		{[]model.MetricSpec{cpu}, []model.MetricStatus{{Valid: true, Utilization: 85, Average: 170}}, "cpu: 85%/50%"},
		{[]model.MetricSpec{mem}, []model.MetricStatus{{Valid: true, Average: 200 << 20 * 1000}}, "memory: 209715200/256Mi"},
		{[]model.MetricSpec{pods, obj}, []model.MetricStatus{{Valid: true, Average: 12500}, {}}, "12500m/10, <unknown>/100"},
		{[]model.MetricSpec{objAvg}, []model.MetricStatus{{Valid: true, Average: 30000, Value: 90000}}, "30/50 (avg)"},
		{[]model.MetricSpec{cpu, pods, obj}, []model.MetricStatus{{Valid: true, Utilization: 40}, {Valid: true, Average: 9000}, {Valid: true, Value: 80000}}, "cpu: 40%/50%, 9/10 + 1 more..."},
	} {
		if got := hpaTargets(&model.AutoscalerSpec{Metrics: c.metrics}, c.cur); got != c.want {
			t.Errorf("%+v: %q, want %q", c.metrics, got, c.want)
		}
	}
}
