package manifests

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// builtinKinds names every kind of k8s.io/api's groups, and nothing else
// beside the two groups k8s.io/api has not.
func TestBuiltinKindsAreKubernetes(t *testing.T) {
	got := map[string][]string{}
	for k := range kubernetesScheme().AllKnownTypes() {
		switch {
		case strings.HasSuffix(k.Kind, "List"), strings.HasSuffix(k.Kind, "Options"), k.Kind == "WatchEvent", k.Kind == "Status",
			k.Kind == "APIGroup", k.Kind == "APIVersions", k.Kind == "APIResourceList", k.Kind == "APIGroupList":
			continue // the API machinery's, in every group
		}
		if !slices.Contains(got[k.Group], k.Kind) {
			got[k.Group] = append(got[k.Group], k.Kind)
		}
	}
	want := maps.Clone(builtinKinds())
	delete(want, "apiextensions.k8s.io")
	delete(want, "apiregistration.k8s.io")
	for g, kinds := range got {
		slices.Sort(kinds)
		if w := want[g]; w != strings.Join(kinds, " ") {
			t.Errorf("group %q: builtinKinds has %q, k8s.io/api %q", g, w, strings.Join(kinds, " "))
		}
		delete(want, g)
	}
	for g := range want {
		t.Errorf("group %q is not in k8s.io/api", g)
	}
}

func TestUnknownBuiltinKind(t *testing.T) {
	for _, c := range []struct{ apiVersion, kind, want string }{
		{"apps/v1", "Deploymnet", `apps/v1 Deploymnet is not a kind of the built-in API group apps; did you mean Deployment?`},
		{"v1", "Servic", `v1 Servic is not a kind of the built-in API group core; did you mean Service?`},
		{"batch/v1", "job", `batch/v1 job is not a kind of the built-in API group batch; did you mean Job?`},
		{"apps/v1", "Frobnicator", `apps/v1 Frobnicator is not a kind of the built-in API group apps`},
		{"apps/v1", "ControllerRevision", ""},
		{"apiextensions.k8s.io/v1", "CustomResourceDefinition", ""},
		{"argoproj.io/v1alpha1", "Application", ""},
		{"gateway.networking.k8s.io/v1", "Gateway", ""},
	} {
		if got := unknownBuiltinKind(c.apiVersion, c.kind); got != c.want {
			t.Errorf("%s %s: %q, want %q", c.apiVersion, c.kind, got, c.want)
		}
	}
}
