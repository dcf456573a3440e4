package report

import (
	"strings"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/model/cluster"
)

// A pod with an init container shows Pending until the kubelet reports its
// init container (kubectl's printPod reads status.initContainerStatuses,
// which the API has none of before), then Init:0/1.
func TestGetPodInitBeforeScheduling(t *testing.T) {
	w := cluster.New(1, model.DefaultSettings()) // no node yet
	p := w.AddPod("web", &model.PodSpec{RestartPolicy: model.RestartAlways,
		InitContainers: []model.ContainerSpec{{Name: "init", Image: "img", Behavior: &model.Behavior{}}},
		Containers:     []model.ContainerSpec{{Name: "app", Image: "img"}}}, model.PodOptions{})
	w.Run(10 * time.Second)
	if r := GetPod(p, w.Now()); r.Status != "Pending" || r.Ready != "0/1" {
		t.Errorf("unscheduled: %s %s, want 0/1 Pending", r.Ready, r.Status)
	}
	w.AddNode(model.NodeSpec{Name: "n", Capacity: model.Resources{MilliCPU: 1000, Memory: 1 << 30, Pods: 10}})
	w.Run(20 * time.Second)
	if r := GetPod(p, w.Now()); r.Status != "Init:0/1" {
		t.Errorf("scheduled, its init container running for ever: %s, want Init:0/1", r.Status)
	}
}

// kubectl get pods lists pods as the API server does: by namespace, then
// by name byte by byte (web-10 before web-2), whatever their creation order.
func TestWriteGetPodsSorted(t *testing.T) {
	w := cluster.New(1, model.DefaultSettings())
	spec := &model.PodSpec{RestartPolicy: model.RestartAlways, Containers: []model.ContainerSpec{{Name: "app", Image: "img"}}}
	for _, p := range []struct{ ns, name string }{{"shop", "web-2"}, {"default", "zz"}, {"shop", "web-10"}, {"default", "api"}, {"admin", "x"}} {
		w.AddPod(p.name, spec, model.PodOptions{Namespace: p.ns})
	}
	var b strings.Builder
	if err := WriteGetPods(&b, w); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n")[1:] {
		f := strings.Fields(line)
		got = append(got, f[0]+"/"+f[1])
	}
	if want := "admin/x default/api default/zz shop/web-10 shop/web-2"; strings.Join(got, " ") != want {
		t.Errorf("order %s, want %s\n%s", strings.Join(got, " "), want, b.String())
	}
}
