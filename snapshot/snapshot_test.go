package snapshot

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeCluster serves lists as an API server does: pods a page at a time,
// HorizontalPodAutoscalers forbidden, Services not served; every request
// must carry token and be a GET, and pods be selected by selector.
func fakeCluster(t *testing.T, token, selector string) *httptest.Server {
	return httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet {
			t.Errorf("%s %s: a snapshot only reads", r.Method, r.URL)
		}
		if got := r.Header.Get("Authorization"); got != "Bearer "+token {
			http.Error(w, `{"message":"Unauthorized"}`, http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/api/v1/nodes":
			fmt.Fprint(w, `{"items":[{"metadata":{"name":"a","managedFields":[{"manager":"kubelet"}]},"status":{"capacity":{"cpu":"4"}}}]}`)
		case "/apis/scheduling.k8s.io/v1/priorityclasses":
			fmt.Fprint(w, `{"items":[{"metadata":{"name":"system-node-critical"},"value":2000001000},{"metadata":{"name":"high"},"value":1000}]}`)
		case "/api/v1/namespaces/shop/pods":
			if r.URL.Query().Get("labelSelector") != selector || r.URL.Query().Get("limit") != "500" {
				t.Errorf("pods: query %s", r.URL.RawQuery)
			}
			if r.URL.Query().Get("continue") == "" {
				fmt.Fprint(w, `{"metadata":{"continue":"next"},"items":[{"metadata":{"name":"web-0","namespace":"shop"},"status":{"containerStatuses":[{"restartCount":3}]}}]}`)
				return
			}
			fmt.Fprint(w, `{"metadata":{},"items":[{"metadata":{"name":"web-1","namespace":"shop"}}]}`)
		case "/apis/autoscaling/v2/namespaces/shop/horizontalpodautoscalers":
			w.WriteHeader(http.StatusForbidden)
			fmt.Fprint(w, `{"kind":"Status","message":"horizontalpodautoscalers is forbidden: User \"me\" cannot list"}`)
		case "/api/v1/namespaces/shop/services":
			http.NotFound(w, r)
		default:
			fmt.Fprint(w, `{"items":[]}`)
		}
	}))
}

// kubeconfigFor writes a kubeconfig of srv whose user is user.
func kubeconfigFor(t *testing.T, srv *httptest.Server, user string) string {
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	doc := fmt.Sprintf(`apiVersion: v1
kind: Config
current-context: shop
clusters:
- name: c
  cluster: {server: %q, certificate-authority-data: %s}
contexts:
- name: shop
  context: {cluster: c, user: me, namespace: shop}
users:
- name: me
  user: %s
`, srv.URL, base64.StdEncoding.EncodeToString(ca), user)
	path := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(path, []byte(doc), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// A snapshot reads every page, as a List with each item's apiVersion and
// kind, without managedFields and without the system PriorityClasses;
// what it may not or cannot read is left out with a note.
func TestTake(t *testing.T) {
	srv := fakeCluster(t, "s3cret", "app=web")
	defer srv.Close()
	var notes []string
	var out bytes.Buffer
	err := Take(context.Background(), Options{Kubeconfig: kubeconfigFor(t, srv, "{token: s3cret}"), Selector: "app=web",
		Note: func(m string) { notes = append(notes, m) }}, &out)
	if err != nil {
		t.Fatal(err)
	}
	got := out.String()
	for _, want := range []string{"# podsim snapshot of " + srv.URL + " at ", "\nkind: List\n",
		"  - apiVersion: v1\n    kind: Node\n", "name: high\n    value: 1000\n", "name: web-0\n", "name: web-1\n", "restartCount: 3\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("lacks %q:\n%s", want, got)
		}
	}
	for _, not := range []string{"managedFields", "system-node-critical"} {
		if strings.Contains(got, not) {
			t.Errorf("has %q:\n%s", not, got)
		}
	}
	want := "autoscaling/v2 horizontalpodautoscalers left out: forbidden: horizontalpodautoscalers is forbidden: User \"me\" cannot list|" +
		"v1 services left out: the server does not serve it"
	if g := strings.Join(notes, "|"); g != want {
		t.Errorf("notes %q, want %q", g, want)
	}
}

// Credentials: a token from a file, or from a credential plugin; a wrong
// one is the server's 401, an error.
func TestCredentials(t *testing.T) {
	srv := fakeCluster(t, "from-plugin", "")
	defer srv.Close()
	dir := t.TempDir()
	plugin := filepath.Join(dir, "plugin.sh")
	script := "#!/bin/sh\necho '{\"apiVersion\":\"client.authentication.k8s.io/v1\",\"kind\":\"ExecCredential\",\"status\":{\"token\":\"'$TOKEN'\"}}'\n"
	if err := os.WriteFile(plugin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	exec := fmt.Sprintf("{exec: {apiVersion: client.authentication.k8s.io/v1, command: %s, env: [{name: TOKEN, value: from-plugin}]}}", plugin)
	if err := Take(context.Background(), Options{Kubeconfig: kubeconfigFor(t, srv, exec)}, &bytes.Buffer{}); err != nil {
		t.Errorf("exec plugin: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "token"), []byte("from-plugin\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	file := fmt.Sprintf("{tokenFile: %s}", filepath.Join(dir, "token"))
	if err := Take(context.Background(), Options{Kubeconfig: kubeconfigFor(t, srv, file)}, &bytes.Buffer{}); err != nil {
		t.Errorf("tokenFile: %v", err)
	}
	err := Take(context.Background(), Options{Kubeconfig: kubeconfigFor(t, srv, "{token: wrong}")}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "401 Unauthorized") {
		t.Errorf("a wrong token: %v", err)
	}
	err = Take(context.Background(), Options{Kubeconfig: kubeconfigFor(t, srv, "{auth-provider: {name: gcp}}")}, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "exec credential plugin") {
		t.Errorf("auth-provider: %v", err)
	}
}
