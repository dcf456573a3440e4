package main

import (
	"encoding/csv"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// explain on the library's autoscaling scenarios says why each node
// autoscaler adds nothing for the Pending pod: the Cluster Autoscaler's
// reason per node group, and Karpenter's NodePool limit.
func TestExplainAutoscalerReasons(t *testing.T) {
	for _, c := range []struct{ file, at, want string }{
		{"autoscaling/group-at-max.yaml", "30s", "Pod default/web-2 (Pending for 30s)\n" +
			"  Scheduler:  0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.\n" +
			"  Autoscaler: node group pool (2/2 nodes): fits the pod, but max node group size reached\n" +
			"              node group gpu (0/5 nodes): its nodes do not fit the pod: node(s) had untolerated taint {dedicated: gpu}\n"},
		{"karpenter/limits.yaml", "1m", "Pod default/web-5 (Pending for 60s)\n" +
			"  Scheduler:  0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.\n" +
			"  Autoscaler: Karpenter: all available instance types exceed limits for nodepool (NodePool=default)\n"},
	} {
		out, errs, code := podsim(t, "explain", filepath.Join(root, "scenarios", c.file), "--at", c.at)
		if code != exitOK || errs != "" || !strings.Contains(out, c.want) {
			t.Errorf("explain %s --at %s: exit %d, stderr %q:\n%s\nwant within:\n%s", c.file, c.at, code, errs, out, c.want)
		}
	}
}

// sweepCells runs a study with -o csv and returns each metric's column
// (mean, or p90 for cluster.timeToSchedule) by the cells' label, in
// order.
func sweepCells(t *testing.T, study string) map[string][]float64 {
	t.Helper()
	out, stderr, code := podsim(t, "sweep", filepath.Join(root, "scenarios", "studies", study), "-o", "csv")
	if code != exitOK {
		t.Fatalf("sweep %s: exit %d: %s", study, code, stderr)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]float64{}
	for _, r := range recs[1:] {
		v := r[6]
		if r[2] == "cluster.timeToSchedule" {
			v = r[9]
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			t.Fatalf("%s: %v in %v", study, err, r)
		}
		got[r[2]] = append(got[r[2]], f)
	}
	return got
}

// The burst studies: with node autoscaling the cluster grows with the
// burst (a fixed 3-node cluster would give the same peak and node-hours
// whatever its size), and the Cluster Autoscaler's 3-5 minute boots make
// pods wait longer than Karpenter's one-minute ones.
func TestSweepBurstAutoscalers(t *testing.T) {
	ca, karp := sweepCells(t, "burst-ca.yaml"), sweepCells(t, "burst-karpenter.yaml")
	// Cells: 50, 150, 300, 600 pods of 500m on 4-CPU nodes, 8 a node.
	if want := []float64{7, 19, 38, 75}; !equalFloats(ca["cluster.peakNodes"], want) {
		t.Errorf("burst-ca peakNodes = %v, want %v (3 nodes and one per 8 pods that do not fit)", ca["cluster.peakNodes"], want)
	}
	for name, cells := range map[string]map[string][]float64{"burst-ca": ca, "burst-karpenter": karp} {
		for _, m := range []string{"cluster.peakNodes", "cluster.nodeHours", "cluster.cost", "cluster.scaleUps", "cluster.pendingPodSeconds"} {
			v := cells[m]
			if len(v) != 4 {
				t.Fatalf("%s %s: %d cells, want 4", name, m, len(v))
			}
			for i := 1; i < len(v); i++ {
				if v[i] <= v[i-1] {
					t.Errorf("%s %s = %v: does not grow with the burst", name, m, v)
				}
			}
		}
		if ev := cells["cluster.evictions"]; !equalFloats(ev, []float64{0, 0, 0, 0}) {
			t.Errorf("%s evictions = %v: an annotated batch pod was evicted", name, ev)
		}
	}
	for i := range ca["cluster.timeToSchedule"] {
		c, k := ca["cluster.timeToSchedule"][i], karp["cluster.timeToSchedule"][i]
		if c < 180 || k > 75 {
			t.Errorf("cell %d: p90 time to schedule %vs (Cluster Autoscaler, boot 3-5m) and %vs (Karpenter, boot 50-70s)", i, c, k)
		}
	}
}

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// The HPA's day on Cluster Autoscaler nodes: the longer a node must be
// unneeded before it goes, the more node-hours the day costs, and the
// fewer scale-ups and evictions it takes.
func TestSweepHPADailyUnneededTime(t *testing.T) {
	got := sweepCells(t, "hpa-daily-ca.yaml") // 1m, 10m, 30m, 2h
	for _, m := range []string{"cluster.cost", "cluster.nodeHours"} {
		v := got[m]
		for i := 1; i < len(v); i++ {
			if v[i] <= v[i-1] {
				t.Errorf("%s = %v: does not grow with scaleDownUnneededTime", m, v)
			}
		}
	}
	if s, e := got["cluster.scaleUps"], got["cluster.evictions"]; len(s) != 4 || s[0] <= s[3] || e[0] <= e[3] {
		t.Errorf("scaleUps %v, evictions %v: 1m should scale up and evict more than 2h", s, e)
	}
}
