package manifests

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/podsim/podsim/scenarios"
)

// parseOK reads one manifest file's text and returns its scenario and its
// warnings, one a line.
func parseOK(t *testing.T, src string) (*scenarios.Scenario, string) {
	t.Helper()
	s, err := NewReader().Parse("x.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, w := range s.Warnings {
		lines = append(lines, w.Error())
	}
	return s, strings.Join(lines, "\n")
}

// A StatefulSet is a workload with its replicas and pod management policy
// and its namespace; the fields Kubernetes acts on and podsim does not warn
// at their line, those that change nothing podsim simulates are quiet.
func TestStatefulSetConverted(t *testing.T) {
	s, warns := parseOK(t, `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: data, labels: {app: db}}
spec:
  replicas: 3
  podManagementPolicy: Parallel
  serviceName: db
  revisionHistoryLimit: 4
  persistentVolumeClaimRetentionPolicy: {whenDeleted: Delete, whenScaled: Retain}
  selector: {matchLabels: {app: db}}
  updateStrategy: {type: RollingUpdate, rollingUpdate: {partition: 1}}
  minReadySeconds: 10
  ordinals: {start: 5}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: db, image: example/db:1}]
  volumeClaimTemplates:
    - metadata: {name: data}
      spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
`)
	if len(s.Workloads()) != 1 {
		t.Fatalf("%d workloads", len(s.Workloads()))
	}
	w := s.Workloads()[0]
	switch {
	case w.Kind != "StatefulSet" || w.APIVersion != "apps/v1" || w.Metadata.Name != "db" || w.Metadata.Namespace != "data":
		t.Errorf("workload %s %s %s/%s", w.APIVersion, w.Kind, w.Metadata.Namespace, w.Metadata.Name)
	case *w.Spec.Replicas != 3 || w.Spec.PodManagementPolicy != "Parallel":
		t.Errorf("spec %+v", w.Spec)
	case w.Spec.Template.Metadata.Labels["app"] != "db" || w.Spec.Template.Spec.Containers[0].Image != "example/db:1":
		t.Errorf("template %+v", w.Spec.Template)
	}
	if got := s.Where(&w.Spec.PodManagementPolicy); got != "x.yaml:6:24" {
		t.Errorf("podManagementPolicy at %s", got)
	}
	want := strings.Join([]string{
		"x.yaml:11:3: warning: updateStrategy is not simulated: there are no DaemonSet or StatefulSet updates",
		"x.yaml:13:3: warning: ordinals is not simulated: a StatefulSet's pods are numbered from 0: ordinals.start is not applied",
		"x.yaml:18:3: warning: volumeClaimTemplates is not simulated: a StatefulSet's pods get no PersistentVolumeClaims: a replacement starts as fast as the first pod",
		// minReadySeconds is a Deployment's and ReplicaSet's field: the
		// validator warns of it on a StatefulSet, after the decoder's warnings.
		"x.yaml:12:3: warning: minReadySeconds is not simulated: a StatefulSet's pod counts as available as soon as it is Ready",
	}, "\n")
	if warns != want {
		t.Errorf("warnings:\n%s\nwant:\n%s", warns, want)
	}
}

// A CronJob is a workload with every field of its spec, and its
// jobTemplate a Job's spec; it is in its namespace.
func TestCronJobConverted(t *testing.T) {
	s, warns := parseOK(t, `apiVersion: batch/v1
kind: CronJob
metadata: {name: backup, namespace: data}
spec:
  schedule: "*/15 * * * *"
  timeZone: UTC
  concurrencyPolicy: Replace
  startingDeadlineSeconds: 120
  suspend: true
  successfulJobsHistoryLimit: 5
  failedJobsHistoryLimit: 0
  jobTemplate:
    metadata: {labels: {team: dba}}
    spec:
      completions: 2
      parallelism: 2
      backoffLimit: 1
      activeDeadlineSeconds: 600
      suspend: false
      template:
        metadata: {labels: {app: backup}}
        spec:
          restartPolicy: Never
          containers: [{name: dump, image: example/backup:1}]
`)
	if warns != "" {
		t.Errorf("warnings: %s", warns)
	}
	if len(s.Workloads()) != 1 {
		t.Fatalf("%d workloads", len(s.Workloads()))
	}
	w := s.Workloads()[0]
	sp := &w.Spec
	switch {
	case w.Kind != "CronJob" || w.APIVersion != "batch/v1" || w.Metadata.Namespace != "data":
		t.Errorf("workload %s %s %s/%s", w.APIVersion, w.Kind, w.Metadata.Namespace, w.Metadata.Name)
	case sp.Schedule != "*/15 * * * *" || *sp.TimeZone != "UTC" || sp.ConcurrencyPolicy != "Replace" || *sp.StartingDeadlineSeconds != 120:
		t.Errorf("spec %+v", sp)
	case !*sp.Suspend || *sp.SuccessfulJobsHistoryLimit != 5 || *sp.FailedJobsHistoryLimit != 0:
		t.Errorf("suspend and history limits %+v", sp)
	case sp.Template.Spec.Containers != nil:
		t.Errorf("a CronJob has a template of its own: %+v", sp.Template)
	}
	jt := sp.JobTemplate
	switch {
	case jt == nil:
		t.Fatal("no job template")
	case jt.Metadata.Labels["team"] != "dba":
		t.Errorf("job template metadata %+v", jt.Metadata)
	case *jt.Spec.Completions != 2 || *jt.Spec.Parallelism != 2 || *jt.Spec.BackoffLimit != 1 || *jt.Spec.ActiveDeadlineSeconds != 600 || *jt.Spec.Suspend:
		t.Errorf("job spec %+v", jt.Spec)
	case jt.Spec.Template.Metadata.Labels["app"] != "backup" || jt.Spec.Template.Spec.RestartPolicy != "Never":
		t.Errorf("job's pod template %+v", jt.Spec.Template)
	}
	if got := s.Where(&jt.Spec.Template.Spec.Containers[0].Image); got != "x.yaml:24:44" {
		t.Errorf("the image at %s", got)
	}
}

// suspend: true where podsim does not read it (a Job, a CronJob's job
// template) warns at its key; suspend: false, as kubectl get -o yaml
// writes it, and suspend on a CronJob (simulated) do not.
func TestSuspendWarnings(t *testing.T) {
	const job = "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  suspend: %s\n  template: {spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}\n"
	const cron = "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: c}\nspec:\n  schedule: \"@hourly\"\n  suspend: %s\n  jobTemplate:\n    spec:\n      suspend: %s\n      template: {spec: {restartPolicy: Never, containers: [{name: c, image: i}]}}\n"
	for _, tc := range []struct{ src, want string }{
		{strings.Replace(job, "%s", "true", 1), "x.yaml:5:3: warning: suspend is not simulated: a suspended Job runs all the same"},
		{strings.Replace(job, "%s", "false", 1), ""},
		{strings.Replace(strings.Replace(cron, "%s", "true", 1), "%s", "false", 1), ""},
		{strings.Replace(strings.Replace(cron, "%s", "false", 1), "%s", "true", 1), "x.yaml:9:7: warning: suspend is not simulated: a CronJob's Jobs run all the same, never suspended"},
	} {
		if _, got := parseOK(t, tc.src); got != tc.want {
			t.Errorf("%s\nwarnings %q, want %q", tc.src, got, tc.want)
		}
	}
}

// What the API server or podsim refuses in a StatefulSet or a CronJob is
// an error at the manifest's line and column, as in a scenario.
func TestStatefulSetAndCronJobErrors(t *testing.T) {
	const sts = "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  podManagementPolicy: %s\n  template: {spec: {containers: [{name: c, image: i}]}}\n"
	const cron = "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: backup}\nspec:\n  schedule: %s\n  timeZone: %s\n  jobTemplate:\n    spec:\n      template: {spec: {restartPolicy: %s, containers: [{name: c, image: i}]}}\n"
	cronWith := func(schedule, tz, policy string) string {
		return strings.Replace(strings.Replace(strings.Replace(cron, "%s", schedule, 1), "%s", tz, 1), "%s", policy, 1)
	}
	for _, tc := range []struct{ name, src, want string }{
		{"a pod management policy", strings.Replace(sts, "%s", "Ordered", 1),
			`x.yaml:5:24: podManagementPolicy "Ordered": want OrderedReady or Parallel`},
		{"a StatefulSet's restart policy", strings.Replace(strings.Replace(sts, "%s", "Parallel", 1), "{containers", "{restartPolicy: Never, containers", 1),
			"x.yaml:6:36: a StatefulSet's pods must have restartPolicy Always"},
		{"a time zone other than UTC", cronWith(`"@daily"`, "Europe/Paris", "Never"),
			`x.yaml:6:13: timeZone "Europe/Paris": podsim runs schedules in UTC (UTC or Etc/UTC)`},
		{"a schedule", cronWith(`"61 * * * *"`, "Etc/UTC", "Never"),
			`x.yaml:5:13: schedule "61 * * * *": `},
		{"TZ in a schedule", cronWith(`"TZ=Europe/Paris 0 * * * *"`, "UTC", "Never"),
			"x.yaml:5:13: cannot use TZ or CRON_TZ in schedule, use timeZone field instead"},
		{"a job template's restart policy", cronWith(`"@daily"`, "UTC", "Always"),
			"x.yaml:9:24: a Job's pod template needs restartPolicy OnFailure or Never"},
		{"no job template", "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: backup}\nspec:\n  schedule: \"@daily\"\n",
			"x.yaml:1:1: a CronJob needs spec.jobTemplate"},
		{"a concurrency policy", strings.Replace(cronWith(`"@daily"`, "UTC", "Never"), "  timeZone: UTC\n", "  concurrencyPolicy: Sometimes\n", 1),
			`x.yaml:6:22: concurrencyPolicy "Sometimes": want Allow, Forbid or Replace`},
	} {
		_, err := NewReader().Parse("x.yaml", []byte(tc.src))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: got %v\nwant an error starting %q", tc.name, err, tc.want)
		}
	}
}

// StatefulSets and CronJobs included in a scenario are named by its
// behaviour, faults and expectations, in their namespace.
func TestStatefulSetAndCronJobIncluded(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "k8s/data.yaml", `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db, namespace: data}
spec:
  replicas: 2
  template: {spec: {containers: [{name: db, image: example/db:1}]}}
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: backup, namespace: data}
spec:
  schedule: "* * * * *"
  jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: dump, image: x:1}]}}}}
`)
	path := write(t, dir, "s.yaml", `apiVersion: podsim/v1
kind: Scenario
metadata: {name: inc}
spec:
  duration: 3m
  include: [k8s/]
  behavior:
    - {pod: backup, namespace: data, container: dump, runs: [{exitAfter: 10s, exitCode: 0}]}
  faults:
    - {at: 2m, scale: {workload: db, namespace: data, replicas: 1}}
  expect:
    - {workload: db, namespace: data, pods: 1}
    - {workload: backup, namespace: data, jobs: 2}
    - {pod: backup-2-0, namespace: data, status: Completed}
    - {pod: db-1, namespace: data, container: db, restartCount: 0}
`)
	s, err := NewReader().Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Workloads()) != 2 || s.Workloads()[1].Kind != "CronJob" || s.Workloads()[1].Metadata.Namespace != "data" {
		t.Fatalf("workloads %v", s.Workloads())
	}

	// A name of another namespace is an error that says which one to add.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	bad := write(t, dir, "bad.yaml", strings.Replace(string(data), "{pod: db-1, namespace: data,", "{pod: db-1,", 1))
	_, err = NewReader().Load(bad)
	if want := bad + `:15:13: no pod or workload called "db-1"; there is one in namespace data: add namespace: data`; err == nil || err.Error() != want {
		t.Errorf("a pod of namespace data named without it: %v\nwant %s", err, want)
	}
}

// A PriorityClass is simulated, and a pod template's scheduling fields are
// converted: its priority class (resolved by the Priority admission when
// the pod is created), node and pod affinity, and spread constraints;
// matchLabelKeys on a pod affinity term warns.
func TestSchedulingConverted(t *testing.T) {
	s, warns := parseOK(t, `apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
preemptionPolicy: Never
description: the shop
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      priorityClassName: high
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms: [{matchExpressions: [{key: zone, operator: In, values: [a, b]}]}]
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            - labelSelector: {matchExpressions: [{key: app, operator: In, values: [web]}]}
              topologyKey: kubernetes.io/hostname
              matchLabelKeys: [pod-template-hash]
      topologySpreadConstraints:
        - {maxSkew: 2, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: web}}, nodeTaintsPolicy: Honor, minDomains: 2}
      containers: [{name: web, image: example/web:1}]
`)
	if len(s.Workloads()) != 2 {
		t.Fatalf("%d workloads", len(s.Workloads()))
	}
	pc, web := s.Workloads()[0], s.Workloads()[1]
	if pc.Kind != "PriorityClass" || *pc.Value != 1000 || pc.PreemptionPolicy != "Never" || pc.Description != "the shop" {
		t.Errorf("PriorityClass %+v", pc)
	}
	ps := &web.Spec.Template.Spec
	a := ps.Affinity
	switch {
	case ps.PriorityClassName != "high":
		t.Errorf("priorityClassName %q", ps.PriorityClassName)
	case a == nil || a.NodeAffinity == nil || a.NodeAffinity.Required.NodeSelectorTerms[0].MatchExpressions[0].Values[1] != "b":
		t.Errorf("node affinity %+v", a)
	case a.PodAntiAffinity == nil || a.PodAntiAffinity.Required[0].LabelSelector.MatchExpressions[0].Operator != "In":
		t.Errorf("pod anti-affinity %+v", a.PodAntiAffinity)
	}
	c := &ps.TopologySpreadConstraints[0]
	if *c.MaxSkew != 2 || c.WhenUnsatisfiable != "DoNotSchedule" || c.NodeTaintsPolicy != "Honor" || *c.MinDomains != 2 || c.LabelSelector.MatchLabels["app"] != "web" {
		t.Errorf("spread constraint %+v", c)
	}
	if got := s.Where(&c.NodeTaintsPolicy); got != "x.yaml:28:137" {
		t.Errorf("nodeTaintsPolicy at %s", got)
	}
	if want := "x.yaml:26:15: warning: matchLabelKeys is not simulated: the term selects pods by its labelSelector alone: the pod's values of these keys are not added to it"; warns != want {
		t.Errorf("warnings:\n%s\nwant:\n%s", warns, want)
	}
	w := s.Build()
	w.Run(time.Second)
	if ps := w.Pods(); len(ps) != 1 || ps[0].Namespace != "shop" || ps[0].Priority() != 1000 {
		t.Errorf("pods %v", ps)
	}
}
