package serve

import (
	"net/http"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// groups are the API groups beside the core group, in discovery order.
func groupList() *metav1.APIGroupList {
	l := &metav1.APIGroupList{TypeMeta: metav1.TypeMeta{Kind: "APIGroupList", APIVersion: "v1"}}
	for _, r := range resources {
		if r.group == "" {
			continue
		}
		v := metav1.GroupVersionForDiscovery{GroupVersion: r.groupVersion(), Version: r.version}
		// A group's first version in resources is its preferred one.
		i := slices.IndexFunc(l.Groups, func(g metav1.APIGroup) bool { return g.Name == r.group })
		switch {
		case i < 0:
			l.Groups = append(l.Groups, metav1.APIGroup{Name: r.group, Versions: []metav1.GroupVersionForDiscovery{v}, PreferredVersion: v})
		case !slices.Contains(l.Groups[i].Versions, v):
			l.Groups[i].Versions = append(l.Groups[i].Versions, v)
		}
	}
	v := metav1.GroupVersionForDiscovery{GroupVersion: "authorization.k8s.io/v1", Version: "v1"}
	l.Groups = append(l.Groups, metav1.APIGroup{Name: "authorization.k8s.io", Versions: []metav1.GroupVersionForDiscovery{v}, PreferredVersion: v})
	v = metav1.GroupVersionForDiscovery{GroupVersion: metricsGV, Version: "v1beta1"}
	l.Groups = append(l.Groups, metav1.APIGroup{Name: "metrics.k8s.io", Versions: []metav1.GroupVersionForDiscovery{v}, PreferredVersion: v})
	return l
}

func findGroup(name string) *metav1.APIGroup {
	for _, g := range groupList().Groups {
		if g.Name == name {
			g.TypeMeta = metav1.TypeMeta{Kind: "APIGroup", APIVersion: "v1"}
			return &g
		}
	}
	return nil
}

// resourceList is the discovery document of one group version, or nil.
func resourceList(gv string, writes bool) *metav1.APIResourceList {
	if gv == "authorization.k8s.io/v1" {
		return &metav1.APIResourceList{TypeMeta: metav1.TypeMeta{Kind: "APIResourceList", APIVersion: "v1"}, GroupVersion: gv,
			APIResources: reviewResources}
	}
	if gv == metricsGV {
		return &metav1.APIResourceList{TypeMeta: metav1.TypeMeta{Kind: "APIResourceList", APIVersion: "v1"}, GroupVersion: gv,
			APIResources: metricsResources}
	}
	var l *metav1.APIResourceList
	for _, r := range resources {
		if r.groupVersion() != gv {
			continue
		}
		if l == nil {
			l = &metav1.APIResourceList{TypeMeta: metav1.TypeMeta{Kind: "APIResourceList", APIVersion: "v1"}, GroupVersion: gv}
		}
		verbs := metav1.Verbs{"get", "list", "watch"}
		if writes {
			for i := range writeRoutes {
				if rt := &writeRoutes[i]; rt.group == r.group && rt.resource == r.name && rt.sub == "" {
					verbs = append(verbs, verb(rt.method))
				}
			}
		}
		l.APIResources = append(l.APIResources, metav1.APIResource{Name: r.name, SingularName: r.singular, Namespaced: r.namespaced,
			Kind: r.kind, Verbs: verbs, ShortNames: r.shortNames, Categories: r.categories})
		if writes && r.col == colPods {
			// So that kubectl drain evicts rather than deletes pods.
			l.APIResources = append(l.APIResources, metav1.APIResource{Name: "pods/eviction", Namespaced: true,
				Group: "policy", Version: "v1", Kind: "Eviction", Verbs: metav1.Verbs{"create"}},
				metav1.APIResource{Name: "pods/resize", Namespaced: true, Kind: "Pod", Verbs: metav1.Verbs{"patch"}})
		}
		if r.scalable() {
			// kubectl scale finds the Scale's kind here.
			verbs := metav1.Verbs{"get"}
			if writes {
				verbs = append(verbs, "patch", "update")
			}
			l.APIResources = append(l.APIResources, metav1.APIResource{Name: r.name + "/scale", Namespaced: true,
				Group: "autoscaling", Version: "v1", Kind: "Scale", Verbs: verbs})
		}
	}
	return l
}

// verb is the API verb of a write's method.
func verb(method string) string {
	switch method {
	case http.MethodPost:
		return "create"
	case http.MethodPut:
		return "update"
	}
	return strings.ToLower(method)
}

func findResource(gv, name string) *apiResource {
	for _, r := range resources {
		if r.groupVersion() == gv && r.name == name {
			return r
		}
	}
	return nil
}
