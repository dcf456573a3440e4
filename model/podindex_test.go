package model

import (
	"strconv"
	"testing"
)

// The index finds the last pod made of each key, across its growth.
func TestPodIndexLastOfKey(t *testing.T) {
	var x podIndex
	var pods []*Pod
	lastOf := map[string]*Pod{}
	add := func(name, ns string) *Pod {
		p := &Pod{Name: name, Namespace: ns, id: int32(len(pods))}
		if key := Key(ns, name); key != name {
			p.opts = &podOpts{key: key}
		}
		pods = append(pods, p)
		if old, want := x.put(pods, p), lastOf[p.Key()]; old != want {
			t.Fatalf("put(%s) replaced %v, want %v", p.Key(), old, want)
		}
		return p
	}
	for i := range 1000 {
		name := "p-" + strconv.Itoa(i%700) // 300 keys made twice
		ns := DefaultNamespace
		if i%3 == 0 {
			ns = "prod"
		}
		p := add(name, ns)
		lastOf[p.Key()] = p
		if i == 500 {
			x.reserve(pods, 5000)
		}
	}
	for key, p := range lastOf {
		if got := x.get(pods, key); got != p {
			t.Fatalf("get(%q) = pod %v, want pod %d", key, got, p.id)
		}
	}
	if x.n != len(lastOf) {
		t.Fatalf("%d slots used, want %d", x.n, len(lastOf))
	}
	if got := x.get(pods, "none"); got != nil {
		t.Fatalf("get(none) = %v", got)
	}
}

// A look-up passes other keys' slots without reading their pods (at
// 150,000 pods each read is a cache miss or two): with no pod readable,
// keys not indexed are still found absent.
func TestPodIndexProbesWithoutReadingPods(t *testing.T) {
	var x podIndex
	var pods []*Pod
	for i := range 3000 {
		p := &Pod{Name: "p-" + strconv.Itoa(i), id: int32(i)}
		pods = append(pods, p)
		x.put(pods, p)
	}
	unreadable := make([]*Pod, len(pods)) // a pod read is a nil dereference
	reads := 0
	for i := range 3000 {
		func() {
			defer func() {
				if recover() != nil {
					reads++
				}
			}()
			if p := x.get(unreadable, "q-"+strconv.Itoa(i)); p != nil {
				t.Fatalf("get(q-%d) = %v", i, p)
			}
		}()
	}
	// A slot of another key whose 32-bit tag matches is read: about one
	// look-up in a million. Without the tags, most of the 3,000 read one.
	if reads > 1 {
		t.Errorf("%d of 3000 look-ups of absent keys read a pod", reads)
	}
}
