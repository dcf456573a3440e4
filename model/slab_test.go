package model

import "testing"

// A slice taken from a slab and appended past its capacity moves to an
// array of its own: it never writes into its neighbour's.
func TestSlabTakeKeepsNeighbours(t *testing.T) {
	var s slab[int]
	a, b := s.take(2), s.take(2)
	b = append(b, 7, 8)
	a = append(a, 1, 2, 3) // past its capacity
	if b[0] != 7 || b[1] != 8 {
		t.Fatalf("a's append wrote into b: %v", b)
	}
	if a[0] != 1 || a[2] != 3 {
		t.Fatalf("a = %v", a)
	}
}

// new hands out distinct zeroed values, across arrays.
func TestSlabNewDistinct(t *testing.T) {
	var s slab[[2]int]
	seen := map[*[2]int]bool{}
	for range 3 * slabMax {
		v := s.new()
		if seen[v] || *v != [2]int{} {
			t.Fatal("a value handed out twice, or not zeroed")
		}
		seen[v] = true
		v[0] = 1
	}
}

// The containers of one spec share its messages; the back-off message,
// which names the pod, is each pod's own.
func TestContainerMessagesShared(t *testing.T) {
	w := NewCore(1, DefaultSettings())
	w.Register(NewKubelet())
	spec := &PodSpec{Containers: []ContainerSpec{{Name: "c", Image: "img"}}}
	p, q := w.AddPod("p", spec, PodOptions{}), w.AddPod("q", spec, PodOptions{})
	cp, cq := p.kstate().regular[0], q.kstate().regular[0]
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
