package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var demoFile = filepath.Join(root, "scenarios", "demo.yaml")

func TestDescribeDemoWeb(t *testing.T) {
	out, errs, code := podsim(t, "describe", demoFile, "web", "--at", "4m")
	if code != exitOK || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	golden(t, "describe-demo-web.txt", out)
}

func TestDescribeFlagsAnywhere(t *testing.T) {
	a, _, c1 := podsim(t, "describe", demoFile, "web", "--at", "4m")
	b, _, c2 := podsim(t, "describe", "--at", "4m", demoFile, "web")
	if c1 != 0 || c2 != 0 || a != b {
		t.Errorf("flags before and after the arguments differ (exit %d, %d)", c1, c2)
	}
	end, _, _ := podsim(t, "describe", demoFile, "web")
	if end == a {
		t.Error("describe without --at printed the 4m view; want the end of the run (5m)")
	}
}

func TestDescribeJSON(t *testing.T) {
	out, errs, code := podsim(t, "describe", demoFile, "web", "--at", "4m", "-o", "json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var doc struct {
		At     float64 `json:"at"`
		Status struct {
			Phase             string `json:"phase"`
			ContainerStatuses []struct {
				State struct {
					Waiting *struct {
						Reason string `json:"reason"`
					} `json:"waiting"`
				} `json:"state"`
				LastState struct {
					Terminated *struct {
						Reason   string `json:"reason"`
						ExitCode int    `json:"exitCode"`
					} `json:"terminated"`
				} `json:"lastState"`
				Ready        bool `json:"ready"`
				RestartCount int  `json:"restartCount"`
			} `json:"containerStatuses"`
		} `json:"status"`
		Events []struct {
			Reason string `json:"reason"`
			Count  int    `json:"count"`
		} `json:"events"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if doc.At != 240 || doc.Status.Phase != "Running" || len(doc.Status.ContainerStatuses) != 1 {
		t.Fatalf("unexpected document:\n%s", out)
	}
	cs := doc.Status.ContainerStatuses[0]
	if cs.State.Waiting == nil || cs.State.Waiting.Reason != "CrashLoopBackOff" ||
		cs.LastState.Terminated == nil || cs.LastState.Terminated.Reason != "OOMKilled" ||
		cs.LastState.Terminated.ExitCode != 137 || cs.Ready || cs.RestartCount != 4 {
		t.Errorf("web/app status at 4m not CrashLoopBackOff after 4 OOM restarts:\n%s", out)
	}
	backoff := 0
	for _, e := range doc.Events {
		if e.Reason == "BackOff" {
			backoff = e.Count
		}
	}
	if backoff < 3 {
		t.Errorf("BackOff count %d, want >= 3", backoff)
	}
}

func TestDescribeUnknownPod(t *testing.T) {
	out, errs, code := podsim(t, "describe", demoFile, "nope")
	if code != exitBadInput || out != "" {
		t.Errorf("exit %d, stdout %q; want 2 and nothing on stdout", code, out)
	}
	if !strings.Contains(errs, `pod "nope" not found`) || !strings.Contains(errs, "pods: web, api") {
		t.Errorf("stderr %q does not name the pod and list web, api in creation order", errs)
	}
}

func TestDescribeBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"describe"},
		{"describe", demoFile},
		{"describe", demoFile, "web", "extra"},
		{"describe", demoFile, "web", "-o", "jsonl"},
		{"describe", demoFile, "web", "--at", "6m"},
		{"describe", demoFile, "web", "--at", "soon"},
		{"describe", "no-such-file.yaml", "web"},
	} {
		out, errs, code := podsim(t, args...)
		if code != exitBadInput || out != "" || errs == "" {
			t.Errorf("podsim %v: exit %d, stdout %q, stderr %q; want 2, a message, nothing on stdout", args, code, out, errs)
		}
		if strings.Contains(errs, "goroutine") || strings.Contains(errs, "panic") {
			t.Errorf("podsim %v: stack trace on stderr:\n%s", args, errs)
		}
	}
}

func TestDescribeDeletedPodWithProbes(t *testing.T) {
	file := filepath.Join(t.TempDir(), "deleted.yaml")
	scenario := `apiVersion: podsim/v1
kind: Scenario
metadata: {name: deleted}
spec:
  duration: 3m
  pods:
    - metadata: {name: web}
      spec:
        containers:
          - name: app
            image: example/app:1
            livenessProbe: {httpGet: {path: /healthz, port: 8080}, initialDelaySeconds: 5}
            readinessProbe: {exec: {command: [cat, /tmp/ready]}}
  faults:
    - {at: 90s, delete: {pod: web}}
`
	if err := os.WriteFile(file, []byte(scenario), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := podsim(t, "describe", file, "web")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if errs != "podsim: pod web was deleted at 1m30s; showing its last status\n" {
		t.Errorf("stderr %q", errs)
	}
	for _, want := range []string{
		"Status:      Succeeded\n",
		"    Liveness:       http-get http://:8080/healthz delay=5s timeout=1s period=10s successThreshold=1 failureThreshold=3\n",
		"    Readiness:      exec [cat /tmp/ready] delay=0s timeout=1s period=10s successThreshold=1 failureThreshold=3\n",
		"Killing    90s   kubelet            Stopping container app\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// docs/describe-vs-kubectl.md shows podsim describe of the documentation's
// nginx pod as podsim prints it today.
func TestDescribeVsKubectlDoc(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(root, "docs", "describe-vs-kubectl.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, _ := strings.Cut(string(doc), "<!-- podsim describe output")
	_, after, ok := strings.Cut(after, "```text\n")
	if !ok {
		t.Fatal("the page has no podsim describe output block")
	}
	block, _, _ := strings.Cut(after, "```")
	out, errs, code := podsim(t, "describe", filepath.Join(root, "testdata", "manifests", "nginx-with-request.yaml"), "nginx-deployment-1", "--at", "34s")
	if code != exitOK || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if out != block {
		t.Errorf("docs/describe-vs-kubectl.md shows:\n%s\npodsim describe prints:\n%s", block, out)
	}
}
