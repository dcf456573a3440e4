package serve

import (
	"net/http"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/podsim/podsim/model"
)

// The resource metrics API (metrics.k8s.io/v1beta1), as metrics-server
// serves it (pkg/api): PodMetrics and NodeMetrics from the model's last
// scrape, for kubectl top. CPU is written as metrics-server writes it, a
// quantity of nanocores; memory as bytes in binary units.

const metricsGV = "metrics.k8s.io/v1beta1"

// metricsResources is the group version's discovery.
var metricsResources = []metav1.APIResource{
	{Name: "nodes", SingularName: "", Namespaced: false, Kind: "NodeMetrics", Verbs: metav1.Verbs{"get", "list"}},
	{Name: "pods", SingularName: "", Namespaced: true, Kind: "PodMetrics", Verbs: metav1.Verbs{"get", "list"}},
}

// metricsSnap is one scrape as the API shows it; it never changes.
type metricsSnap struct {
	at, window time.Duration
	pods       []podMetricsSnap
	nodes      []nodeMetricsSnap
}

type podMetricsSnap struct {
	name, namespace string
	labels          map[string]string
	containers      []containerMetrics
}

type containerMetrics struct {
	Name  string        `json:"name"`
	Usage resourceUsage `json:"usage"`
}

type nodeMetricsSnap struct {
	name   string
	labels map[string]string
	usage  resourceUsage
}

// resourceUsage is a ResourceList of cpu and memory.
type resourceUsage struct {
	CPU    resource.Quantity `json:"cpu"`
	Memory resource.Quantity `json:"memory"`
}

func usage(nanoCPU, memory int64) resourceUsage {
	return resourceUsage{CPU: *resource.NewScaledQuantity(nanoCPU, resource.Nano),
		Memory: *resource.NewQuantity(memory, resource.BinarySI)}
}

// PodMetrics and NodeMetrics, and their lists (k8s.io/metrics/pkg/apis/metrics/v1beta1).
type podMetrics struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	Timestamp         metav1.Time        `json:"timestamp"`
	Window            metav1.Duration    `json:"window"`
	Containers        []containerMetrics `json:"containers"`
}

type nodeMetrics struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	Timestamp         metav1.Time     `json:"timestamp"`
	Window            metav1.Duration `json:"window"`
	Usage             resourceUsage   `json:"usage"`
}

type metricsList[T any] struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata"`
	Items           []T `json:"items"`
}

// takeMetrics snapshots the world's last scrape if it is new; nil if not.
// The run goroutine calls it.
func (s *Store) takeMetrics() *metricsSnap {
	at, window, ok := s.w.MetricsScrape()
	if !ok || s.metricsTaken && at == s.metricsAt {
		return nil
	}
	s.metricsAt, s.metricsTaken = at, true
	out := &metricsSnap{at: at, window: window}
	for _, pm := range s.w.PodMetrics() {
		p := podMetricsSnap{name: pm.Pod.Name, namespace: nsOr(pm.Pod.Namespace), labels: pm.Pod.Labels}
		for _, c := range pm.Containers {
			p.containers = append(p.containers, containerMetrics{Name: c.Name, Usage: usage(c.NanoCPU, c.Memory)})
		}
		out.pods = append(out.pods, p)
	}
	for _, nm := range s.w.NodeMetrics() {
		out.nodes = append(out.nodes, nodeMetricsSnap{name: nm.Node.Name, labels: nm.Node.Labels,
			usage: usage(nm.NanoCPU, nm.Memory)})
	}
	return out
}

func nsOr(ns string) string {
	if ns == "" {
		return model.DefaultNamespace
	}
	return ns
}

// metrics answers a read of metrics.k8s.io/v1beta1: segs is the path after
// the group version, [namespaces NS] (pods|nodes) [NAME].
func (s *Server) metrics(w http.ResponseWriter, r *http.Request, segs []string) {
	var ns string
	if len(segs) >= 3 && segs[0] == "namespaces" {
		ns, segs = segs[1], segs[2:]
	}
	if len(segs) == 0 || len(segs) > 2 || segs[0] != "pods" && segs[0] != "nodes" || segs[0] == "nodes" && ns != "" {
		writeError(w, notFound(r.URL.Path))
		return
	}
	if r.Method != http.MethodGet {
		writeError(w, simulation(r.Method, r.URL.Path))
		return
	}
	sel, err := labels.Parse(r.URL.Query().Get("labelSelector"))
	if err != nil {
		writeError(w, apierrors.NewBadRequest(err.Error()))
		return
	}
	name := ""
	if len(segs) == 2 {
		name = segs[1]
	}
	snap := s.store.metricsNow()
	m := s.moment()
	gr := schema.GroupResource{Group: "metrics.k8s.io", Resource: segs[0]}
	if segs[0] == "pods" {
		items := []podMetrics{}
		for _, p := range snap.pods {
			if (ns == "" || p.namespace == ns) && (name == "" || p.name == name) && sel.Matches(labels.Set(p.labels)) {
				items = append(items, podMetrics{TypeMeta: metav1.TypeMeta{Kind: "PodMetrics", APIVersion: metricsGV},
					ObjectMeta: metav1.ObjectMeta{Name: p.name, Namespace: p.namespace, Labels: p.labels, CreationTimestamp: m.ts(m.now)},
					Timestamp:  m.ts(snap.at), Window: metav1.Duration{Duration: snap.window}, Containers: p.containers})
			}
		}
		answer(w, name, gr, items, "PodMetricsList")
		return
	}
	items := []nodeMetrics{}
	for _, n := range snap.nodes {
		if (name == "" || n.name == name) && sel.Matches(labels.Set(n.labels)) {
			items = append(items, nodeMetrics{TypeMeta: metav1.TypeMeta{Kind: "NodeMetrics", APIVersion: metricsGV},
				ObjectMeta: metav1.ObjectMeta{Name: n.name, Labels: n.labels, CreationTimestamp: m.ts(m.now)},
				Timestamp:  m.ts(snap.at), Window: metav1.Duration{Duration: snap.window}, Usage: n.usage})
		}
	}
	answer(w, name, gr, items, "NodeMetricsList")
}

// answer writes the one item named, or the list.
func answer[T any](w http.ResponseWriter, name string, gr schema.GroupResource, items []T, kind string) {
	switch {
	case name == "":
		writeJSON(w, http.StatusOK, &metricsList[T]{TypeMeta: metav1.TypeMeta{Kind: kind, APIVersion: metricsGV}, Items: items})
	case len(items) == 0:
		writeError(w, apierrors.NewNotFound(gr, name))
	default:
		writeJSON(w, http.StatusOK, &items[0])
	}
}

// metricsNow is the last scrape served (empty before the first).
func (s *Store) metricsNow() *metricsSnap {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.metrics == nil {
		return &metricsSnap{}
	}
	return s.metrics
}
