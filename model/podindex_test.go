package model

import (
	"strconv"
	"testing"
)

// The index finds the last pod made of each key, across its growth.
func TestPodIndexLastOfKey(t *testing.T) {
	var x podIndex
	var pods []*Pod
	add := func(name, ns string) *Pod {
		p := &Pod{Name: name, Namespace: ns, id: int32(len(pods))}
		if key := Key(ns, name); key != name {
			p.opts = &podOpts{key: key}
		}
		pods = append(pods, p)
		x.set(pods, p)
		return p
	}
	last := map[string]*Pod{}
	for i := range 1000 {
		name := "p-" + strconv.Itoa(i%700) // 300 keys made twice
		ns := DefaultNamespace
		if i%3 == 0 {
			ns = "prod"
		}
		p := add(name, ns)
		last[p.Key()] = p
		if i == 500 {
			x.reserve(pods, 5000)
		}
	}
	for key, p := range last {
		if got := x.get(pods, key); got != p {
			t.Fatalf("get(%q) = pod %v, want pod %d", key, got, p.id)
		}
	}
	if x.n != len(last) {
		t.Fatalf("%d slots used, want %d", x.n, len(last))
	}
	if got := x.get(pods, "none"); got != nil {
		t.Fatalf("get(none) = %v", got)
	}
}
