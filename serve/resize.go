package serve

import (
	"encoding/json"
	"fmt"
	"maps"
	"mime"
	"net/http"
	"slices"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/scenarios"
)

// patchResize is `kubectl patch pod NAME --subresource resize`: a
// strategic merge or merge patch of one container's resources
// (spec.containers[].resources or spec.initContainers[] of a sidecar) is the
// resize fault, answered with the pod.
func patchResize(q *request, r *http.Request, snap snapshot) (*writeReq, *apierrors.StatusError) {
	typ, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if typ != mergePatch && typ != strategicPatch {
		return nil, statusError(http.StatusUnsupportedMediaType, metav1.StatusReasonUnsupportedMediaType,
			fmt.Sprintf("podsim serve takes a resize as %s or %s, not %q", strategicPatch, mergePatch, typ))
	}
	body, err := readBody(r)
	if err != nil {
		return nil, err
	}
	type resources struct {
		Requests map[string]string `json:"requests"`
		Limits   map[string]string `json:"limits"`
	}
	type container struct {
		Name      string     `json:"name"`
		Resources *resources `json:"resources"`
	}
	var patch struct {
		Spec struct {
			Containers     []container `json:"containers"`
			InitContainers []container `json:"initContainers"`
		} `json:"spec"`
	}
	if err := json.Unmarshal(body, &patch); err != nil {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("the %s is not valid: %v", typ, err))
	}
	cs := append(slices.Clone(patch.Spec.Containers), patch.Spec.InitContainers...)
	if len(cs) != 1 || cs[0].Resources == nil {
		return nil, invalid("Pod", q.name, "spec.containers",
			"podsim serve is a simulation: a resize patch may change the resources of exactly one container")
	}
	c := cs[0]
	spec := snap.(*podSnap).view.Spec
	isNamed := func(s model.ContainerSpec) bool { return s.Name == c.Name }
	if i := slices.IndexFunc(spec.InitContainers, isNamed); i >= 0 && !spec.InitContainers[i].Sidecar {
		return nil, invalid("Pod", q.name, "spec.initContainers", fmt.Sprintf("%s is an init container that is not a sidecar: it cannot be resized", c.Name))
	} else if i < 0 && !slices.ContainsFunc(spec.Containers, isNamed) {
		return nil, invalid("Pod", q.name, "spec.containers", fmt.Sprintf("the pod has no container %q", c.Name))
	}
	f := &scenarios.ResizeFault{Pod: q.name, Namespace: q.namespace, Container: c.Name}
	var bad *apierrors.StatusError
	read := func(field string, m map[string]string) map[string]scenarios.Quantity {
		out := map[string]scenarios.Quantity{}
		for _, k := range slices.Sorted(maps.Keys(m)) {
			if k != "cpu" && k != "memory" {
				bad = invalid("Pod", q.name, "spec.containers[0].resources."+field+"["+k+"]", "only cpu and memory resources are mutable")
				continue
			}
			v, err := scenarios.ParseQuantity(m[k])
			if err != nil || v.MilliValue() < 0 {
				bad = invalid("Pod", q.name, "spec.containers[0].resources."+field+"["+k+"]", fmt.Sprintf("want a quantity, not %q", m[k]))
				continue
			}
			out[k] = v
		}
		return out
	}
	f.Requests, f.Limits = read("requests", c.Resources.Requests), read("limits", c.Resources.Limits)
	if bad != nil {
		return nil, bad
	}
	for k, lim := range f.Limits {
		if req, ok := f.Requests[k]; ok && req.MilliValue() > lim.MilliValue() {
			return nil, invalid("Pod", q.name, "spec.containers[0].resources.requests["+k+"]", fmt.Sprintf("must be less than or equal to %s limit of %s", k, lim))
		}
	}
	if len(f.Requests)+len(f.Limits) == 0 {
		return nil, invalid("Pod", q.name, "spec.containers[0].resources", "give requests or limits (cpu, memory)")
	}
	return faultWrite("kubectl patch pod "+q.name+q.nsFlag()+" --subresource resize", podExists(q.key()), &scenarios.Fault{Resize: f}), nil
}
