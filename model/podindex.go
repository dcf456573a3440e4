package model

import "hash/maphash"

// podIndex finds a world's pods by key (Pod.Key), the last pod of each key
// made: an open-addressed table with linear probing, 8 bytes a slot where a
// map of strings to pods takes about 45 a pod. A slot holds the pod's
// number (Pod.id plus one; 0 for an empty slot) under the high 32 bits of
// its key's hash, so that a probe passes another key's slot without
// reading its pod: at 150,000 pods each such read is a cache miss or two
// (the pod, then its key), and a key not yet indexed (each pod made)
// probes two or three slots. The table never holds more than three
// quarters of its slots, and doubles to stay so. The seed only spreads
// the keys: no result depends on it.
type podIndex struct {
	seed  maphash.Seed
	slots []uint64 // a power of two of them, or none
	n     int      // the slots used
}

// tagMask selects a slot's (and a hash's) high 32 bits.
const tagMask = uint64(0xffffffff) << 32

// get returns the pod of the key among pods (World.pods), or nil.
func (x *podIndex) get(pods []*Pod, key string) *Pod {
	if len(x.slots) == 0 {
		return nil
	}
	h := maphash.String(x.seed, key)
	mask := len(x.slots) - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		s := x.slots[i]
		if s == 0 {
			return nil
		}
		if s&tagMask == h&tagMask {
			if p := pods[uint32(s)-1]; p.Key() == key {
				return p
			}
		}
	}
}

// put makes p the pod of its key, in place of any other, and returns the
// pod it replaced (nil if none); pods holds p.
func (x *podIndex) put(pods []*Pod, p *Pod) (old *Pod) {
	if 4*(x.n+1) > 3*len(x.slots) {
		x.reserve(pods, 2*(x.n+1))
	}
	key := p.Key()
	h := maphash.String(x.seed, key)
	slot := h&tagMask | uint64(uint32(p.id+1))
	mask := len(x.slots) - 1
	for i := int(h) & mask; ; i = (i + 1) & mask {
		s := x.slots[i]
		if s == 0 {
			x.slots[i] = slot
			x.n++
			return nil
		}
		if s&tagMask == h&tagMask {
			if q := pods[uint32(s)-1]; q.Key() == key {
				x.slots[i] = slot
				return q
			}
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
	x.slots, x.n = make([]uint64, size), 0
	mask := size - 1
	for _, s := range old {
		if s == 0 {
			continue
		}
		// Each key is in old once: its slot goes to the first empty one.
		i := int(maphash.String(x.seed, pods[uint32(s)-1].Key())) & mask
		for x.slots[i] != 0 {
			i = (i + 1) & mask
		}
		x.slots[i] = s
		x.n++
	}
}
