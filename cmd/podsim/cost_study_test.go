package main

import (
	"encoding/csv"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The fixed cluster's cost study from the command line: the bill grows
// with the cluster's size over the whole run, and the burst's wait
// shrinks (scenarios/studies/fixed-cluster-cost.yaml's numbers).
func TestSweepFixedClusterCost(t *testing.T) {
	out, stderr, code := podsim(t, "sweep", filepath.Join(root, "scenarios", "studies", "fixed-cluster-cost.yaml"), "-o", "csv")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{} // "metric nodes" -> mean (p90 for timeToSchedule)
	for _, r := range recs[1:] {
		v := r[6]
		if r[2] == "cluster.timeToSchedule" {
			v = r[9]
		}
		got[r[2]+" "+r[1]] = v
	}
	for key, want := range map[string]string{
		"cluster.pendingPodSeconds 2": "28800", "cluster.pendingPodSeconds 4": "9600", "cluster.pendingPodSeconds 8": "0",
		"cluster.timeToSchedule 2": "1800", "cluster.timeToSchedule 4": "600", "cluster.timeToSchedule 8": "0",
		"cluster.nodeHours 2": "4", "cluster.nodeHours 8": "16",
		"cluster.cost 2": "0.768", "cluster.cost 4": "1.536", "cluster.cost 8": "3.072",
		"cluster.peakNodes 8": "8", "cluster.scaleUps 8": "0",
	} {
		g, err1 := strconv.ParseFloat(got[key], 64)
		w, _ := strconv.ParseFloat(want, 64)
		if err1 != nil || math.Abs(g-w) > 1e-9 {
			t.Errorf("%s = %q, want %s", key, got[key], want)
		}
	}
}
