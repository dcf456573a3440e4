package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestHostileInput: every file under testdata/hostile is refused with
// exit 2 and FILE:LINE:COL: message, by validate and by run, never a panic,
// a hang or an OOM.
func TestHostileInput(t *testing.T) {
	cases := []struct {
		file string
		want string // in stderr, after the file name
	}{
		{"merge-bomb.yaml", ":22:16: document too large: aliases and merge keys (<<) expand"},
		{"node-count-1e9.yaml", ":6:28: count 1000000000: a scenario has at most 50000 nodes"},
		{"node-count-1e7.yaml", ":6:28: count 10000000: a scenario has at most 50000 nodes"},
		{"nodes-total.yaml", ":6:36: 60000 nodes: a scenario has at most 50000 nodes, counts expanded"},
		{"replicas-1e9.yaml", ":6:93: 1000000000 pods: a scenario creates at most 200000 pods"},
		{"replicas-int32-max.yaml", ":6:93: 2147483647 pods: a scenario creates at most 200000 pods"},
		{"deadline-negative.yaml", ":6:100: activeDeadlineSeconds must not be negative"},
		{"study-grid-2-63.yaml", ":9:5: the grid has more than 10000 cells"},
		{"study-grid-2-64.yaml", ":9:5: the grid has more than 10000 cells"},
		{"study-runs-1e9.yaml", ":9:5: 10000 cells x 100000 seeds = 1000000000 runs; a study has at most 100000"},
		{"study-runs-past.yaml", ":9:5: 10000 cells x 11 seeds = 110000 runs; a study has at most 100000"},
		{"alias-pods.yaml", ":8:10: pod: spec.containers must list at least one container"},
		{"no-api-version.yaml", ":2:1: apiVersion must be"},
		{"seed-2-64.yaml", `:6:9: cannot use "18446744073709551616" as an integer: out of range`},
		{"containers-1e7.yaml", ":7:93: 50000 pods of 200 containers: a scenario runs at most 400000 containers and init containers in all"},
		{"labels-per-pod.yaml", ":13:19: 5000 pods of 2000 labels: a scenario's pods carry at most 4000000 labels in all"},
		{"label-keys.yaml", `:8:36: taint key "a b/c/d": a key is a name, optionally after a prefix and a slash`},
		{"tab-indent.yaml", ":7:1: invalid YAML: found a tab character that violates indentation"},
		{"cronjob-pod-clash.yaml", `:9:70: CronJob "c" would name a Job's pod like the bare pod "c-1-0"`},
		{"study-same-field-twice.yaml", ":14:13: path workloads[0].spec.replicas names what path workloads[web].spec.replicas names in tiny-base.yaml"},
	}
	for _, c := range cases {
		path := filepath.Join(root, "testdata", "hostile", c.file)
		cmds := []string{"validate", "run"}
		if strings.HasPrefix(c.file, "study-") {
			cmds = []string{"validate", "sweep"}
		}
		for _, cmd := range cmds {
			t.Run(c.file+"/"+cmd, func(t *testing.T) {
				_, errs, code := podsim(t, cmd, path)
				if code != exitBadInput || !strings.Contains(errs, path+c.want) {
					t.Errorf("exit %d, stderr:\n%s\nwant exit 2 and %q", code, errs, path+c.want)
				}
				for _, line := range strings.Split(strings.TrimSpace(errs), "\n") {
					if !positioned.MatchString(line) {
						t.Errorf("no FILE:LINE:COL: %q", line)
					}
				}
			})
		}
	}
}

// Endless input is read up to the size limit and refused there; a device
// is refused before it is opened.
func TestEndlessInputIsRefused(t *testing.T) {
	for _, cmd := range []string{"validate", "run"} {
		_, errs, code := podsim(t, cmd, "/dev/zero")
		if code != exitBadInput || !strings.Contains(errs, "/dev/zero: not a regular file (a character device)") {
			t.Errorf("%s /dev/zero: exit %d, stderr %q", cmd, code, errs)
		}
	}
	var errb bytes.Buffer
	code := (&Main{Stdin: zeros{}, Stdout: io.Discard, Stderr: &errb}).Run(context.Background(), []string{"run", "-"})
	if code != exitBadInput || !strings.Contains(errb.String(), "<stdin>:1:16777217: file too large: more than 16 MiB") {
		t.Errorf("run - of endless zeros: exit %d, stderr %q", code, errb.String())
	}
}

// zeros is an endless reader of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

var positioned = regexp.MustCompile(`^[^:]+:[0-9]+:[0-9]+: `)

// negativeDuration matches a negative Go duration in text output.
var negativeDuration = regexp.MustCompile(`(^|[ (=])-[0-9][0-9.]*(h|m|s|ms|µs|ns)\b`)

// TestHostileRunsSaturate: valid files with huge times run to the end;
// times saturate (about 292 years), nothing panics or prints a negative
// duration.
func TestHostileRunsSaturate(t *testing.T) {
	cases := []struct{ file, want string }{
		{"grace-huge.yaml", "Terminating (grace period 2562047h47m16.854775807s)"},
		{"deadline-huge.yaml", "job/batch          Complete=True (CompletionsReached)"},
		{"fault-for-overflow.yaml", "Ready=Unknown"},
		{"dist-huge.yaml", "Running"},
		{"backoff-huge.yaml", "CrashLoopBackOff   2 (178y ago)   292y"},
		{"probe-delay-huge.yaml", "Running"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			out, errs, code := podsim(t, "run", filepath.Join(root, "testdata", "hostile", c.file))
			if code != exitOK {
				t.Fatalf("exit %d, stderr:\n%s", code, errs)
			}
			if m := negativeDuration.FindString(out); m != "" {
				t.Errorf("negative duration %q in:\n%s", m, out)
			}
			if !strings.Contains(out, c.want) {
				t.Errorf("want %q in:\n%s", c.want, out)
			}
		})
	}
}

// A pod pinned by nodeName to a node it does not fit is rejected by the
// kubelet's admission (it ran), and a ReplicaSet that keeps making such
// pods replaces them at its API client's pace, so the run ends (it spun
// at 0s for ever): 30 at once, then 20 a second for 10 minutes.
func TestPinnedPodsThatDoNotFitAreRejected(t *testing.T) {
	path := filepath.Join(root, "testdata", "hostile", "pinned-cpu-0.yaml")
	out, errs, code := podsim(t, "run", path)
	for _, want := range []string{"pod/pinned   Warning OutOfcpu: Node didn't have enough resource: cpu, requested: 500, used: 0, capacity: 0",
		"pinned   0/1     OutOfcpu   0"} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("%s: exit %d, stderr %q; want %q in:\n%s", path, code, errs, want, out)
		}
	}
	path = filepath.Join(root, "testdata", "hostile", "rs-pinned-full-node.yaml")
	out, errs, code = podsim(t, "run", path, "-o", "jsonl")
	made, rejected := strings.Count(out, `"reason":"SuccessfulCreate"`), strings.Count(out, `"reason":"OutOfcpu"`)
	if code != exitOK || made != 30+20*600 || rejected != made-1 {
		t.Errorf("%s: exit %d, stderr %q; %d pods made, %d rejected; want 12030, 12029", path, code, errs, made, rejected)
	}
}

// A value that cannot be decoded gets its own error and no other built on
// its zero value.
func TestUndecodableValueOneMessage(t *testing.T) {
	path := filepath.Join(root, "testdata", "hostile", "max-surge-unparseable.yaml")
	_, errs, code := podsim(t, "validate", path)
	want := path + `:7:133: cannot use "abc": want an integer or a percentage such as "50%"` + "\n"
	if code != exitBadInput || errs != want {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 2 and only:\n%s", code, errs, want)
	}
}

// An include of a file that is not YAML objects (a password file) quotes
// nothing of it.
func TestIncludeOfPlainTextQuotesNothing(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "passwd")
	if err := os.WriteFile(secret, []byte("root:x:0:0:hunter2:/root:/bin/bash\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	sc := filepath.Join(dir, "s.yaml")
	os.WriteFile(sc, []byte("apiVersion: podsim/v1\nkind: Scenario\nmetadata: {name: x}\nspec:\n  include: [passwd]\n"), 0o600)
	_, errs, code := podsim(t, "validate", sc)
	if code != exitBadInput || strings.Contains(errs, "hunter2") || strings.Contains(errs, "root:x") || !strings.Contains(errs, "found plain text: not a manifest") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

// A picture of a run keeps no more than a picture needs: a crash loop of
// 292 years (stopped by its event budget) draws a page and an SVG of a
// bounded size, and its trace keeps the first events of each lane.
func TestLongRunsDrawABoundedPicture(t *testing.T) {
	path := filepath.Join(root, "testdata", "hostile", "runaway", "crashloop-centuries.yaml")
	for _, c := range []struct {
		out      string
		maxBytes int
	}{{"svg", 3 << 20}, {"html", 1 << 20}, {"trace", 20 << 20}} {
		out, errs, code := podsim(t, "run", path, "-o", c.out, "--max-events", "400000")
		if code != exitBadInput || !strings.Contains(errs, "it used its budget of 400000 events") {
			t.Errorf("-o %s: exit %d, stderr %q", c.out, code, errs)
		}
		if len(out) > c.maxBytes {
			t.Errorf("-o %s: %d bytes, want at most %d", c.out, len(out), c.maxBytes)
		}
	}
	// The longest run there is: its axis stops at its end (its ticks once
	// wrapped past the largest duration and drew millions more).
	out, errs, code := podsim(t, "run", filepath.Join(root, "testdata", "hostile", "backoff-huge.yaml"), "-o", "svg")
	if code != 0 || len(out) > 64<<10 || strings.Contains(out, ">-") {
		t.Errorf("-o svg of 2562047h: exit %d, %d bytes, stderr %q", code, len(out), errs)
	}
}

// A huge value is cut in messages, never echoed whole: a name of a
// megabyte gives a line of a hundred-odd bytes.
func TestHugeNamesAreCutInMessages(t *testing.T) {
	big := strings.Repeat("a", 1<<20)
	path := filepath.Join(t.TempDir(), "huge-name.yaml")
	doc := "apiVersion: podsim/v1\nkind: Scenario\nmetadata: {name: x}\nspec:\n  nodes: [{name: n, capacity: {cpu: \"4\", memory: 8Gi, pods: 110}}]\n" +
		"  pods:\n    - metadata: {name: " + big + "}\n      spec: {containers: [{name: app, image: x:1}], nodeName: " + big + "}\n"
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errs, code := podsim(t, "validate", path)
	if code != exitBadInput || len(errs) > 800 || !strings.Contains(errs, `pod name "`+strings.Repeat("a", 37)+`..."`) {
		t.Errorf("exit %d, %d bytes on stderr: %.300q", code, len(errs), errs)
	}
}

// Every output of run pays for what it writes: each change counts as an
// event against the budget, so that the budget bounds the time of a
// written run as it bounds a bare one. At the same budget, each output
// stops the crash loop of centuries earlier than test does, and says so.
func TestOutputsChargeTheirChangesToTheBudget(t *testing.T) {
	path := filepath.Join(root, "testdata", "hostile", "runaway", "crashloop-centuries.yaml")
	stoppedAt := func(errs string) time.Duration {
		_, rest, _ := strings.Cut(errs, "the run stopped at ")
		at, _, _ := strings.Cut(rest, " of ")
		d, err := time.ParseDuration(at)
		if err != nil {
			t.Fatalf("no stop in %q: %v", errs, err)
		}
		return d
	}
	_, errs, code := podsim(t, "test", path, "--max-events", "40000")
	if code != exitBadInput || strings.Contains(errs, "changes written out or kept") {
		t.Fatalf("test: exit %d, stderr %q", code, errs)
	}
	bare := stoppedAt(errs)
	for _, args := range [][]string{{"-o", "text"}, {"-o", "jsonl"}, {"-o", "json"}, {"-o", "trace"}, {"-o", "svg"}, {"-o", "html"},
		{"--follow", "--speed", "1e9", "-o", "jsonl"}, {"--follow", "--speed", "1e9"}} {
		_, errs, code := podsim(t, append([]string{"run", path, "--max-events", "40000"}, args...)...)
		if code != exitBadInput || !strings.Contains(errs, " changes written out or kept at one to an event") {
			t.Errorf("run %v: exit %d, stderr %q", args, code, errs)
			continue
		}
		if at := stoppedAt(errs); at >= bare {
			t.Errorf("run %v stopped at %s, test at %s: the changes written did not count", args, at, bare)
		}
	}
}

// The node autoscalers' simulations count against the budget as the
// scheduler's reads do, and stop a run whose every loop packs pods over
// many nodes: smaller cases of testdata/hostile/slow/ca-*.yaml and
// karpenter-unmovable.yaml, which without the count run their 10 hours
// within the budget of events, most of their time in simulations.
func TestNodeAutoscalersChargeTheirReads(t *testing.T) {
	group := func(nodes, cpu, pods string) string {
		return "  nodeGroups:\n    - {name: pool, min: " + nodes + ", max: " + nodes + ", template: {capacity: {cpu: \"" + cpu + "\", memory: 120Gi, pods: \"" + pods + "\"}}, bootTime: 1m}\n  clusterAutoscaler: {}\n"
	}
	deploy := func(name string, replicas int, cpu string) string {
		return fmt.Sprintf("    - {apiVersion: apps/v1, kind: Deployment, metadata: {name: %s}, spec: {replicas: %d, template: {metadata: {labels: {app: %s}}, spec: {preemptionPolicy: Never, containers: [{name: c, image: x:1, resources: {requests: {cpu: %q}}}]}}}}\n", name, replicas, name, cpu)
	}
	head := "apiVersion: podsim/v1\nkind: Scenario\nmetadata: {name: x}\nspec:\n  duration: 10h\n  settings: {kubeAPIQPS: 1000000, kubeAPIBurst: 1000000}\n"
	fullGroups := head + group("200", "30", "110") + "  workloads:\n" + deploy("filler", 200, "30")
	for i := range 200 {
		fullGroups += deploy(fmt.Sprintf("p%03d", i), 1, "1")
	}
	scaleDown := head + group("300", "30", "1") + "  workloads:\n" + deploy("idle", 300, "1")
	karpenter := head + "  instanceTypes:\n    - {name: m5.large, capacity: {cpu: \"2\", memory: 8Gi}, pricePerHour: 0.096, bootTime: 45s}\n" +
		"  workloads:\n    - {apiVersion: karpenter.sh/v1, kind: NodePool, metadata: {name: default}, spec: {template: {spec: {requirements: [{key: karpenter.sh/capacity-type, operator: In, values: [on-demand]}]}}, disruption: {consolidationPolicy: WhenEmptyOrUnderutilized, consolidateAfter: 30s}}}\n" +
		deploy("web", 200, "1100m")
	for _, c := range []struct{ name, doc string }{{"ca-full-groups", fullGroups}, {"ca-scale-down", scaleDown}, {"karpenter-unmovable", karpenter}} {
		path := filepath.Join(t.TempDir(), c.name+".yaml")
		if err := os.WriteFile(path, []byte(c.doc), 0o644); err != nil {
			t.Fatal(err)
		}
		_, errs, code := podsim(t, "test", path, "--max-events", "400000")
		if code != exitBadInput || !strings.Contains(errs, " by the node autoscalers at 6 to an event") {
			t.Errorf("%s: exit %d, stderr %q", c.name, code, errs)
		}
	}
}
