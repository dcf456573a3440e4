package serve

import (
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	openapiv2 "github.com/google/gnostic-models/openapiv2"
	"google.golang.org/protobuf/proto"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// With --allow-writes, a POST of a manifest adds the object at the current
// virtual time: 201 with the object, its pods made by its controller; an
// unknown field is refused as strict decoding refuses it; a second create
// is a conflict; a field podsim does not simulate comes back as a
// Warning header.
func TestCreateAddsObjects(t *testing.T) {
	p := play(t, "../scenarios/cluster/disk-failure-replicaset.yaml", Options{At: time.Minute, AllowWrites: true})
	p.freeze(t)
	u := p.http.URL
	deploy := `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"nginx"},"spec":{"replicas":2,
"selector":{"matchLabels":{"app":"nginx"}},"template":{"metadata":{"labels":{"app":"nginx"}},
"spec":{"containers":[{"name":"nginx","image":"nginx","resources":{"limits":{"cpu":"500m","memory":"128Mi"}}}]}}}}`
	var got struct {
		Kind     string            `json:"kind"`
		Metadata metav1.ObjectMeta `json:"metadata"`
	}
	if code := call(t, "POST", u+"/apis/apps/v1/namespaces/default/deployments", "", strings.NewReader(deploy), &got); code != http.StatusCreated ||
		got.Kind != "Deployment" || got.Metadata.Name != "nginx" {
		t.Fatalf("create: %d %+v", code, got)
	}
	names := strings.Join(podNames(t, u), ",")
	if !strings.Contains(names, "nginx-0") || !strings.Contains(names, "nginx-1") {
		t.Errorf("pods after the create: %s, want the Deployment's two", names)
	}
	if !strings.Contains(p.log.String(), "at 1m: kubectl create deployment nginx") {
		t.Errorf("the log says %q", p.log.String())
	}
	var st metav1.Status
	if code := call(t, "POST", u+"/apis/apps/v1/namespaces/default/deployments", "", strings.NewReader(deploy), &st); code != http.StatusConflict {
		t.Errorf("second create: %d %q, want 409", code, st.Message)
	}
	typo := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"typo"},"spec":{"containers":[{"name":"c","image":"i","imagePullPolcy":"Always"}]}}`
	if code := call(t, "POST", u+"/api/v1/namespaces/default/pods", "", strings.NewReader(typo), &st); code != http.StatusBadRequest ||
		!strings.Contains(st.Message, `strict decoding error: unknown field "imagePullPolcy" in v1.Container; did you mean "imagePullPolicy"?`) {
		t.Errorf("a typo: %d %q", code, st.Message)
	}
	other := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"shop"},"spec":{"containers":[{"name":"c","image":"i"}]}}`
	if code := call(t, "POST", u+"/api/v1/namespaces/default/pods", "", strings.NewReader(other), &st); code != http.StatusBadRequest ||
		!strings.Contains(st.Message, "does not match the namespace") {
		t.Errorf("another namespace: %d %q", code, st.Message)
	}
	req, _ := http.NewRequest("POST", u+"/api/v1/namespaces/default/pods", strings.NewReader(
		`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"solo"},"spec":{"schedulerName":"mine","containers":[{"name":"c","image":"i"}]}}`))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated || !strings.Contains(resp.Header.Get("Warning"), `299 - "schedulerName is not simulated`) {
		t.Errorf("a pod with an unsimulated field: %d, Warning %q", resp.StatusCode, resp.Header.Get("Warning"))
	}
}

// Read-only, a create is refused as every write is.
func TestCreateReadOnly(t *testing.T) {
	p := play(t, "../scenarios/demo.yaml", Options{At: time.Minute})
	p.freeze(t)
	var st metav1.Status
	pod := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i"}]}}`
	if code := call(t, "POST", p.http.URL+"/api/v1/namespaces/default/pods", "", strings.NewReader(pod), &st); code != 405 ||
		!strings.Contains(st.Message, "--allow-writes") {
		t.Errorf("%d %q", code, st.Message)
	}
}

// The OpenAPI documents: v3's root lists a document per served group
// version, whose schemas carry their kinds and whose PATCH paths take
// fieldValidation; v2 is served as the protobuf kubectl asks for.
func TestOpenAPIDocuments(t *testing.T) {
	p := play(t, "../scenarios/demo.yaml", Options{At: time.Minute})
	p.freeze(t)
	u := p.http.URL
	var root struct {
		Paths map[string]struct {
			URL string `json:"serverRelativeURL"`
		} `json:"paths"`
	}
	if code := call(t, "GET", u+"/openapi/v3", "", nil, &root); code != 200 || root.Paths["api/v1"].URL == "" || root.Paths["apis/apps/v1"].URL == "" {
		t.Fatalf("/openapi/v3: %d %+v", code, root)
	}
	var doc struct {
		Paths      map[string]map[string]any `json:"paths"`
		Components struct {
			Schemas map[string]map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if code := call(t, "GET", u+root.Paths["apis/apps/v1"].URL, "", nil, &doc); code != 200 {
		t.Fatalf("apps/v1: %d", code)
	}
	d := doc.Components.Schemas["io.k8s.api.apps.v1.Deployment"]
	if d == nil || !strings.Contains(d["description"].(string), "Deployment enables declarative updates") {
		t.Errorf("no Deployment schema with its description: %v", d)
	}
	if gvk, _ := d["x-kubernetes-group-version-kind"].([]any); len(gvk) != 1 {
		t.Errorf("the Deployment's kind: %v", d["x-kubernetes-group-version-kind"])
	}
	patch, _ := doc.Paths["/apis/apps/v1/namespaces/{namespace}/deployments/{name}"]["patch"].(map[string]any)
	if params, _ := patch["parameters"].([]any); len(params) != 1 || params[0].(map[string]any)["name"] != "fieldValidation" {
		t.Errorf("the Deployment's PATCH: %v", patch)
	}
	req, _ := http.NewRequest("GET", u+"/openapi/v2", nil)
	req.Header.Set("Accept", "application/com.github.proto-openapi.spec.v2@v1.0+protobuf")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var v2 openapiv2.Document
	if err := proto.Unmarshal(b, &v2); err != nil || v2.Definitions == nil {
		t.Fatalf("/openapi/v2 as protobuf: %v", err)
	}
	found := false
	for _, def := range v2.Definitions.AdditionalProperties {
		found = found || def.Name == "io.k8s.api.core.v1.Pod"
	}
	if !found {
		t.Error("/openapi/v2 has no Pod definition")
	}
}

// kubectl explain, apply -f (with its default strict validation) and
// create -f work against podsim serve --allow-writes: the Deployment of
// the Kubernetes documentation's example runs its two pods.
func TestKubectlApplyAndExplain(t *testing.T) {
	bin, err := exec.LookPath("kubectl")
	if err != nil {
		t.Skip("kubectl is not installed (make kubectl installs Debian's kubernetes-client)")
	}
	p := play(t, "../scenarios/demo.yaml", Options{At: time.Minute, AllowWrites: true})
	p.freeze(t)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "kubeconfig")
	if err := WriteKubeconfig(cfg, strings.TrimPrefix(p.http.URL, "http://")); err != nil {
		t.Fatal(err)
	}
	kubectl := func(args ...string) (string, error) {
		out, err := exec.Command(bin, append([]string{"--kubeconfig", cfg, "--cache-dir", filepath.Join(dir, "cache")}, args...)...).CombinedOutput()
		return string(out), err
	}
	if out, err := kubectl("explain", "pods.spec.containers.resources"); err != nil || !strings.Contains(out, "FIELD: resources <ResourceRequirements>") ||
		!strings.Contains(out, "limits") {
		t.Errorf("explain: %v\n%s", err, out)
	}
	if out, err := kubectl("apply", "-f", "../testdata/manifests/nginx-with-request.yaml"); err != nil || out != "deployment.apps/nginx-deployment created\n" {
		t.Fatalf("apply: %v\n%s", err, out)
	}
	if out, err := kubectl("get", "pods", "-l", "app=nginx", "-o", "name"); err != nil || out != "pod/nginx-deployment-0\npod/nginx-deployment-1\n" {
		t.Errorf("get pods: %v\n%s", err, out)
	}
	bad := filepath.Join(dir, "typo.yaml")
	if err := os.WriteFile(bad, []byte("apiVersion: v1\nkind: Pod\nmetadata: {name: typo}\nspec:\n  containers: [{name: c, image: i, imagePullPolcy: Always}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := kubectl("create", "-f", bad); err == nil || !strings.Contains(out, `unknown field "imagePullPolcy"`) {
		t.Errorf("create of a typo: %v\n%s", err, out)
	}
}
