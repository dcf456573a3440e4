package model

import "hash/maphash"

// podIndex finds a world's pods by key (Pod.Key), the last pod of each key
// made: an open-addressed table of pod numbers (Pod.id plus one, 0 for an
// empty slot) with linear probing, 4 bytes a slot where a map of strings to
// pods takes about 45 a pod. The table never holds more than three
// quarters of its slots, and doubles to stay so. The seed only spreads
// the keys: no result depends on it.
type podIndex struct {
	seed  maphash.Seed
	slots []int32 // a power of two of them, or none
	n     int     // the slots used
}

// get returns the pod of the key among pods (World.pods), or nil.
func (x *podIndex) get(pods []*Pod, key string) *Pod {
	if len(x.slots) == 0 {
		return nil
	}
	mask := len(x.slots) - 1
	for i := int(maphash.String(x.seed, key)) & mask; ; i = (i + 1) & mask {
		id := x.slots[i]
		if id == 0 {
			return nil
		}
		if p := pods[id-1]; p.Key() == key {
			return p
		}
	}
}

// set makes p the pod of its key, in place of any other; pods holds it.
func (x *podIndex) set(pods []*Pod, p *Pod) {
	if 4*(x.n+1) > 3*len(x.slots) {
		x.reserve(pods, 2*(x.n+1))
	}
	key := p.Key()
	mask := len(x.slots) - 1
	for i := int(maphash.String(x.seed, key)) & mask; ; i = (i + 1) & mask {
		switch id := x.slots[i]; {
		case id == 0:
			x.slots[i] = p.id + 1
			x.n++
			return
		case pods[id-1].Key() == key:
			x.slots[i] = p.id + 1
			return
		}
	}
}

// reserve makes room for n keys without growing.
func (x *podIndex) reserve(pods []*Pod, n int) {
	size := 16
	for 3*size < 4*n {
		size *= 2
	}
	if size <= len(x.slots) {
		return
	}
	if len(x.slots) == 0 {
		x.seed = maphash.MakeSeed()
	}
	old := x.slots
	x.slots, x.n = make([]int32, size), 0
	for _, id := range old {
		if id != 0 {
			x.set(pods, pods[id-1])
		}
	}
}
