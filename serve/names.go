package serve

import (
	"fmt"
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
	b := h.Sum(nil)
	b[6] = b[6]&0x0f | 0x80 // version 8: custom
	b[8] = b[8]&0x3f | 0x80 // RFC 9562 variant
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func hex16(n uint64) string { return fmt.Sprintf("%016x", n) }

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
