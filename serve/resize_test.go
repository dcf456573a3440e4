package serve

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podsim/podsim/model"
)

// TestResizeIsTheFault: kubectl patch --subresource resize is the resize
// fault: a memory limit change of a RestartContainer container restarts it
// and the answered pod has the new limit; a patch podsim cannot take is
// refused, naming the field.
func TestResizeIsTheFault(t *testing.T) {
	p := play(t, "../scenarios/lifecycle/resize.yaml", Options{At: 30 * time.Second, AllowWrites: true})
	p.record()
	p.freeze(t)
	u := p.http.URL + "/api/v1/namespaces/default/pods/cache/resize"
	var pod corev1.Pod
	body := `{"spec":{"containers":[{"name":"cache","resources":{"limits":{"memory":"1Gi"}}}]}}`
	if code := send(t, "PATCH", u, "", strategicPatch, strings.NewReader(body), &pod); code != 200 {
		t.Fatalf("resize: %d", code)
	}
	if got := pod.Spec.Containers[0].Resources.Limits.Memory().String(); got != "1Gi" {
		t.Errorf("the resized pod's memory limit: %s, want 1Gi", got)
	}
	if !strings.Contains(p.log.String(), "kubectl patch pod cache --subresource resize (fault resize)") {
		t.Errorf("the log says %q", p.log.String())
	}
	if !changed(&p.tl, func(c *model.Change) bool {
		return c.Kind == model.ChangeContainer && c.Pod == "cache" && c.RestartCount == 1
	}) {
		t.Error("cache did not restart")
	}
	for _, c := range []struct {
		typ, body string
		code      int
		reason    metav1.StatusReason
		msg       string
	}{
		{jsonPatch, `[{"op":"replace","path":"/spec/containers/0/resources/limits/cpu","value":"1"}]`, 415, metav1.StatusReasonUnsupportedMediaType, "takes a resize as"},
		{mergePatch, `{"spec":{"containers":[{"name":"cach","resources":{"limits":{"cpu":"1"}}}]}}`, 422, metav1.StatusReasonInvalid, `the pod has no container "cach"`},
		{mergePatch, `{"spec":{"containers":[{"name":"cache","resources":{"limits":{"nvidia.com/gpu":"1"}}}]}}`, 422, metav1.StatusReasonInvalid, "only cpu and memory"},
		{mergePatch, `{"spec":{"containers":[{"name":"cache","resources":{"requests":{"cpu":"2"},"limits":{"cpu":"1"}}}]}}`, 422, metav1.StatusReasonInvalid, "must be less than or equal to cpu limit"},
	} {
		var st metav1.Status
		code := send(t, "PATCH", u, "", c.typ, strings.NewReader(c.body), &st)
		failure(t, c.body, code, &st, c.code, c.reason, c.msg)
	}
	ro := play(t, "../scenarios/lifecycle/resize.yaml", Options{At: 30 * time.Second})
	var st metav1.Status
	code := send(t, "PATCH", ro.http.URL+"/api/v1/namespaces/default/pods/cache/resize", "", strategicPatch, strings.NewReader(body), &st)
	failure(t, "read-only", code, &st, 405, metav1.StatusReasonMethodNotAllowed, "--allow-writes")
}
