package kubelet

import (
	"testing"
	"time"

	"github.com/podsim/podsim/model"
)

// The kubelet's admission rejects a pod bound by nodeName to a node it does
// not fit, with the first resource short (pods, then cpu, then memory),
// and admits the pods that fit in the order they come.
func TestAdmissionRejectsPinnedPodsThatDoNotFit(t *testing.T) {
	pinned := func(cpu, mem int64) *model.PodSpec {
		return &model.PodSpec{NodeName: "n", RestartPolicy: model.RestartAlways, TerminationGracePeriod: 30 * time.Second,
			Containers: []model.ContainerSpec{{Name: "app", Image: "img", PullPolicy: model.PullIfNotPresent,
				Requests: model.Resources{MilliCPU: cpu, Memory: mem}}}}
	}
	for _, tc := range []struct {
		name     string
		capacity model.Resources
		pods     []*model.PodSpec
		reason   string // of the last pod; "" admitted
		msg      string
	}{
		{"cpu 0", model.Resources{MilliCPU: 0, Memory: 8 << 30, Pods: 110}, []*model.PodSpec{pinned(500, 64<<20)},
			model.ReasonOutOfCPU, "Node didn't have enough resource: cpu, requested: 500, used: 0, capacity: 0"},
		{"the second does not fit", model.Resources{MilliCPU: 1000, Memory: 8 << 30, Pods: 110}, []*model.PodSpec{pinned(600, 64<<20), pinned(600, 64<<20)},
			model.ReasonOutOfCPU, "Node didn't have enough resource: cpu, requested: 600, used: 600, capacity: 1000"},
		{"memory", model.Resources{MilliCPU: 4000, Memory: 100 << 20, Pods: 110}, []*model.PodSpec{pinned(100, 64<<20), pinned(100, 64<<20)},
			model.ReasonOutOfMemory, "Node didn't have enough resource: memory, requested: 67108864, used: 67108864, capacity: 104857600"},
		{"pods before cpu", model.Resources{MilliCPU: 100, Memory: 8 << 30, Pods: 1}, []*model.PodSpec{pinned(100, 0), pinned(100, 0)},
			model.ReasonOutOfPods, "Node didn't have enough resource: pods, requested: 1, used: 1, capacity: 1"},
		{"a request of 0 fits a full node", model.Resources{MilliCPU: 100, Memory: 8 << 30, Pods: 110}, []*model.PodSpec{pinned(100, 0), pinned(0, 0)},
			"", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(1, model.DefaultSettings())
			w.AddNode(model.NodeSpec{Name: "n", Capacity: tc.capacity})
			var pods []*model.Pod
			for i, s := range tc.pods {
				pods = append(pods, w.AddPod(string(rune('a'+i)), s, model.PodOptions{}))
			}
			w.Run(time.Minute)
			for _, p := range pods[:len(pods)-1] {
				if p.Phase() != model.Running {
					t.Errorf("%s: %s, want Running (admitted first)", p.Name, p.Phase())
				}
			}
			p := pods[len(pods)-1]
			st := p.Status()
			if tc.reason == "" {
				if p.Phase() != model.Running {
					t.Errorf("%s: %s %s, want Running", p.Name, p.Phase(), st.Reason)
				}
				return
			}
			if p.Phase() != model.Failed || st.Reason != tc.reason || st.Message != "Pod was rejected: "+tc.msg {
				t.Errorf("%s: %s %q %q, want Failed %q %q", p.Name, p.Phase(), st.Reason, st.Message, tc.reason, "Pod was rejected: "+tc.msg)
			}
			evs := w.EventsFor("Pod", p.Key())
			if len(evs) != 1 || evs[0].Type() != model.EventWarning || evs[0].Reason() != tc.reason || evs[0].Message() != tc.msg {
				t.Errorf("events %+v, want one Warning %s: %s", evs, tc.reason, tc.msg)
			}
		})
	}
}
