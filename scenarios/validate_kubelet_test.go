package scenarios

import (
	"strings"
	"testing"
	"time"
)

func TestActiveDeadlineSeconds(t *testing.T) {
	const head = "apiVersion: podsim/v1\nkind: Scenario\nmetadata: {name: t}\nspec:\n  pods:\n" +
		"    - metadata: {name: p}\n      spec:\n        containers: [{name: app, image: img}]\n"
	s, err := Parse("t.yaml", []byte(head+"        activeDeadlineSeconds: 30\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := podSpec(&s.File.Spec.Pods[0].Spec, nil).ActiveDeadline; got == nil || *got != 30*time.Second {
		t.Errorf("ActiveDeadline = %v, want 30s", got)
	}
	for _, bad := range []string{"0", "-5", "2147483648"} {
		_, err := Parse("t.yaml", []byte(head+"        activeDeadlineSeconds: "+bad+"\n"))
		if want := "t.yaml:9:32: activeDeadlineSeconds must be between 1 and 2147483647"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", bad, err, want)
		}
	}
}

func TestNodeShutdownSettings(t *testing.T) {
	const head = "apiVersion: podsim/v1\nkind: Scenario\nmetadata: {name: t}\nspec:\n"
	s, err := Parse("t.yaml", []byte(head+"  settings: {shutdownGracePeriod: 30s, shutdownGracePeriodCriticalPods: 10s}\n"+
		"  nodes:\n    - {name: a}\n    - {name: b, shutdownGracePeriod: 1m30500ms}\n"))
	if err != nil {
		t.Fatal(err)
	}
	st := &s.File.Spec.Settings.NodeShutdown
	if got := effectiveShutdown(&s.File.Spec.Nodes[0].NodeShutdown, st); got.GracePeriod != 30*time.Second || got.CriticalPods != 10*time.Second {
		t.Errorf("node a: %+v, want settings' 30s, 10s", got)
	}
	if got := effectiveShutdown(&s.File.Spec.Nodes[1].NodeShutdown, st); got.GracePeriod != 90*time.Second || got.CriticalPods != 10*time.Second {
		t.Errorf("node b: %+v, want its own 90s (whole seconds), settings' 10s", got)
	}
	for body, want := range map[string]string{
		"  settings: {shutdownGracePeriod: 10s, shutdownGracePeriodCriticalPods: 20s}\n":                       "t.yaml:5:73: shutdownGracePeriodCriticalPods (20s) must not exceed shutdownGracePeriod (10s)",
		"  settings: {shutdownGracePeriodCriticalPods: 20s}\n  nodes: [{name: a, shutdownGracePeriod: 10s}]\n": "t.yaml:5:47: shutdownGracePeriodCriticalPods (20s) must not exceed shutdownGracePeriod",
		"  faults: [{at: 1s, shutdown: {node: nope}}]\n":                                                       `t.yaml:5:38: no node called "nope"`,
	} {
		if _, err := Parse("t.yaml", []byte(head+body)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", strings.TrimSpace(body), err, want)
		}
	}
}

func TestRestartPolicyRules(t *testing.T) {
	const head = "apiVersion: podsim/v1\nkind: Scenario\nmetadata: {name: t}\nspec:\n  pods:\n" +
		"    - metadata: {name: p}\n      spec:\n        restartPolicy: Never\n        containers:\n          - name: app\n            image: img\n"
	s, err := Parse("t.yaml", []byte(head+"            restartPolicy: OnFailure\n"+
		"            restartPolicyRules: [{action: Restart, exitCodes: {operator: NotIn, values: [0, 1]}}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	c := podSpec(&s.File.Spec.Pods[0].Spec, nil).Containers[0]
	if c.Sidecar || c.RestartPolicy != "OnFailure" || len(c.RestartRules) != 1 || !c.RestartRules[0].NotIn {
		t.Errorf("container %+v", c)
	}
	for body, want := range map[string]string{
		"            restartPolicyRules: [{action: Restart, exitCodes: {operator: In, values: [1]}}]\n":                                      "t.yaml:12:13: restartPolicyRules need the container's own restartPolicy",
		"            restartPolicy: Never\n            restartPolicyRules: [{action: Stop, exitCodes: {operator: In, values: [1]}}]\n":       `t.yaml:13:43: restart rule action "Stop": want Restart`,
		"            restartPolicy: Never\n            restartPolicyRules: [{action: Restart, exitCodes: {operator: Is, values: [1]}}]\n":    `exitCodes operator "Is": want In or NotIn`,
		"            restartPolicy: Never\n            restartPolicyRules: [{action: Restart, exitCodes: {operator: In, values: [1, 1]}}]\n": "exitCodes: duplicate value 1",
		"            restartPolicy: Sometimes\n": `restartPolicy "Sometimes": want Always, OnFailure or Never`,
	} {
		if _, err := Parse("t.yaml", []byte(head+body)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want %q", strings.TrimSpace(body), err, want)
		}
	}
}
