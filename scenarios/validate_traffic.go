package scenarios

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/podsim/podsim/model"
)

// service checks a Service: v1, named, a plain label selector, and none
// of a controller's fields.
func (v *validator) service(w *Workload) {
	v.name(&w.Metadata.Name, &w.Metadata, "Service")
	v.namespace(&w.Metadata.Namespace)
	if w.APIVersion != "" && w.APIVersion != "v1" {
		v.at(&w.APIVersion, "a Service's apiVersion is v1, not %q", w.APIVersion)
	}
	v.priorityClassFields(w)
	key := model.Key(w.Metadata.Namespace, w.Metadata.Name)
	if v.services == nil {
		v.services = map[string]*Workload{}
	}
	if _, dup := v.services[key]; dup && w.Metadata.Name != "" {
		v.at(&w.Metadata.Name, "duplicate Service name %q%s", w.Metadata.Name, inNamespace(w.Metadata.Namespace))
	}
	v.services[key] = w
	sp := &w.Spec
	switch sel := sp.Selector; {
	case sel == nil || len(sel.Labels) == 0 && len(sel.MatchLabels) == 0 && len(sel.MatchExpressions) == 0:
		// Kubernetes leaves its EndpointSlices to the user (or, for an
		// ExternalName Service, has none): podsim gives it no endpoints.
		file, p := v.s.locate(w, false)
		v.s.Warnings.Add(file, p, "warning: Service %s has no selector: podsim gives it no endpoints, and requests to it fail", w.Metadata.Name)
	case len(sel.MatchLabels) > 0 || len(sel.MatchExpressions) > 0:
		v.at(sel, "a Service's selector is a mapping of labels such as {app: web}, not matchLabels or matchExpressions")
	}
	rv := reflect.ValueOf(sp).Elem()
	for i := range rv.NumField() {
		f, name := rv.Field(i), strings.Split(rv.Type().Field(i).Tag.Get("yaml"), ",")[0]
		switch {
		case name == "selector", name == "":
		case name == "template":
			if p := v.s.pos.Of(&sp.Template); !p.IsZero() {
				v.atKey(&sp.Template, "a Service has no template: it selects pods by spec.selector")
			}
		case !f.IsZero():
			v.atKey(f.Addr().Interface(), "a Service has no %s", name)
		}
	}
}

// selectorLabels refuses a plain label mapping in a controller's or a
// budget's selector: only a Service's is one.
func (v *validator) selectorLabels(w *Workload) {
	sel := w.Spec.Selector
	if sel == nil {
		return
	}
	keys := make([]string, 0, len(sel.Labels))
	for k := range sel.Labels {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		msg := "unknown field %q in selector (a %s's selector has matchLabels and matchExpressions)"
		if s := suggestName(k, []string{"matchLabels", "matchExpressions"}); s != "" {
			msg += "; did you mean " + quoteValue(s) + "?"
		}
		v.atMapKey(&sel.Labels, k, msg, k, w.Kind)
	}
}

// traffic checks spec.traffic, settings.kubeProxy and the behaviours'
// maxRPS; it reads each csv series.
func (v *validator) traffic() {
	sp := &v.s.File.Spec
	kp := &sp.Settings.KubeProxy
	if d := kp.MinSyncPeriod; d != nil && d.D() < 0 {
		v.at(d, "minSyncPeriod must not be negative")
	}
	if d := kp.SyncPeriod; d != nil && d.D() <= 0 {
		v.at(d, "syncPeriod must be positive")
	}
	if s := v.s.Settings(); kp.MinSyncPeriod != nil && s.ProxyMinSyncPeriod > s.ProxySyncPeriod {
		v.at(kp.MinSyncPeriod, "minSyncPeriod (%s) must not be longer than syncPeriod (%s)", s.ProxyMinSyncPeriod, s.ProxySyncPeriod)
	}
	if d := sp.Settings.MetricsServer.MetricResolution; d != nil && d.D() <= 0 {
		v.at(d, "metricResolution must be positive")
	}
	for i := range sp.Behavior {
		if m := sp.Behavior[i].MaxRPS; m != nil && *m < 1 {
			v.at(m, "maxRPS must be at least 1")
		}
		if l := sp.Behavior[i].Leak; l != nil {
			if l.Memory == nil {
				v.at(l, "leak: memory is required: what the process leaks every `per` (default 1m) it runs")
			}
			if l.Per != nil && l.Per.D() <= 0 {
				v.at(l.Per, "leak: per must be positive")
			}
		}
	}
	seen := map[string]bool{}
	for i := range sp.Traffic {
		t := &sp.Traffic[i]
		v.item(t)
		v.namespace(&t.Namespace)
		key := model.Key(t.Namespace, t.Service)
		switch {
		case t.Service == "":
			v.at(t, "traffic: service is required")
		case v.services[key] == nil:
			v.at(&t.Service, "no Service called %q%s", t.Service, inNamespace(t.Namespace))
		case seen[key]:
			v.at(&t.Service, "Service %q already has traffic: give it one rate", t.Service)
		}
		seen[key] = true
		if v.s.pos.Of(&t.RPS).IsZero() {
			v.at(t, "traffic: rps is required")
		}
		if t.RPS.CSV != "" {
			path := t.RPS.CSV
			if !filepath.IsAbs(path) {
				path = filepath.Join(filepath.Dir(v.s.Path), path)
			}
			data, err := ReadFile(path) // a regular file, within the size limit
			if err != nil {
				v.at(&t.RPS, "csv: %s", strings.TrimPrefix(err.Error(), path+": "))
				continue
			}
			v.errs = append(v.errs, t.RPS.ReadCSV(path, data)...)
		}
	}
}

// serviceExpect checks an expectation's Service fields: they go together,
// on a Service, and requests are counted up to at.
func (v *validator) serviceExpect(e *Expect) {
	for _, r := range []*QuantityRange{e.CPU, e.Memory} {
		if r != nil && e.Pod == "" {
			v.atKey(r, "cpu and memory are checked on a pod (and its container, if given)")
		}
	}
	fields := []*IntRange{e.Endpoints, e.ServedRequests, e.FailedRequests}
	if e.Service == "" {
		for _, r := range fields {
			if r != nil {
				v.atKey(r, "endpoints, servedRequests and failedRequests are checked on a Service (service: its name)")
			}
		}
		return
	}
	if !slices.ContainsFunc(fields, func(r *IntRange) bool { return r != nil }) {
		v.at(e, "a Service expectation checks endpoints, servedRequests or failedRequests")
	}
	if k := model.Key(e.Namespace, e.Service); v.services[k] == nil {
		v.at(&e.Service, "no Service called %q%s", e.Service, inNamespace(e.Namespace))
	}
	for _, r := range fields[1:] {
		if r != nil && (e.Within != nil || e.Always != nil) {
			v.atKey(r, "requests are counted up to at; servedRequests and failedRequests take no within or always")
		}
	}
}

// sleepActions checks the sleep actions of a pod's containers: in a
// preStop or postStart hook only, 0 to the grace period seconds.
func (v *validator) sleepActions(ps *PodSpec) {
	grace := int64(30)
	if g := ps.TerminationGracePeriodSeconds; g != nil {
		grace = *g
	}
	for _, cs := range [][]Container{ps.InitContainers, ps.Containers} {
		for i := range cs {
			c := &cs[i]
			for _, p := range []*Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
				if p != nil && p.Sleep != nil {
					v.atKey(&p.Sleep, "sleep is a hook's action: a probe takes exec, httpGet, tcpSocket or grpc")
				}
			}
			if c.Lifecycle == nil {
				continue
			}
			for _, h := range []*Handler{c.Lifecycle.PostStart, c.Lifecycle.PreStop} {
				switch s := h; {
				case s == nil || s.Sleep == nil:
				case s.Sleep.Seconds == nil:
					v.at(s.Sleep, "sleep: seconds is required")
				case *s.Sleep.Seconds < 0 || *s.Sleep.Seconds > grace:
					v.at(s.Sleep.Seconds, "sleep: seconds must be between 0 and terminationGracePeriodSeconds (%d)", grace)
				}
			}
		}
	}
}
