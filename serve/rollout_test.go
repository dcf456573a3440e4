package serve

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/podsim/podsim/model"
)

// The rolling update's ReplicaSets, as its ScalingReplicaSet events name
// them (scenarios/rollouts/rolling-update.yaml).
const (
	oldRS = "web-5f4d9ddb9b"
	newRS = "web-6486f9bc47"
)

// replicaSets lists the served ReplicaSets by name.
func replicaSets(t *testing.T, u string) map[string]appsv1.ReplicaSet {
	t.Helper()
	var l appsv1.ReplicaSetList
	if code := call(t, "GET", u+"/apis/apps/v1/namespaces/default/replicasets", "", nil, &l); code != 200 {
		t.Fatalf("list replicasets: %d", code)
	}
	out := map[string]appsv1.ReplicaSet{}
	for _, rs := range l.Items {
		out[rs.Name] = rs
	}
	return out
}

// TestRolloutReplicaSets: a Deployment in a rolling update is served with
// one ReplicaSet per revision, named as its ScalingReplicaSet events name
// them, each owning its own pods; the Deployment's status and conditions
// are its controller's.
func TestRolloutReplicaSets(t *testing.T) {
	before := play(t, "../scenarios/rollouts/rolling-update.yaml", Options{At: 30 * time.Second})
	before.freeze(t)
	if rss := replicaSets(t, before.http.URL); len(rss) != 1 || rss[oldRS].Name == "" {
		t.Fatalf("before the rollout: %v", keysOf(rss))
	}

	p := play(t, "../scenarios/rollouts/rolling-update.yaml", Options{At: 70 * time.Second})
	p.freeze(t)
	u := p.http.URL
	var d appsv1.Deployment
	if code := call(t, "GET", u+"/apis/apps/v1/namespaces/default/deployments/web", "", nil, &d); code != 200 {
		t.Fatalf("deployment: %d", code)
	}
	rss := replicaSets(t, u)
	if len(rss) != 2 {
		t.Fatalf("replicasets at 1m10s: %v", keysOf(rss))
	}
	// At 1m8s the old one went to 1 replica, the new one to 4.
	for name, want := range map[string]struct {
		replicas int32
		revision string
		image    string
	}{oldRS: {1, "1", "example/web:1"}, newRS: {4, "2", "example/web:2"}} {
		rs := rss[name]
		hash := strings.TrimPrefix(name, "web-")
		if *rs.Spec.Replicas != want.replicas || rs.Annotations["deployment.kubernetes.io/revision"] != want.revision ||
			rs.Spec.Template.Spec.Containers[0].Image != want.image {
			t.Errorf("%s: replicas %d, annotations %v, image %s", name, *rs.Spec.Replicas, rs.Annotations, rs.Spec.Template.Spec.Containers[0].Image)
		}
		if rs.Labels["pod-template-hash"] != hash || rs.Spec.Selector.MatchLabels["pod-template-hash"] != hash ||
			rs.Spec.Template.Labels["pod-template-hash"] != hash {
			t.Errorf("%s: labels %v, selector %v", name, rs.Labels, rs.Spec.Selector.MatchLabels)
		}
		if o := rs.OwnerReferences; len(o) != 1 || o[0].Kind != "Deployment" || o[0].UID != d.UID || !*o[0].Controller {
			t.Errorf("%s: owners %v", name, o)
		}
	}
	wl := p.srv.world.Workload("web")
	st := wl.ReplicaStatus()
	if s := d.Status; s.Replicas != int32(st.Replicas) || s.UpdatedReplicas != int32(st.UpdatedReplicas) || s.UpdatedReplicas != 4 ||
		s.AvailableReplicas != int32(st.AvailableReplicas) || s.UnavailableReplicas != int32(st.UnavailableReplicas) {
		t.Errorf("deployment status %+v, the model's %+v", s, st)
	}
	if d.Annotations["deployment.kubernetes.io/revision"] != "2" || d.Generation != 2 || d.Status.ObservedGeneration != 2 ||
		d.Spec.Template.Spec.Containers[0].Image != "example/web:2" {
		t.Errorf("deployment: annotations %v, generation %d/%d, image %s", d.Annotations, d.Generation, d.Status.ObservedGeneration,
			d.Spec.Template.Spec.Containers[0].Image)
	}
	var conds []string
	for _, c := range d.Status.Conditions {
		conds = append(conds, string(c.Type)+"="+string(c.Status)+"/"+c.Reason)
	}
	if got := strings.Join(conds, ","); got != "Available=True/MinimumReplicasAvailable,Progressing=True/ReplicaSetUpdated" {
		t.Errorf("deployment conditions %s", got)
	}

	// Each pod is its own ReplicaSet's: web-0..3 the old template's,
	// web-4 on the new one's.
	var pods corev1.PodList
	call(t, "GET", u+"/api/v1/namespaces/default/pods", "", nil, &pods)
	for _, pod := range pods.Items {
		want := newRS
		if pod.Spec.Containers[0].Image == "example/web:1" {
			want = oldRS
		}
		if o := pod.OwnerReferences; len(o) != 1 || o[0].Kind != "ReplicaSet" || o[0].Name != want || o[0].UID != rss[want].UID ||
			pod.Labels["pod-template-hash"] != strings.TrimPrefix(want, "web-") {
			t.Errorf("%s (%s): owners %v labels %v", pod.Name, pod.Spec.Containers[0].Image, o, pod.Labels)
		}
	}

	out := kubectl(t, p, "get", "rs", "--no-headers")
	for _, row := range []string{oldRS + " 1 1 1", newRS + " 4 4 2"} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), row) {
			t.Errorf("kubectl get rs lacks %q:\n%s", row, out)
		}
	}
	out = kubectl(t, p, "describe", "deployment", "web")
	for _, s := range []string{"OldReplicaSets:  " + oldRS + " (1/1 replicas created)", "NewReplicaSet:   " + newRS + " (4/4 replicas created)",
		"Scaled up replica set " + newRS + " from 2 to 4", "RollingUpdateStrategy:  1 max unavailable, 1 max surge"} {
		if !strings.Contains(out, s) {
			t.Errorf("kubectl describe deployment lacks %q:\n%s", s, out)
		}
	}
	if strings.Contains(out, "SuccessfulCreate") {
		t.Errorf("kubectl describe deployment shows its ReplicaSets' pod creations:\n%s", out)
	}
	// The ReplicaSet controller records its pod creations and deletions
	// on the ReplicaSet.
	out = kubectl(t, p, "describe", "rs", oldRS)
	for _, s := range []string{"Created pod: web-0", "Deleted pod: web-3", "Controlled By:  Deployment/web"} {
		if !strings.Contains(out, s) {
			t.Errorf("kubectl describe rs %s lacks %q:\n%s", oldRS, s, out)
		}
	}
	if out = kubectl(t, p, "describe", "rs", newRS); !strings.Contains(out, "Created pod: web-7") || strings.Contains(out, "web-0") {
		t.Errorf("kubectl describe rs %s:\n%s", newRS, out)
	}
	out = kubectl(t, p, "get", "all")
	for _, s := range []string{"pod/web-7", "deployment.apps/web", "replicaset.apps/" + newRS} {
		if !strings.Contains(out, s) {
			t.Errorf("kubectl get all lacks %s:\n%s", s, out)
		}
	}
	out = kubectl(t, p, "rollout", "history", "deployment/web")
	if f := strings.Fields(out); !strings.Contains(strings.Join(f, " "), "REVISION CHANGE-CAUSE 1 <none> 2 <none>") {
		t.Errorf("kubectl rollout history:\n%s", out)
	}
	out = kubectl(t, p, "rollout", "status", "deployment/web", "--watch=false")
	if !strings.Contains(out, `Waiting for deployment "web" rollout to finish: 1 old replicas are pending termination...`) {
		t.Errorf("kubectl rollout status at 1m10s: %s", out)
	}

	done := play(t, "../scenarios/rollouts/rolling-update.yaml", Options{At: 3 * time.Minute})
	done.freeze(t)
	out = kubectl(t, done, "rollout", "status", "deployment/web", "--watch=false")
	if !strings.Contains(out, `deployment "web" successfully rolled out`) {
		t.Errorf("kubectl rollout status at 3m: %s", out)
	}
}

func keysOf[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestStatusWithoutAChange: a pod becomes available minReadySeconds after
// it is Ready, with no change of the timeline; the Deployment and its
// ReplicaSet are served with the counts their controllers wrote then,
// frozen and paced.
func TestStatusWithoutAChange(t *testing.T) {
	const file = "testdata/min-ready.yaml"
	available := func(u string) (deployment, replicaSet int32) {
		var d appsv1.Deployment
		call(t, "GET", u+"/apis/apps/v1/namespaces/default/deployments/web", "", nil, &d)
		for _, rs := range replicaSets(t, u) {
			replicaSet += rs.Status.AvailableReplicas
		}
		return d.Status.AvailableReplicas, replicaSet
	}
	for _, c := range []struct {
		at   time.Duration
		want int32
	}{{40 * time.Second, 2}, {45 * time.Second, 3}} {
		p := play(t, file, Options{At: c.at})
		p.freeze(t)
		if d, rs := available(p.http.URL); d != c.want || rs != c.want {
			t.Errorf("frozen at %s: available %d (Deployment), %d (ReplicaSet); want %d", c.at, d, rs, c.want)
		}
	}
	p := play(t, file, Options{Speed: 10})
	p.start()
	p.advance(45 * time.Second)
	deadline := time.Now().Add(10 * time.Second)
	for {
		d, rs := available(p.http.URL)
		if d == 3 && rs == 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("paced to 45s: available %d (Deployment), %d (ReplicaSet); want 3", d, rs)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestSetImageAndUndo: with --allow-writes, a patch of one container's
// image (kubectl set image) is the rollout fault: the model's deployment
// controller makes a ReplicaSet for it; the JSON patch of kubectl rollout
// undo puts an old template back, whose ReplicaSet becomes the newest
// revision. A patch that keeps the images changes nothing; other changes
// of the template are refused.
func TestSetImageAndUndo(t *testing.T) {
	p := play(t, "../scenarios/rollouts/rolling-update.yaml", Options{At: 30 * time.Second, AllowWrites: true})
	p.record()
	p.freeze(t)
	u := p.http.URL + "/apis/apps/v1/namespaces/default/deployments/web"
	setImage := `{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"app"}],"containers":[{"image":"example/web:3","name":"app"}]}}}}`
	var d appsv1.Deployment
	// A patch that keeps the images is the rollout fault of the same
	// image: it changes nothing.
	keep := strings.Replace(setImage, "example/web:3", "example/web:1", 1)
	if code := send(t, "PATCH", u, "", strategicPatch, strings.NewReader(keep), &d); code != 200 ||
		d.Spec.Template.Spec.Containers[0].Image != "example/web:1" || d.Generation != 1 || len(replicaSets(t, p.http.URL)) != 1 {
		t.Fatalf("set image to the same image: %d, image %s, generation %d", code, d.Spec.Template.Spec.Containers[0].Image, d.Generation)
	}
	if !strings.Contains(p.log.String(), "at 30s: kubectl set image deployment/web: the template keeps its images (fault rollout)\n") {
		t.Errorf("the log says %q", p.log.String())
	}
	if code := send(t, "PATCH", u, "", strategicPatch, strings.NewReader(setImage), &d); code != 200 ||
		d.Spec.Template.Spec.Containers[0].Image != "example/web:3" || d.Annotations["deployment.kubernetes.io/revision"] != "2" || d.Generation != 2 {
		t.Fatalf("set image: %d, image %s, annotations %v, generation %d", code, d.Spec.Template.Spec.Containers[0].Image, d.Annotations, d.Generation)
	}
	rss := replicaSets(t, p.http.URL)
	newName := p.srv.world.Workload("web").ReplicaSets(nil)[1].Name
	if rs := rss[newName]; len(rss) != 2 || rs.Annotations["deployment.kubernetes.io/revision"] != "2" ||
		rs.Spec.Template.Spec.Containers[0].Image != "example/web:3" {
		t.Errorf("replicasets after set image: %v", keysOf(rss))
	}
	if !strings.Contains(p.log.String(), "at 30s: kubectl set image deployment/web: app=example/web:3 (fault rollout)\n") {
		t.Errorf("the log says %q", p.log.String())
	}
	if !changed(&p.tl, func(c *model.Change) bool {
		return c.Kind == model.ChangeEvent && c.Reason == "ScalingReplicaSet" && c.Message == "Scaled up replica set "+newName+" from 0 to 1"
	}) {
		t.Errorf("the timeline has no ScalingReplicaSet for %s", newName)
	}

	// kubectl rollout undo: the old ReplicaSet's template (without its
	// pod-template-hash) replaces the Deployment's.
	old := rss[oldRS].Spec.Template
	delete(old.Labels, "pod-template-hash")
	tmpl, _ := json.Marshal(old)
	undo := `[{"op":"replace","path":"/spec/template","value":` + string(tmpl) + `},{"op":"replace","path":"/metadata/annotations","value":{}}]`
	if code := send(t, "PATCH", u, "", jsonPatch, strings.NewReader(undo), &d); code != 200 ||
		d.Spec.Template.Spec.Containers[0].Image != "example/web:1" || d.Annotations["deployment.kubernetes.io/revision"] != "3" {
		t.Errorf("undo: %d, image %s, annotations %v", code, d.Spec.Template.Spec.Containers[0].Image, d.Annotations)
	}
	if rs := replicaSets(t, p.http.URL)[oldRS]; rs.Annotations["deployment.kubernetes.io/revision"] != "3" ||
		rs.Annotations["deployment.kubernetes.io/revision-history"] != "1" {
		t.Errorf("%s after undo: annotations %v", oldRS, rs.Annotations)
	}
	if !strings.Contains(p.log.String(), "kubectl rollout undo deployment/web: app=example/web:1 (fault rollout)") {
		t.Errorf("the log says %q", p.log.String())
	}

	for _, c := range []struct{ typ, body, msg string }{
		{strategicPatch, `{"spec":{"template":{"metadata":{"annotations":{"kubectl.kubernetes.io/restartedAt":"now"}}}}}`,
			"spec.template.metadata: podsim serve is a simulation: a patch of the pod template may change only its containers' images"},
		{strategicPatch, `{"spec":{"template":{"spec":{"containers":[{"name":"app","image":"x:1","imagePullPolicy":"Always"}]}}}}`,
			"spec.template.spec.containers[].imagePullPolicy: podsim serve is a simulation"},
		{mergePatch, `{"spec":{"template":{"spec":{"containers":[{"name":"sidecar","image":"x:1"}]}}}}`, `no container named "sidecar"`},
		{mergePatch, `{"metadata":{"labels":{"a":"b"}},"spec":{"template":{"spec":{"containers":[{"name":"app","image":"x:1"}]}}}}`,
			"metadata: podsim serve is a simulation"},
	} {
		var st metav1.Status
		code := send(t, "PATCH", u, "", c.typ, strings.NewReader(c.body), &st)
		failure(t, c.body, code, &st, 422, metav1.StatusReasonInvalid, c.msg)
	}
}

// TestKubectlSetImage: kubectl set image, rollout history and rollout undo
// against a served rolling update.
func TestKubectlSetImage(t *testing.T) {
	p := play(t, "../scenarios/rollouts/rolling-update.yaml", Options{At: 90 * time.Second, AllowWrites: true})
	p.freeze(t)
	if out := kubectl(t, p, "set", "image", "deployment/web", "app=example/web:3"); !strings.Contains(out, "deployment.apps/web image updated") {
		t.Errorf("kubectl set image: %s", out)
	}
	out := kubectl(t, p, "rollout", "history", "deployment/web")
	if f := strings.Join(strings.Fields(out), " "); !strings.Contains(f, "1 <none> 2 <none> 3 <none>") {
		t.Errorf("kubectl rollout history:\n%s", out)
	}
	if out := kubectl(t, p, "rollout", "undo", "deployment/web", "--to-revision=1"); !strings.Contains(out, "deployment.apps/web rolled back") {
		t.Errorf("kubectl rollout undo: %s", out)
	}
	out = kubectl(t, p, "rollout", "history", "deployment/web")
	if f := strings.Join(strings.Fields(out), " "); !strings.Contains(f, "2 <none> 3 <none> 4 <none>") || strings.Contains(f, "1 <none>") {
		t.Errorf("kubectl rollout history after undo:\n%s", out)
	}
	if !strings.Contains(p.log.String(), "kubectl rollout undo deployment/web: app=example/web:1 (fault rollout)") {
		t.Errorf("the log says %q", p.log.String())
	}
}

// TestRolloutAnnotationsAndConditions: a Recreate rollout keeps the
// Deployment's revision until it makes the new ReplicaSet; a rollout that
// times out shows its Progressing condition updated when it timed out.
func TestRolloutAnnotationsAndConditions(t *testing.T) {
	deployment := func(file string, at time.Duration) appsv1.Deployment {
		p := play(t, file, Options{At: at})
		p.freeze(t)
		var d appsv1.Deployment
		call(t, "GET", p.http.URL+"/apis/apps/v1/namespaces/default/deployments/"+p.sc.Workloads()[0].Metadata.Name, "", nil, &d)
		return d
	}
	for _, c := range []struct {
		at  time.Duration
		rev string
	}{{62 * time.Second, "1"}, {70 * time.Second, "2"}} {
		if d := deployment("../scenarios/rollouts/recreate.yaml", c.at); d.Annotations["deployment.kubernetes.io/revision"] != c.rev {
			t.Errorf("recreate at %s: annotations %v, want revision %s", c.at, d.Annotations, c.rev)
		}
	}
	d := deployment("../scenarios/rollouts/stuck-crashloop.yaml", 190*time.Second)
	for _, cond := range d.Status.Conditions {
		if cond.Type == appsv1.DeploymentProgressing && (cond.Reason != "ProgressDeadlineExceeded" || !cond.LastUpdateTime.Equal(&cond.LastTransitionTime)) {
			t.Errorf("stuck rollout: Progressing %s, updated %s, changed %s", cond.Reason, cond.LastUpdateTime, cond.LastTransitionTime)
		}
	}
}
