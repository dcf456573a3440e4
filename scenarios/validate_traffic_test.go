package scenarios

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every problem of a Service, a rate, a check of a Service or of a use of
// resources is reported at its line and column.
func TestTrafficErrorsHavePositions(t *testing.T) {
	const src = `apiVersion: podsim/v1
kind: Scenario
metadata: {name: t}
spec:
  settings: {kubeProxy: {minSyncPeriod: 1m, syncPeriod: 30s}, metricsServer: {metricResolution: 0s}}
  workloads:
    - {apiVersion: v1, kind: Service, metadata: {name: web}, spec: {selector: {matchLabels: {app: web}}, replicas: 2}}
    - {apiVersion: v1, kind: Service, metadata: {name: api}, spec: {selector: {app: api}}}
    - apiVersion: apps/v1
      kind: Deployment
      metadata: {name: api}
      spec:
        selector: {app: api}
        template:
          metadata: {labels: {app: api}}
          spec:
            containers:
              - name: app
                image: example/api:1
                lifecycle: {preStop: {sleep: {seconds: 45}}}
                readinessProbe: {sleep: {seconds: 1}}
  behavior:
    - {pod: api, container: app, maxRPS: 0, usage: {cpu: -1}}
  traffic:
    - {service: nope, rps: 10}
    - {service: api, rps: {ramp: {from: 0, over: 1m}}}
    - {service: api, rps: {steps: [[1m, 5], [30s, 6]]}}
    - {service: api, rps: {spikes: {base: 1, peak: 2, every: 10s, for: 20s}}}
    - {service: api, rps: -3}
    - {service: api, rps: {csv: missing.csv}}
  expect:
    - {within: [0s, 1m], service: api, servedRequests: 1}
    - {service: api, pod: api-0, endpoints: 1}
    - {workload: api, cpu: 1}
    - {service: nope, endpoints: 1}
`
	_, err := Parse("s.yaml", []byte(src))
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{
		"s.yaml:5:41: minSyncPeriod (1m0s) must not be longer than syncPeriod (30s)",
		"s.yaml:5:97: metricResolution must be positive",
		"s.yaml:7:79: a Service's selector is a mapping of labels such as {app: web}, not matchLabels or matchExpressions",
		"s.yaml:7:106: a Service has no replicas",
		"s.yaml:13:20: unknown field \"app\" in selector (a Deployment's selector has matchLabels and matchExpressions)",
		"s.yaml:20:56: sleep: seconds must be between 0 and terminationGracePeriodSeconds (30)",
		"s.yaml:21:34: sleep is a hook's action: a probe takes exec, httpGet, tcpSocket or grpc",
		"s.yaml:23:42: maxRPS must be at least 1",
		"s.yaml:23:58: invalid quantity \"-1\": must not be negative",
		"s.yaml:25:17: no Service called \"nope\"",
		"s.yaml:26:34: ramp: to is required",
		"s.yaml:27:17: Service \"api\" already has traffic: give it one rate",
		"s.yaml:27:45: steps: 30s is not after the step before it (1m0s)",
		"s.yaml:28:72: spikes: for (20s) must not be longer than every (10s)",
		"s.yaml:29:27: a rate must be between 0 and 1e+09 requests per second, not -3",
		"s.yaml:30:27: csv: ",
		"s.yaml:32:56: requests are counted up to at; servedRequests and failedRequests take no within or always",
		"s.yaml:33:7: an expectation is about exactly one of pod, workload, node, service, event, nodeGroup or pendingPods; found 2",
		"s.yaml:34:28: cpu and memory are checked on a pod (and its container, if given)",
		"s.yaml:35:17: no Service called \"nope\"",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in:\n%s", want, err)
		}
	}
}

// A csv series is read relative to the scenario file; its errors are at
// the csv's own lines.
func TestTrafficCSV(t *testing.T) {
	dir := t.TempDir()
	scenario := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(filepath.Join(dir, "load.csv"), []byte("timestamp,value\n100,5\n160,x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := `apiVersion: podsim/v1
kind: Scenario
metadata: {name: t}
spec:
  workloads: [{apiVersion: v1, kind: Service, metadata: {name: api}, spec: {selector: {app: api}}}]
  traffic: [{service: api, rps: {csv: load.csv}}]
`
	_, err := Parse(scenario, []byte(src))
	if want := filepath.Join(dir, "load.csv") + ":3:1: want a line t,rps"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("got %v, want %s", err, want)
	}
}
