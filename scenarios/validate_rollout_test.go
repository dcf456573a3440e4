package scenarios

import (
	"strings"
	"testing"
)

// minReadySeconds is simulated on a ReplicaSet and a Deployment only: on a
// StatefulSet or DaemonSet it is accepted with a warning at its line.
func TestMinReadySecondsWarnsWhereNotSimulated(t *testing.T) {
	const src = `apiVersion: podsim/v1
kind: Scenario
metadata: {name: m}
spec:
  workloads:
    - apiVersion: apps/v1
      kind: StatefulSet
      metadata: {name: db}
      spec:
        minReadySeconds: 10
        template: {spec: {containers: [{name: db, image: example/db:1}]}}
    - apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web}
      spec:
        minReadySeconds: 10
        template: {spec: {containers: [{name: web, image: example/web:1}]}}
`
	s, err := Parse("s.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := "s.yaml:10:9: warning: minReadySeconds is not simulated: a StatefulSet's pod counts as available as soon as it is Ready"
	if got := s.Warnings.Error(); got != want {
		t.Errorf("warnings:\n%s\nwant\n%s", got, want)
	}
	if strings.Contains(s.Warnings.Error(), ":16:") {
		t.Error("a Deployment's minReadySeconds warns")
	}
}
