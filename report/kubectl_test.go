package report

import (
	"testing"
	"time"

	"github.com/podsim/podsim/model"
)

// A pod with an init container shows Pending until the kubelet reports its
// init container (kubectl's printPod reads status.initContainerStatuses,
// which the API has none of before), then Init:0/1.
func TestGetPodInitBeforeScheduling(t *testing.T) {
	w := model.NewWorld(1, model.DefaultSettings()) // no node yet
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
