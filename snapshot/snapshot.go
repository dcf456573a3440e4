// Package snapshot reads a live Kubernetes cluster, read-only, into one
// manifest file that podsim runs from where the cluster is
// (docs/from-your-cluster.md): its Nodes, priority classes, workloads,
// disruption budgets, autoscalers, Services and pods, as one v1 List as
// `kubectl get -o yaml` writes it. Secrets and ConfigMaps are not read.
//
// It talks to the API server over plain HTTPS with the credentials of a
// kubeconfig (tokens, client certificates, credential plugins), with GET
// requests only: podsim links no client-go, whose packages would run
// their init in every podsim command and add to its size.
package snapshot

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Options say which cluster to read and what of it.
type Options struct {
	Kubeconfig    string // the kubeconfig file ("": DefaultKubeconfig)
	Context       string // its context ("": its current context)
	Namespace     string // the namespace of the namespaced objects ("": the context's)
	AllNamespaces bool   // every namespace (-A)
	Selector      string // a label selector of the namespaced objects (-l)
	// Note, if not nil, hears what was left out and why (a resource the
	// server does not serve, or one the user may not list).
	Note func(msg string)
}

// resource is a kind of object a snapshot reads.
type resource struct {
	apiVersion, kind, plural string
	namespaced               bool
}

// resources are what a snapshot reads, in the order written: the cluster
// first, then the workloads and budgets, then the pods they own.
var resources = []resource{
	{"v1", "Node", "nodes", false},
	{"scheduling.k8s.io/v1", "PriorityClass", "priorityclasses", false},
	{"apps/v1", "Deployment", "deployments", true},
	{"apps/v1", "ReplicaSet", "replicasets", true},
	{"apps/v1", "StatefulSet", "statefulsets", true},
	{"apps/v1", "DaemonSet", "daemonsets", true},
	{"batch/v1", "CronJob", "cronjobs", true},
	{"batch/v1", "Job", "jobs", true},
	{"policy/v1", "PodDisruptionBudget", "poddisruptionbudgets", true},
	{"autoscaling/v2", "HorizontalPodAutoscaler", "horizontalpodautoscalers", true},
	{"v1", "Service", "services", true},
	{"v1", "Pod", "pods", true},
}

// pageSize is how many objects one list request asks for.
const pageSize = 500

// Take reads the cluster o names and writes its objects to w as one v1
// List. It sends GET requests only. The file starts with a comment that
// says where and when it was taken (the server's Date).
func Take(ctx context.Context, o Options, w io.Writer) error {
	path := o.Kubeconfig
	if path == "" {
		path = DefaultKubeconfig()
	}
	c, err := connect(ctx, path, o.Context)
	if err != nil {
		return err
	}
	ns := o.Namespace
	if ns == "" {
		ns = c.namespace
	}
	var items []any
	var at time.Time
	for _, r := range resources {
		u := c.server + "/api/" + r.apiVersion
		if strings.Contains(r.apiVersion, "/") {
			u = c.server + "/apis/" + r.apiVersion
		}
		q := url.Values{"limit": {strconv.Itoa(pageSize)}}
		if r.namespaced {
			if !o.AllNamespaces {
				u += "/namespaces/" + url.PathEscape(ns)
			}
			if o.Selector != "" {
				q.Set("labelSelector", o.Selector)
			}
		}
		got, date, err := c.list(ctx, u+"/"+r.plural, q)
		var skip *skipped
		switch {
		case errors.As(err, &skip):
			if o.Note != nil {
				o.Note(fmt.Sprintf("%s %s left out: %s", r.apiVersion, r.plural, skip.why))
			}
			continue
		case err != nil:
			return err
		}
		if date.After(at) {
			at = date
		}
		for _, it := range got {
			if obj := object(it, r); obj != nil {
				items = append(items, obj)
			}
		}
	}
	where := "at " + at.UTC().Format(time.RFC3339)
	if at.IsZero() {
		where = "(the server sent no Date)"
	}
	fmt.Fprintf(w, "# podsim snapshot of %s %s\n", c.server, where)
	fmt.Fprintf(w, "# run it: podsim run FILE (virtual time 0 is the latest time its objects hold; spec.startTime of a scenario that includes it sets it)\n")
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(map[string]any{"apiVersion": "v1", "kind": "List", "metadata": map[string]any{"resourceVersion": ""}, "items": items}); err != nil {
		return err
	}
	return enc.Close()
}

// object is one listed object as a List item: its apiVersion and kind set
// (a list's items have none), its managedFields left out (as kubectl
// does), numbers as numbers; nil for an object a snapshot leaves out (a
// system- PriorityClass, built into every cluster and into podsim).
func object(it map[string]any, r resource) map[string]any {
	it["apiVersion"], it["kind"] = r.apiVersion, r.kind
	if m, ok := it["metadata"].(map[string]any); ok {
		delete(m, "managedFields")
		if name, _ := m["name"].(string); r.kind == "PriorityClass" && strings.HasPrefix(name, "system-") {
			return nil
		}
	}
	return numbers(it).(map[string]any)
}

// numbers turns the json.Numbers of v into integers or floats.
func numbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = numbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = numbers(e)
		}
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	}
	return v
}

// skipped is a list the server refused in a way that leaves the rest
// readable: not served (404), or not allowed (403).
type skipped struct{ why string }

func (s *skipped) Error() string { return s.why }

// list GETs every page of a list at u, and the server's Date.
func (c *cluster) list(ctx context.Context, u string, q url.Values) ([]map[string]any, time.Time, error) {
	var out []map[string]any
	var date time.Time
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, u+"?"+q.Encode(), nil)
		if err != nil {
			return nil, date, err
		}
		req.Header.Set("Accept", "application/json")
		req.Header.Set("User-Agent", "podsim-snapshot")
		c.auth(req)
		resp, err := c.client.Do(req)
		if err != nil {
			return nil, date, err
		}
		body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<30))
		resp.Body.Close()
		if err != nil {
			return nil, date, err
		}
		if d, err := http.ParseTime(resp.Header.Get("Date")); err == nil {
			date = d
		}
		switch resp.StatusCode {
		case http.StatusOK:
		case http.StatusNotFound:
			return nil, date, &skipped{"the server does not serve it"}
		case http.StatusForbidden:
			return nil, date, &skipped{"forbidden: " + status(body)}
		default:
			return nil, date, fmt.Errorf("GET %s: %s: %s", u, resp.Status, status(body))
		}
		var page struct {
			Metadata struct {
				Continue string `json:"continue"`
			} `json:"metadata"`
			Items []map[string]any `json:"items"`
		}
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.UseNumber()
		if err := dec.Decode(&page); err != nil {
			return nil, date, fmt.Errorf("GET %s: %v", u, err)
		}
		out = append(out, page.Items...)
		if page.Metadata.Continue == "" {
			return out, date, nil
		}
		q.Set("continue", page.Metadata.Continue)
	}
}

// status is the message of a Status body, or the body.
func status(body []byte) string {
	var st struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(body, &st) == nil && st.Message != "" {
		return st.Message
	}
	return strings.TrimSpace(string(body))
}
