package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The public manifests of testdata/manifests/public, as their projects
// ship them, run as they would on a cluster: every pod starts (their
// kubernetes.io/os node selectors match the kubelet's labels, init
// containers complete), and what podsim does not simulate is one summary
// line per file and a line per field.
func TestPublicManifests(t *testing.T) {
	dir := filepath.Join(root, "testdata", "manifests", "public")
	for _, c := range []struct {
		file     string
		warnings []string // each line of stderr, after the file name
		running  []string // NAMESPACE NAME of pods Running and ready at 1h
	}{
		{"microservices-demo.yaml", []string{": warning: 11 objects ignored: 11 ServiceAccounts (no API access) (--warnings=all lists each)"},
			[]string{"adservice-0", "cartservice-0", "checkoutservice-0", "currencyservice-0", "emailservice-0", "frontend-0",
				"loadgenerator-0", "paymentservice-0", "productcatalogservice-0", "recommendationservice-0", "redis-cart-0", "shippingservice-0"}},
		{"metrics-server.yaml", []string{": warning: 7 objects ignored: 1 ServiceAccount, 2 ClusterRoles, 1 RoleBinding, 2 ClusterRoleBindings (no API access); 1 APIService (unknown kind) (--warnings=all lists each)"},
			[]string{"kube-system +metrics-server-0"}},
		{"argo-cd-install.yaml", []string{": warning: 41 objects ignored: 7 ServiceAccounts, 6 Roles, 3 ClusterRoles, 6 RoleBindings, 3 ClusterRoleBindings (no API access); 7 ConfigMaps, 2 Secrets (no volumes and no environment); 7 NetworkPolicies (no networking) (--warnings=all lists each)"},
			[]string{"argocd-application-controller-0", "argocd-applicationset-controller-0", "argocd-dex-server-0", "argocd-notifications-controller-0",
				"argocd-redis-0", "argocd-repo-server-0", "argocd-server-0"}},
		// A folder, as kubectl apply -f DIR reads it: ReplicationControllers.
		{"guestbook-go", nil, []string{"guestbook-0", "guestbook-1", "guestbook-2", "redis-master-0", "redis-replica-0", "redis-replica-1"}},
		// helm template's output of the ingress-nginx chart.
		{"ingress-nginx-helm.yaml", []string{
			": warning: 13 objects ignored: 2 ServiceAccounts, 2 Roles, 2 ClusterRoles, 2 RoleBindings, 2 ClusterRoleBindings (no API access); 1 ConfigMap (no volumes and no environment); 1 IngressClass (no networking); 1 ValidatingWebhookConfiguration (no admission) (--warnings=all lists each)",
			":350:3: warning: externalTrafficPolicy is not simulated: every endpoint gets an even share, wherever the request enters",
			":570:3: warning: ttlSecondsAfterFinished is not simulated: a finished Job and its pods are never cleaned up (2 times in this file; --warnings=all lists each)"},
			[]string{"ingress-nginx +ingress-nginx-controller-0"}},
	} {
		file := filepath.Join(dir, c.file)
		if _, errs, code := podsim(t, "validate", file); code != exitOK {
			t.Errorf("validate %s: exit %d\n%s", c.file, code, errs)
		}
		out, errs, code := podsim(t, "run", file)
		if code != exitOK {
			t.Errorf("run %s: exit %d\n%s", c.file, code, errs)
			continue
		}
		var want strings.Builder
		for _, w := range c.warnings {
			want.WriteString(file + w + "\n")
		}
		if errs != want.String() {
			t.Errorf("%s: stderr\n%s\nwant\n%s", c.file, errs, want.String())
		}
		pods := out[strings.Index(out, "$ kubectl get pods"):]
		for _, pod := range c.running {
			if !regexp.MustCompile(`(?m)^` + pod + ` +1/1 +Running +0 +60m$`).MatchString(pods) {
				t.Errorf("%s: %s is not Running and ready:\n%s", c.file, pod, pods)
			}
		}
		if strings.Contains(pods, "Pending") || strings.Contains(pods, "Init:") {
			t.Errorf("%s: a pod did not start:\n%s", c.file, pods)
		}
	}
}

// The ingress-nginx controller of the helm chart is ready after its
// readiness probe's initial delay, and its Deployment then says so.
func TestPublicManifestsIngressNginxReady(t *testing.T) {
	out, errs, code := podsim(t, "run", filepath.Join(root, "testdata", "manifests", "public", "ingress-nginx-helm.yaml"))
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	for _, want := range []string{
		"10s ingress-nginx/pod/ingress-nginx-controller-0 Ready=True\n",
		"ingress-nginx/deployment/ingress-nginx-controller Progressing=True (NewReplicaSetAvailable)\n",
	} {
		if !strings.Contains(squeeze(out), want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

// ingress-nginx's two admission Jobs, whose containers have no behaviour,
// run their command and exit 0 as on a cluster, so both Jobs complete;
// runs: [{}] keeps a Job's container running, its Job active.
func TestPublicManifestsIngressNginxJobsComplete(t *testing.T) {
	fixture, err := filepath.Abs(filepath.Join(root, "testdata", "manifests", "public", "ingress-nginx-helm.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	out, errs, code := podsim(t, "run", fixture)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	for _, want := range []string{
		`(?m)^ingress-nginx +ingress-nginx-admission-create-0 +0/1 +Completed +0 +60m$`,
		`(?m)^ingress-nginx +ingress-nginx-admission-patch-0 +0/1 +Completed +0 +60m$`,
		`(?m)^ingress-nginx +ingress-nginx-admission-create +Complete +1/1 +0s +60m$`,
		`(?m)^ingress-nginx +ingress-nginx-admission-patch +Complete +1/1 +0s +60m$`,
		`(?m)^0s +ingress-nginx/pod/ingress-nginx-admission-create-0/create +Terminated \(Completed, exit 0\)$`,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("output lacks %s:\n%s", want, out)
		}
	}

	path := filepath.Join(t.TempDir(), "hang.yaml")
	scenario := "apiVersion: podsim/v1\nkind: Scenario\nmetadata: {name: hang}\nspec:\n  duration: 10m\n  include: [" + fixture + "]\n" +
		"  behavior:\n  - {namespace: ingress-nginx, pod: ingress-nginx-admission-create, container: create, runs: [{}]}\n"
	if err := os.WriteFile(path, []byte(scenario), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code = podsim(t, "run", path)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	for _, want := range []string{
		`(?m)^ingress-nginx +ingress-nginx-admission-create-0 +1/1 +Running +0 +10m$`,
		`(?m)^ingress-nginx +ingress-nginx-admission-create +Running +0/1 +10m +10m$`,
		`(?m)^ingress-nginx +ingress-nginx-admission-patch +Complete +1/1 +0s +10m$`,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("runs: [{}]: output lacks %s:\n%s", want, out)
		}
	}
}
