package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/podsim/podsim/report"
	"go.yaml.in/yaml/v3"
)

// jobContainer reads, from the Job in a manifest file of deploy/, its
// completions and its first container's command and args. (deploy's own
// test decodes the manifests strictly with the Kubernetes API types.)
func jobContainer(t *testing.T, file string) (completions int, argv []string) {
	t.Helper()
	f, err := os.Open(filepath.Join(root, "deploy", file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := yaml.NewDecoder(f)
	for {
		var doc struct {
			Kind string
			Spec struct {
				Completions int
				Template    struct {
					Spec struct {
						Containers []struct{ Command, Args []string }
					}
				}
			}
		}
		if err := dec.Decode(&doc); err != nil {
			t.Fatalf("%s: no Job: %v", file, err)
		}
		if doc.Kind == "Job" {
			c := doc.Spec.Template.Spec.Containers[0]
			if len(c.Command) != 1 || filepath.Base(c.Command[0]) != "podsim" {
				t.Fatalf("%s: command %q, want podsim", file, c.Command)
			}
			return doc.Spec.Completions, c.Args
		}
	}
}

// expand does what the kubelet does to a container's args: $(VAR) becomes
// the value of the container's variable VAR (here the environment's), and
// paths in the pod become paths here.
func expand(args []string, paths map[string]string) []string {
	ref := regexp.MustCompile(`\$\(([A-Za-z_][A-Za-z0-9_]*)\)`)
	var out []string
	for _, a := range args {
		a = ref.ReplaceAllStringFunc(a, func(m string) string { return os.Getenv(m[2 : len(m)-1]) })
		for in, here := range paths {
			if a == in || strings.HasPrefix(a, in+"/") {
				a = here + a[len(in):]
			}
		}
		out = append(out, a)
	}
	return out
}

// TestIndexedJobMergesToTheSingleRun runs the shards of deploy/sweep-job.yaml
// one after the other with exactly its args, the index in the environment as
// the Job controller sets it, then deploy/merge-job.yaml's merge of the
// folder, and compares with one podsim sweep of testdata/studies/tiny.yaml:
// same table, same plots, byte for byte.
func TestIndexedJobMergesToTheSingleRun(t *testing.T) {
	study := t.TempDir() // the ConfigMap: the study and its base scenario side by side
	for name, from := range map[string]string{"study.yaml": "tiny.yaml", "tiny-base.yaml": "tiny-base.yaml"} {
		b, err := os.ReadFile(filepath.Join(root, "testdata", "studies", from))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(study, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	results := t.TempDir() // the shared volume
	paths := map[string]string{"/study": study, "/results": results}

	n, args := jobContainer(t, "sweep-job.yaml")
	if n < 2 {
		t.Fatalf("completions %d", n)
	}
	for i := range n {
		t.Setenv("JOB_COMPLETION_INDEX", strconv.Itoa(i))
		if _, stderr, code := podsim(t, expand(args, paths)...); code != 0 {
			t.Fatalf("pod %d: podsim %q: exit %d: %s", i, expand(args, paths), code, stderr)
		}
	}
	if ents, _ := os.ReadDir(results); len(ents) != n {
		t.Fatalf("%d files in the results volume, want %d shards", len(ents), n)
	}
	_, margs := jobContainer(t, "merge-job.yaml")
	got, stderr, code := podsim(t, expand(margs, paths)...)
	if code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}

	plots := filepath.Join(t.TempDir(), "plots")
	// The same files on one machine (the table names the base scenario's path).
	want, stderr, code := podsim(t, "sweep", filepath.Join(study, "study.yaml"), "-o", "markdown", "--plots", plots)
	if code != 0 {
		t.Fatalf("sweep: exit %d: %s", code, stderr)
	}
	if got != want {
		t.Errorf("the Job's merged table differs from the single sweep's:\n%s\n---\n%s", got, want)
	}
	for _, name := range report.PlotFiles {
		for _, f := range []string{name + ".svg", name + ".png"} {
			a, err1 := os.ReadFile(filepath.Join(results, "plots", f))
			b, err2 := os.ReadFile(filepath.Join(plots, f))
			if err1 != nil || err2 != nil || string(a) != string(b) {
				t.Errorf("plot %s differs (%v, %v)", f, err1, err2)
			}
		}
	}
}

// TestSweepJobRunsInPodsim: deploy/sweep-job.yaml as it is applied to a
// cluster runs in podsim as the Indexed Job it is: no field of it is
// warned of as not simulated (only its PersistentVolumeClaim is ignored),
// and its pods run one per index, parallelism at a time, named and
// labelled as the Job controller makes them (with no behaviour each
// completes at once, so all eight are made at 0s). scenarios/jobs/sweep-indexed.yaml runs it
// to completion with retried shards.
func TestSweepJobRunsInPodsim(t *testing.T) {
	file := filepath.Join(root, "deploy", "sweep-job.yaml")
	out, stderr, code := podsim(t, "run", file, "--duration", "1m", "--warnings", "all", "-o", "jsonl")
	if code != 0 {
		t.Fatalf("podsim run %s: exit %d: %s", file, code, stderr)
	}
	for _, line := range strings.Split(strings.TrimSpace(stderr), "\n") {
		if !strings.Contains(line, `PersistentVolumeClaim "podsim-results" is ignored`) {
			t.Errorf("warning: %s", line)
		}
	}
	var created []string
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, `"reason":"SuccessfulCreate"`) {
			_, msg, _ := strings.Cut(line, `"message":"Created pod: `)
			created = append(created, strings.TrimSuffix(msg, `"}`))
		}
	}
	if got, want := strings.Join(created, ","), "podsim-sweep-0-0,podsim-sweep-1-1,podsim-sweep-2-2,podsim-sweep-3-3,"+
		"podsim-sweep-4-4,podsim-sweep-5-5,podsim-sweep-6-6,podsim-sweep-7-7"; got != want {
		t.Errorf("pods created %s, want %s (one per index)", got, want)
	}
	desc, stderr, code := podsim(t, "describe", file, "podsim-sweep-2-2", "--at", "30s")
	if code != 0 {
		t.Fatalf("podsim describe: exit %d: %s", code, stderr)
	}
	if !strings.Contains(desc, "batch.kubernetes.io/job-completion-index=2") {
		t.Errorf("podsim-sweep-2-2 lacks its completion index label:\n%s", desc)
	}
}
