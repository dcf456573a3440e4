package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"mime"
	"net/http"
	"slices"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/scenarios"
)

// patchDeployment is a patch of a Deployment. One of its pod template
// (kubectl set image; kubectl rollout undo, which puts back an old
// ReplicaSet's template) is the rollout fault, if it changes one
// container's image; anything else is a patch of spec.replicas (kubectl
// scale, kubectl patch), the scale fault. Both are answered with the
// Deployment.
func patchDeployment(q *request, r *http.Request, snap snapshot) (*writeReq, *apierrors.StatusError) {
	body, err := readBody(r)
	if err != nil {
		return nil, err
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	typ, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	images, found, bad := templateImages(typ, body)
	if !found {
		return patchReplicas(q, r, snap)
	}
	if bad != "" {
		return nil, invalid(q.res.kind, q.name, bad,
			"podsim serve is a simulation: a patch of the pod template may change only its containers' images (kubectl set image, kubectl rollout undo)")
	}
	use := "kubectl set image"
	if typ == jsonPatch {
		use = "kubectl rollout undo"
	}
	return rollout(q, snap.(*workloadSnap), images, use)
}

// image is a container's image in a patched template.
type image struct{ container, image string }

// templateImages reads the containers' images a patch gives the pod
// template: a merge patch's spec.template.spec.(init)containers (kubectl
// set image), or a JSON patch replacing /spec/template (kubectl rollout
// undo). found says the patch touches the template; bad names a field it
// sets beside the images (the undo's other fields, which come from the
// served template, and its annotations are let through).
func templateImages(typ string, body []byte) (images []image, found bool, bad string) {
	var spec json.RawMessage
	if typ == jsonPatch {
		var ops []struct {
			Op    string `json:"op"`
			Path  string `json:"path"`
			Value struct {
				Spec json.RawMessage `json:"spec"`
			} `json:"value"`
		}
		if json.Unmarshal(body, &ops) != nil {
			return nil, false, ""
		}
		for _, op := range ops {
			switch {
			case op.Path == "/spec/template" && (op.Op == "replace" || op.Op == "add"):
				found, spec = true, op.Value.Spec
			case strings.HasPrefix(op.Path, "/spec/template"):
				return nil, true, strings.ReplaceAll(strings.TrimPrefix(op.Path, "/"), "/", ".")
			}
		}
		if !found {
			return nil, false, "spec.template.spec"
		}
		images, bad = containerImages(spec, false)
		return images, true, bad
	}
	top, bad := onlyKeys(body, "", "spec")
	if top == nil {
		return nil, false, ""
	}
	sp, _ := onlyKeys(top["spec"], "spec.")
	if _, ok := sp["template"]; !ok {
		return nil, false, ""
	}
	if bad != "" {
		return nil, true, bad
	}
	if _, bad = onlyKeys(top["spec"], "spec.", "template"); bad != "" {
		return nil, true, bad
	}
	t, bad := onlyKeys(sp["template"], "spec.template.", "spec")
	if bad != "" {
		return nil, true, bad
	}
	if _, bad = onlyKeys(t["spec"], "spec.template.spec.", "containers", "initContainers",
		"$setElementOrder/containers", "$setElementOrder/initContainers"); bad != "" {
		return nil, true, bad
	}
	images, bad = containerImages(t["spec"], true)
	return images, true, bad
}

// containerImages reads the (init) containers' names and images of a pod
// spec; only, if they may name no other field (else bad names the first).
func containerImages(spec json.RawMessage, only bool) (images []image, bad string) {
	var containers struct {
		Containers     []map[string]json.RawMessage `json:"containers"`
		InitContainers []map[string]json.RawMessage `json:"initContainers"`
	}
	if json.Unmarshal(spec, &containers) != nil {
		return nil, "spec.template.spec.containers"
	}
	for _, list := range [][]map[string]json.RawMessage{containers.InitContainers, containers.Containers} {
		for _, c := range list {
			for _, k := range slices.Sorted(maps.Keys(c)) {
				if only && k != "name" && k != "image" {
					return nil, "spec.template.spec.containers[]." + k
				}
			}
			var name, img string
			if json.Unmarshal(c["name"], &name) != nil || json.Unmarshal(c["image"], &img) != nil {
				return nil, "spec.template.spec.containers[].image"
			}
			images = append(images, image{name, img})
		}
	}
	return images, ""
}

// onlyKeys decodes a JSON object; bad is its first key (by name, after
// prefix) that is not allowed. m is nil if raw is no object.
func onlyKeys(raw json.RawMessage, prefix string, allowed ...string) (m map[string]json.RawMessage, bad string) {
	if json.Unmarshal(raw, &m) != nil {
		return nil, prefix
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if !slices.Contains(allowed, k) {
			return m, prefix + k
		}
	}
	return m, ""
}

// rollout is the rollout fault that gives the Deployment's template the
// one image that differs; a patch that changes none changes nothing.
func rollout(q *request, d *workloadSnap, images []image, use string) (*writeReq, *apierrors.StatusError) {
	var changed []image
	for _, im := range images {
		c := containerNamed(d.tmpl, im.container)
		switch {
		case c == nil:
			return nil, invalid(q.res.kind, q.name, "spec.template.spec.containers",
				fmt.Sprintf("no container named %q in the pod template", im.container))
		case im.image == "":
			return nil, invalid(q.res.kind, q.name, "spec.template.spec.containers[].image", "Required value")
		case c.Image != im.image:
			changed = append(changed, im)
		}
	}
	kind := strings.ToLower(q.res.kind)
	switch len(changed) {
	case 0:
		// The rollout fault of an image the template has: it changes
		// nothing, as an unchanged template makes no new ReplicaSet.
		c := image{container: d.tmpl.Containers[0].Name, image: d.tmpl.Containers[0].Image}
		if len(images) > 0 {
			c = images[0]
		}
		return faultWrite(fmt.Sprintf("%s %s/%s%s: the template keeps its images", use, kind, q.name, q.nsFlag()), workloadExists(q.key()),
			&scenarios.Fault{Rollout: &scenarios.RolloutFault{Workload: q.name, Namespace: q.namespace,
				Container: c.container, Image: c.image}}), nil
	case 1:
	default:
		return nil, invalid(q.res.kind, q.name, "spec.template.spec.containers",
			"podsim serve is a simulation: a rollout changes one container's image at a time (kubectl set image one container per call)")
	}
	c := changed[0]
	return faultWrite(fmt.Sprintf("%s %s/%s%s: %s=%s", use, kind, q.name, q.nsFlag(), c.container, c.image), workloadExists(q.key()),
		&scenarios.Fault{Rollout: &scenarios.RolloutFault{Workload: q.name, Namespace: q.namespace,
			Container: c.container, Image: c.image}}), nil
}

// containerNamed returns the container (or init container) of t by name.
func containerNamed(t *model.PodSpec, name string) *model.ContainerSpec {
	for _, list := range [][]model.ContainerSpec{t.InitContainers, t.Containers} {
		for i := range list {
			if list[i].Name == name {
				return &list[i]
			}
		}
	}
	return nil
}
