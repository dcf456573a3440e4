package manifests

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/podsim/podsim/scenarios"
)

const shopApp = "../scenarios/manifests/k8s/shop-app.yaml"

// The typical application runs as it is: its Deployment (with its rolling
// update strategy), StatefulSet, PodDisruptionBudget and CronJob become
// workloads, every other kind is one warning, the web pods' anti-affinity is
// converted, and the fields podsim does not simulate (volumeClaimTemplates,
// ttlSecondsAfterFinished) are warnings at their line.
func TestShopAppRunsAsItIs(t *testing.T) {
	s, err := NewReader().Load(shopApp)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, w := range s.Workloads() {
		kinds = append(kinds, w.Kind+" "+w.Metadata.Namespace+"/"+w.Metadata.Name)
	}
	if got, want := strings.Join(kinds, ", "), "Service shop/web, Deployment shop/web, StatefulSet shop/db, HorizontalPodAutoscaler shop/web, PodDisruptionBudget shop/web, CronJob shop/orders-report"; s.File.Metadata.Name != "shop-app" || len(s.Pods()) != 0 || got != want {
		t.Fatalf("scenario %q with %d pods and workloads %s, want shop-app with %s", s.File.Metadata.Name, len(s.Pods()), got, want)
	}
	if b := s.Workloads()[4]; b.Spec.MinAvailable.String() != "2" || b.Spec.Selector.MatchLabels["app"] != "web" {
		t.Errorf("budget %s %+v", b.Kind, b.Spec)
	}
	w := s.Workloads()[1]
	c := &w.Spec.Template.Spec.Containers[0]
	switch {
	case *w.Spec.Replicas != 3:
		t.Errorf("workload %s %s", w.Kind, w.Metadata.Name)
	case c.Resources.Requests["cpu"].MilliValue() != 250 || c.Resources.Requests["memory"].Value() != 256<<20:
		t.Errorf("requests %v", c.Resources.Requests)
	case c.ReadinessProbe == nil || *c.ReadinessProbe.PeriodSeconds != 5 || c.ReadinessProbe.HTTPGet == nil:
		t.Errorf("readiness probe %+v", c.ReadinessProbe)
	case c.LivenessProbe == nil || *c.LivenessProbe.InitialDelaySeconds != 15:
		t.Errorf("liveness probe %+v", c.LivenessProbe)
	case *w.Spec.Template.Spec.TerminationGracePeriodSeconds != 20:
		t.Errorf("grace period")
	case w.Spec.Strategy == nil || w.Spec.Strategy.Type != "RollingUpdate" || w.Spec.Strategy.RollingUpdate == nil ||
		w.Spec.Strategy.RollingUpdate.MaxSurge.String() != "1" || w.Spec.Strategy.RollingUpdate.MaxUnavailable.String() != "0":
		t.Errorf("strategy %+v", w.Spec.Strategy)
	}
	if a := w.Spec.Template.Spec.Affinity; a == nil || a.PodAntiAffinity == nil || len(a.PodAntiAffinity.Preferred) != 1 {
		t.Errorf("affinity %+v", a)
	} else if term := &a.PodAntiAffinity.Preferred[0]; term.Weight != 100 || term.PodAffinityTerm.TopologyKey != "kubernetes.io/hostname" ||
		term.PodAffinityTerm.LabelSelector.MatchLabels["app"] != "web" || s.Where(&term.Weight) != shopApp+":65:23" {
		t.Errorf("anti-affinity term %+v written at %s", term, s.Where(&term.Weight))
	}
	if got := s.Where(&c.Image); got != shopApp+":74:18" {
		t.Errorf("the image was written at %s, want %s:74:18", got, shopApp)
	}
	if db := s.Workloads()[2]; *db.Spec.Replicas != 1 || db.Spec.Template.Spec.Containers[0].Image != "postgres:16.4" {
		t.Errorf("StatefulSet %+v", db.Spec)
	}
	cj := s.Workloads()[5]
	jt := cj.Spec.JobTemplate
	switch {
	case cj.Spec.Schedule != "*/5 * * * *" || *cj.Spec.TimeZone != "Etc/UTC" || cj.Spec.ConcurrencyPolicy != "Forbid":
		t.Errorf("CronJob %+v", cj.Spec)
	case jt == nil || *jt.Spec.BackoffLimit != 2 || *jt.Spec.ActiveDeadlineSeconds != 240 || jt.Spec.Template.Spec.RestartPolicy != "OnFailure":
		t.Errorf("job template %+v", jt)
	}
	if got := s.Where(&jt.Spec.Template.Spec.Containers[0].Image); got != shopApp+":188:22" {
		t.Errorf("the report's image was written at %s, want %s:188:22", got, shopApp)
	}
	want := []string{
		":12:1: warning: v1 ConfigMap \"shop/web-config\" is ignored: podsim simulates no volumes and no environment",
		":21:1: warning: v1 Secret \"shop/web-secret\" is ignored",
		":115:3: warning: volumeClaimTemplates is not simulated: a StatefulSet's pods get no PersistentVolumeClaims",
		":146:1: warning: networking.k8s.io/v1 Ingress \"shop/web\" is ignored",
		":180:7: warning: ttlSecondsAfterFinished is not simulated: a finished Job and its pods are never cleaned up",
	}
	if len(s.Warnings) != len(want) {
		t.Fatalf("%d warnings, want %d:\n%s", len(s.Warnings), len(want), s.Warnings)
	}
	for i, w := range s.Warnings {
		if !strings.HasPrefix(w.Error(), shopApp+want[i]) {
			t.Errorf("warning %d: %s\nwant it to start %s%s", i, w.Error(), shopApp, want[i])
		}
	}
}

// Problems in a manifest are errors at their line and column, all of them.
func TestManifestErrors(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"unknown field", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n    - {name: c, image: i, imagePullPolcy: Always}\n",
			`x.yaml:6:27: unknown field "imagePullPolcy" in v1.Container; did you mean "imagePullPolicy"?`},
		{"a number for a string", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n    - name: c\n      image: i\n      env: [{name: PORT, value: 8080}]\n",
			`x.yaml:8:33: expected a string, found the integer 8080 (quote it: "8080")`},
		{"a string for a number", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  replicas: \"3\"\n",
			`x.yaml:5:13: cannot use the string "3" as an integer of 32 bits`},
		{"a bad quantity", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n    - name: c\n      image: i\n      resources: {requests: {cpu: lots}}\n",
			`x.yaml:8:35: "lots": quantities must match`},
		{"an unknown field of an ignored kind", "apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n  selectr: {app: web}\n",
			`x.yaml:5:3: unknown field "selectr" in v1.ServiceSpec; did you mean "selector"?`},
		{"an API no longer served", "apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata: {name: d}\n",
			"x.yaml:1:13: extensions/v1beta1 Deployment is not served by Kubernetes v1.30 and later: use apiVersion apps/v1"},
		{"a field removed in 1.36", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  workloadRef: {name: w, podGroup: g}\n  containers: [{name: c, image: i}]\n",
			`x.yaml:5:3: unknown field "workloadRef" in v1.PodSpec: an alpha field of Kubernetes 1.35 only, replaced in 1.36 by schedulingGroup`},
		{"an unknown field under a 1.36 field", "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  schedulingGroup: {podGroup: g}\n  containers: [{name: c, image: i}]\n",
			`x.yaml:5:21: unknown field "podGroup" in v1.PodSchedulingGroup`},
		{"no kind", "apiVersion: v1\nmetadata: {name: p}\n", "x.yaml:1:1: kind is required"},
		{"no apiVersion", "kind: Pod\nmetadata: {name: p}\n", "x.yaml:1:1: apiVersion is required"},
		{"not a mapping", "apiVersion: v1\nkind: Pod\n---\n- a\n", "x.yaml:4:1: want a Kubernetes object"},
		{"a repeated field", "apiVersion: v1\nkind: Pod\nmetadata: {name: p, name: q}\n", `x.yaml:3:21: duplicate field "name" (already set at 3:12)`},
		{"a podsim file", "apiVersion: v1\nkind: Pod\n---\napiVersion: podsim/v1\nkind: Scenario\n", "x.yaml:4:1: a podsim/v1 Scenario among Kubernetes manifests"},
		{"a validation error", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: c, image: i}]\n",
			`x.yaml:7:22: a Deployment's pods must have restartPolicy Always`},
		{"a syntax error", "apiVersion: v1\nkind: Pod\nmetadata: {name: [\n", "x.yaml:3:1: invalid YAML"},
		{"rollingUpdate with Recreate", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  strategy:\n    type: Recreate\n    rollingUpdate: {maxSurge: 1}\n  template:\n    spec:\n      containers: [{name: c, image: i}]\n",
			"x.yaml:7:5: rollingUpdate may not be given when the strategy type is Recreate"},
		{"a deadline within minReadySeconds", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  minReadySeconds: 30\n  progressDeadlineSeconds: 30\n  template:\n    spec:\n      containers: [{name: c, image: i}]\n",
			"x.yaml:6:28: progressDeadlineSeconds (30, the default if not given) must be greater than minReadySeconds (30)"},
	} {
		_, err := NewReader().Parse("x.yaml", []byte(tc.src))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: got %v\nwant an error starting %q", tc.name, err, tc.want)
		}
	}
}

func write(t *testing.T, dir, name, src string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

const deployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: example/web:1}]
`

// A Deployment's rollout fields are simulated: strategy, minReadySeconds
// and progressDeadlineSeconds reach the scenario, with no warning.
func TestDeploymentRolloutFields(t *testing.T) {
	src := strings.Replace(deployment, "  replicas: 2\n", `  replicas: 2
  minReadySeconds: 5
  progressDeadlineSeconds: 120
  strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 50%, maxUnavailable: 0}}
`, 1)
	s, err := NewReader().Parse("x.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	sp := &s.Workloads()[0].Spec
	switch {
	case len(s.Warnings) != 0:
		t.Errorf("warnings: %s", s.Warnings)
	case *sp.MinReadySeconds != 5 || *sp.ProgressDeadlineSeconds != 120:
		t.Errorf("minReadySeconds %d, progressDeadlineSeconds %d", *sp.MinReadySeconds, *sp.ProgressDeadlineSeconds)
	case sp.Strategy.RollingUpdate.MaxSurge.String() != "50%" || sp.Strategy.RollingUpdate.MaxUnavailable.String() != "0":
		t.Errorf("strategy %+v", sp.Strategy.RollingUpdate)
	}
	if got := s.Where(sp.ProgressDeadlineSeconds); got != "x.yaml:7:28" {
		t.Errorf("progressDeadlineSeconds at %s", got)
	}
}

// A folder is read as kubectl apply -f reads it: its .yaml, .yml and .json
// files in name order, not its subfolders; a v1 List's items are objects.
func TestFolderListAndJSON(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "k8s/a.yaml", deployment)
	write(t, dir, "k8s/b.json", `{"apiVersion": "v1", "kind": "List", "items": [
  {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "solo"}, "spec": {"containers": [{"name": "c", "image": "i"}]}},
  {"apiVersion": "batch/v1", "kind": "Job", "metadata": {"name": "migrate"},
   "spec": {"completions": 2, "template": {"spec": {"restartPolicy": "Never", "containers": [{"name": "m", "image": "i"}]}}}}]}`)
	write(t, dir, "k8s/README.md", "not a manifest")
	write(t, dir, "k8s/old/c.yaml", "this: is not read")
	s, err := NewReader().Load(filepath.Join(dir, "k8s"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, w := range s.Workloads() {
		names = append(names, w.Kind+" "+w.Metadata.Name)
	}
	for _, p := range s.Pods() {
		names = append(names, "Pod "+p.Metadata.Name)
	}
	if got := strings.Join(names, ", "); got != "Deployment web, Job migrate, Pod solo" || s.File.Metadata.Name != "k8s" {
		t.Errorf("scenario %s holds %s", s.File.Metadata.Name, got)
	}
	if got := s.Where(&s.Workloads()[1].Spec.Completions); got != filepath.Join(dir, "k8s/b.json")+":4:28" {
		t.Errorf("completions at %s", got)
	}
}

// spec.include reads manifests relative to the scenario file; behaviour,
// faults and expectations name their objects; problems point at the
// manifest's line and column, or at the include entry for a missing file.
func TestInclude(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "k8s/web.yaml", deployment)
	scenario := `apiVersion: podsim/v1
kind: Scenario
metadata: {name: inc}
spec:
  duration: 2m
  include: [k8s/web.yaml]
  behavior:
    - {pod: web, container: web, runs: [{exitAfter: 30s, exitCode: 1}]}
  expect:
    - {at: 31s, pod: web-0, container: web, restartCount: 1}
`
	path := write(t, dir, "s.yaml", scenario)
	s, err := NewReader().Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Workloads()) != 1 || s.Sources()[0] != filepath.Join(dir, "k8s/web.yaml") {
		t.Fatalf("workloads %d, sources %v", len(s.Workloads()), s.Sources())
	}

	write(t, dir, "bad.yaml", strings.Replace(scenario, "k8s/web.yaml", "k8s/nope.yaml", 1))
	_, err = NewReader().Load(filepath.Join(dir, "bad.yaml"))
	if want := filepath.Join(dir, "bad.yaml") + ":6:13: include k8s/nope.yaml: no such file or directory"; err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}

	write(t, dir, "k8s/web.yaml", strings.Replace(deployment, "containers:", "restartPolicy: OnFailure\n      containers:", 1))
	write(t, dir, "ref.yaml", strings.Replace(scenario, "container: web,", "container: api,", 1))
	_, err = NewReader().Load(filepath.Join(dir, "ref.yaml"))
	want := []string{
		filepath.Join(dir, "k8s/web.yaml") + `:10:22: a Deployment's pods must have restartPolicy Always`,
		filepath.Join(dir, "ref.yaml") + `:8:29: pod web has no container "api"`,
	}
	if err == nil || err.Error() != strings.Join(want, "\n") {
		t.Errorf("got %v\nwant %s", err, strings.Join(want, "\n"))
	}
}

// A reader reads each manifest once: the cells of a study share them.
func TestReaderKeepsWhatItRead(t *testing.T) {
	dir := t.TempDir()
	path := write(t, dir, "web.yaml", deployment)
	r := NewReader()
	a, err := r.Include(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if b, err := r.Include(path); err != nil || b != a {
		t.Errorf("read again: %v", err)
	}
}

// A scenario's own pods get the same warnings as a manifest's.
func TestScenarioFieldsWarnToo(t *testing.T) {
	s, err := scenarios.Parse("s.yaml", []byte(`apiVersion: podsim/v1
kind: Scenario
metadata: {name: w}
spec:
  pods:
    - metadata: {name: p}
      spec:
        schedulerName: other
        containers: [{name: c, image: i}]
`))
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Warnings.Error(); !strings.HasPrefix(got, "s.yaml:8:9: warning: schedulerName is not simulated") {
		t.Errorf("warnings: %s", got)
	}
}

// schedulerName: default-scheduler, as every pod of kubectl get -o yaml (and
// of a snapshot) carries it, names the scheduler podsim runs: no warning,
// in a scenario or in a manifest.
func TestDefaultSchedulerNameIsQuiet(t *testing.T) {
	s, err := scenarios.Parse("s.yaml", []byte(`apiVersion: podsim/v1
kind: Scenario
metadata: {name: w}
spec:
  pods:
    - metadata: {name: p}
      spec:
        schedulerName: default-scheduler
        containers: [{name: c, image: i}]
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Warnings) != 0 {
		t.Errorf("warnings: %s", s.Warnings.Error())
	}
	_, warnings := parseOK(t, `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  schedulerName: default-scheduler
  containers: [{name: c, image: i}]
`)
	if warnings != "" {
		t.Errorf("manifest warnings: %s", warnings)
	}
	_, warnings = parseOK(t, `apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  schedulerName: my-scheduler
  containers: [{name: c, image: i}]
`)
	if !strings.Contains(warnings, "x.yaml:5:3: warning: schedulerName is not simulated") {
		t.Errorf("another scheduler: warnings %q", warnings)
	}
}

func TestScenarioName(t *testing.T) {
	for in, want := range map[string]string{"k8s/app.yaml": "app", "My_App.yml": "my-app", "-.yaml": "manifests", "<stdin>": "stdin", "k8s/": "k8s"} {
		if got := ScenarioName(in); got != want {
			t.Errorf("ScenarioName(%q) = %q, want %q", in, got, want)
		}
	}
}
