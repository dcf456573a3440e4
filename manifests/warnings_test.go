package manifests

import (
	"testing"

	"github.com/podsim/podsim/internal/yamlstrict"
)

// The microservices demo's 23 warnings are one line in summary; a field
// warning repeated in a file is said once; every mode says a warning once.
func TestWarningsSummary(t *testing.T) {
	var ws ErrorList
	add := func(file string, line int, format string, args ...any) {
		ws.Add(file, yamlstrict.Pos{Line: line, Col: 1}, format, args...)
	}
	const demo = "kubernetes-manifests.yaml"
	for i := range 11 {
		add(demo, 10*i+1, `warning: v1 ServiceAccount "sa%d" is ignored: podsim simulates no API access`, i)
		add(demo, 10*i+5, `warning: v1 Service "svc%d" is ignored: podsim simulates no networking`, i)
	}
	add(demo, 200, `warning: v1 Service "frontend-external" is ignored: podsim simulates no networking`)
	add(demo, 210, `warning: rbac.authorization.k8s.io/v1 ClusterRole "reader" is ignored: podsim simulates no API access`)
	add(demo, 220, `warning: networking.k8s.io/v1 NetworkPolicy (no name) is ignored: podsim simulates no networking`)
	add(demo, 230, `warning: argoproj.io/v1alpha1 Application "app" is ignored: podsim does not know this kind`)
	add("job.yaml", 3, "warning: ttlSecondsAfterFinished is not simulated: a finished Job and its pods are never cleaned up")
	add("job.yaml", 9, "warning: ttlSecondsAfterFinished is not simulated: a finished Job and its pods are never cleaned up")
	add("other.yaml", 1, `warning: v1 Secret "s" is ignored: podsim simulates no volumes and no environment`)
	ws = append(ws, ws...) // included twice

	got := Warnings(ws, WarnSummary).Error()
	want := demo + ": warning: 26 objects ignored: 11 ServiceAccounts, 1 ClusterRole (no API access); 12 Services, 1 NetworkPolicy (no networking); 1 Application (unknown kind) (--warnings=all lists each)\n" +
		"job.yaml:3:1: warning: ttlSecondsAfterFinished is not simulated: a finished Job and its pods are never cleaned up (2 times in this file; --warnings=all lists each)\n" +
		`other.yaml:1:1: warning: v1 Secret "s" is ignored: podsim simulates no volumes and no environment`
	if got != want {
		t.Errorf("summary:\n%s\nwant:\n%s", got, want)
	}
	if all := Warnings(ws, WarnAll); len(all) != len(ws)/2 || all.Error() != ErrorList(ws[:len(ws)/2]).Error() {
		t.Errorf("all: %d warnings, want each of %d once:\n%s", len(all), len(ws)/2, all.Error())
	}
	if none := Warnings(ws, WarnNone); len(none) != 0 {
		t.Errorf("none: %s", none.Error())
	}
	for _, c := range [][2]string{{"Ingress", "Ingresses"}, {"NetworkPolicy", "NetworkPolicies"}, {"Gateway", "Gateways"},
		{"Endpoints", "Endpoints"}, {"IngressClass", "IngressClasses"}, {"Service", "Services"}} {
		if got := plural(c[0]); got != c[1] {
			t.Errorf("plural(%s) = %s", c[0], got)
		}
	}
}
