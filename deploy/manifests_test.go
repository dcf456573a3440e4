// Package deploy holds the Kubernetes manifests that run a podsim study as
// an Indexed Job (sweep-job.yaml) and merge its shards (merge-job.yaml).
// Its test decodes them strictly with the Kubernetes API types.
package deploy

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/yaml"
)

// decode splits a manifest file into its documents and decodes each
// strictly (an unknown or misspelt field is an error) by its kind.
func decode(t *testing.T, file string) (jobs []*batchv1.Job, pvcs []*corev1.PersistentVolumeClaim) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	for i, doc := range strings.Split(string(data), "\n---\n") {
		var meta struct{ APIVersion, Kind string }
		if err := yaml.Unmarshal([]byte(doc), &meta); err != nil {
			t.Fatalf("%s: document %d: %v", file, i, err)
		}
		switch meta.APIVersion + " " + meta.Kind {
		case "batch/v1 Job":
			var j batchv1.Job
			if err := yaml.UnmarshalStrict([]byte(doc), &j); err != nil {
				t.Fatalf("%s: document %d: %v", file, i, err)
			}
			jobs = append(jobs, &j)
		case "v1 PersistentVolumeClaim":
			var p corev1.PersistentVolumeClaim
			if err := yaml.UnmarshalStrict([]byte(doc), &p); err != nil {
				t.Fatalf("%s: document %d: %v", file, i, err)
			}
			pvcs = append(pvcs, &p)
		default:
			t.Fatalf("%s: document %d is a %s %s, want a batch/v1 Job or a v1 PersistentVolumeClaim", file, i, meta.APIVersion, meta.Kind)
		}
	}
	return jobs, pvcs
}

func TestSweepJob(t *testing.T) {
	jobs, pvcs := decode(t, "sweep-job.yaml")
	if len(jobs) != 1 || len(pvcs) != 1 {
		t.Fatalf("%d jobs and %d claims, want one of each", len(jobs), len(pvcs))
	}
	j, pvc := jobs[0], pvcs[0]
	s := j.Spec
	switch {
	case s.CompletionMode == nil || *s.CompletionMode != batchv1.IndexedCompletion:
		t.Error("completionMode is not Indexed")
	case s.Completions == nil || s.Parallelism == nil || *s.Parallelism > *s.Completions:
		t.Error("completions N and parallelism P <= N are not both set")
	case s.BackoffLimitPerIndex == nil:
		t.Error("no backoffLimitPerIndex")
	case s.Template.Spec.RestartPolicy != corev1.RestartPolicyNever:
		t.Error("backoffLimitPerIndex needs restartPolicy: Never")
	case !slices.Contains(pvc.Spec.AccessModes, corev1.ReadWriteMany):
		t.Error("the results claim is not ReadWriteMany")
	}
	c := s.Template.Spec.Containers[0]
	n := *s.Completions
	want := []string{"sweep", "/study/study.yaml", "--shard", "$(JOB_COMPLETION_INDEX)/" + strconv.Itoa(int(n)), "--out", "/results/shard-$(JOB_COMPLETION_INDEX).json"}
	if !slices.Equal(c.Args, want) || len(c.Command) != 1 || !strings.HasSuffix(c.Command[0], "/podsim") {
		t.Errorf("command %q args %q, want podsim %q", c.Command, c.Args, want)
	}
	mounts(t, s.Template.Spec, c, map[string]string{"/study": "configMap", "/results": pvc.Name})
}

func TestMergeJob(t *testing.T) {
	jobs, pvcs := decode(t, "merge-job.yaml")
	if len(jobs) != 1 || len(pvcs) != 0 {
		t.Fatalf("%d jobs and %d claims, want one job", len(jobs), len(pvcs))
	}
	spec := jobs[0].Spec.Template.Spec
	c := spec.Containers[0]
	if len(c.Args) < 4 || !slices.Equal(c.Args[:4], []string{"merge", "/results", "-o", "markdown"}) {
		t.Errorf("args %q, want podsim merge /results -o markdown", c.Args)
	}
	mounts(t, spec, c, map[string]string{"/results": "podsim-results"})
}

// mounts checks that c mounts each path of want from a volume of the pod:
// a ConfigMap ("configMap") or the named claim.
func mounts(t *testing.T, pod corev1.PodSpec, c corev1.Container, want map[string]string) {
	t.Helper()
	for path, from := range want {
		i := slices.IndexFunc(c.VolumeMounts, func(m corev1.VolumeMount) bool { return m.MountPath == path })
		if i < 0 {
			t.Errorf("nothing mounted at %s", path)
			continue
		}
		v := slices.IndexFunc(pod.Volumes, func(v corev1.Volume) bool { return v.Name == c.VolumeMounts[i].Name })
		switch {
		case v < 0:
			t.Errorf("%s: no volume %q", path, c.VolumeMounts[i].Name)
		case from == "configMap" && pod.Volumes[v].ConfigMap == nil:
			t.Errorf("%s is not a ConfigMap", path)
		case from != "configMap" && (pod.Volumes[v].PersistentVolumeClaim == nil || pod.Volumes[v].PersistentVolumeClaim.ClaimName != from):
			t.Errorf("%s is not the claim %s", path, from)
		}
	}
	if sc := pod.SecurityContext; sc == nil || sc.RunAsNonRoot == nil || !*sc.RunAsNonRoot {
		t.Error("the pod may run as root")
	}
}
