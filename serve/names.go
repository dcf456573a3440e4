package serve

import (
	"encoding/binary"
	"encoding/hex"
	"hash/fnv"
	"maps"
)

// uid is an object's UID: a UUID made from its kind and name, so that the
// same scenario serves the same UIDs every time.
func uid(kind, name string) string {
	h := fnv.New128a()
	h.Write([]byte(kind))
	h.Write([]byte{0})
	h.Write([]byte(name))
	var sum [16]byte
	b := h.Sum(sum[:0])
	b[6] = b[6]&0x0f | 0x80 // version 8: custom
	b[8] = b[8]&0x3f | 0x80 // RFC 9562 variant
	var out [36]byte
	hex.Encode(out[0:8], b[0:4])
	hex.Encode(out[9:13], b[4:6])
	hex.Encode(out[14:18], b[6:8])
	hex.Encode(out[19:23], b[8:10])
	hex.Encode(out[24:36], b[10:16])
	out[8], out[13], out[18], out[23] = '-', '-', '-', '-'
	return string(out[:])
}

func hex16(n uint64) string {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], n)
	return hex.EncodeToString(b[:])
}

// withLabel returns a copy of labels with k=v.
func withLabel(labels map[string]string, k, v string) map[string]string {
	out := make(map[string]string, len(labels)+1)
	maps.Copy(out, labels)
	out[k] = v
	return out
}

// jobLabels are a Job's pod labels: the template's, and those the Job
// controller adds (pkg/controller/job: batch.kubernetes.io/job-name and
// controller-uid, and their legacy unprefixed twins).
func jobLabels(labels map[string]string, job, uid string) map[string]string {
	out := withLabel(labels, "batch.kubernetes.io/job-name", job)
	out["batch.kubernetes.io/controller-uid"] = uid
	out["job-name"] = job
	out["controller-uid"] = uid
	return out
}
