package report

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
)

// The QoS class follows ComputePodQOS (pkg/apis/core/v1/helper/qos): init
// containers count, a container without both limits makes the pod at
// most Burstable, requests must equal limits.
func TestQOSClass(t *testing.T) {
	both := model.Resources{MilliCPU: 500, Memory: 128 << 20}
	for _, c := range []struct {
		name        string
		init, conts []model.ContainerSpec
		want        string
	}{
		{"nothing asked", nil, []model.ContainerSpec{{}}, "BestEffort"},
		{"requests only", nil, []model.ContainerSpec{{Requests: model.Resources{MilliCPU: 100}}}, "Burstable"},
		{"limits equal requests", nil, []model.ContainerSpec{{Requests: both, Limits: both}}, "Guaranteed"},
		{"limits above requests", nil, []model.ContainerSpec{{Requests: model.Resources{MilliCPU: 250, Memory: 128 << 20}, Limits: both}}, "Burstable"},
		{"a cpu limit only", nil, []model.ContainerSpec{{Requests: model.Resources{MilliCPU: 500}, Limits: model.Resources{MilliCPU: 500}}}, "Burstable"},
		{"one container of two without limits", nil, []model.ContainerSpec{{Requests: both, Limits: both}, {}}, "Burstable"},
		{"an init container without limits", []model.ContainerSpec{{}}, []model.ContainerSpec{{Requests: both, Limits: both}}, "Burstable"},
		{"an init container with them", []model.ContainerSpec{{Requests: both, Limits: both}}, []model.ContainerSpec{{Requests: both, Limits: both}}, "Guaranteed"},
		{"only an init container asks", []model.ContainerSpec{{Requests: model.Resources{Memory: 1}}}, []model.ContainerSpec{{}}, "Burstable"},
	} {
		if got := QOSClass(&model.PodSpec{InitContainers: c.init, Containers: c.conts}); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

// describe shows a container's limits before its requests, the pod's QoS
// class, and the ReplicaSet that controls a Deployment's pod.
func TestDescribeLimitsQOSAndController(t *testing.T) {
	w := newWorld()
	both := model.Resources{MilliCPU: 500, Memory: 128 << 20}
	w.AddWorkload(model.WorkloadSpec{Kind: model.KindDeployment, Name: "api", Replicas: 1, Strategy: model.RollingUpdate,
		MaxSurge: model.IntOrPercent{Value: 25, Percent: true}, MaxUnavailable: model.IntOrPercent{Value: 25, Percent: true},
		Template: &model.PodSpec{RestartPolicy: model.RestartAlways, TerminationGracePeriod: 30 * time.Second,
			Containers: []model.ContainerSpec{{Name: "app", Image: "example/api:1", Requests: both, Limits: both}}},
		Options: model.PodOptions{Labels: map[string]string{"app": "api"}}})
	w.Run(time.Minute)
	pods := w.Pods()
	if len(pods) != 1 {
		t.Fatalf("%d pods, want 1", len(pods))
	}
	out := describe(t, w, pods[0])
	rs := pods[0].Owner().ReplicaSetOf(pods[0])
	for _, want := range []string{
		"Controlled By:  ReplicaSet/" + rs + "\n",
		"Labels:      app=api\n             pod-template-hash=" + strings.TrimPrefix(rs, "api-") + "\n",
		// kubectl's IPs list ends the tabwriter's block, as in its output.
		"Status:      Running\nIP:          10.244.0.2\nIPs:\n  IP:           10.244.0.2\n",
		"    Limits:\n      cpu:     500m\n      memory:  128Mi\n    Requests:\n      cpu:     500m\n      memory:  128Mi\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !regexp.MustCompile(`\nQoS Class: +Guaranteed\n`).MatchString(out) {
		t.Errorf("no QoS Class Guaranteed:\n%s", out)
	}
	if !strings.HasPrefix(rs, "api-") {
		t.Errorf("ReplicaSet %q, want api-<hash>", rs)
	}
}
