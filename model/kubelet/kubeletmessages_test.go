package kubelet

import (
	"testing"

	"github.com/podsim/podsim/model"
)

// The containers of one spec share its messages; the back-off message,
// which names the pod, is each pod's own.
func TestContainerMessagesShared(t *testing.T) {
	w := newWorld(1, model.DefaultSettings())
	spec := &model.PodSpec{Containers: []model.ContainerSpec{{Name: "c", Image: "img"}}}
	p, q := w.AddPod("p", spec, model.PodOptions{}), w.AddPod("q", spec, model.PodOptions{})
	cp, cq := kstate(p).regular[0], kstate(q).regular[0]
	if cp.messages() != cq.messages() {
		t.Fatal("two containers of one spec built their messages twice")
	}
	if m := cp.messages(); m.present != `Container image "img" already present on machine` || m.stopping != "Stopping container c" {
		t.Fatalf("messages %+v", *m)
	}
	if a, b := cp.backOffMessages().backOff, cq.backOffMessages().backOff; a != "Back-off restarting failed container c in pod "+p.String() || b != "Back-off restarting failed container c in pod "+q.String() {
		t.Fatalf("back-off messages %q %q", a, b)
	}
}
