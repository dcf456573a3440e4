package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// Every problem of the rollout fields (strategy, minReadySeconds,
// progressDeadlineSeconds, rollout faults, behaviours by image and the
// updatedPods and availablePods checks), each with its place.
func TestRolloutErrors(t *testing.T) {
	_, errs, code := podsim(t, "validate", filepath.Join(root, "testdata", "invalid", "rollout.yaml"))
	if code != exitBadInput {
		t.Errorf("exit %d, want 2", code)
	}
	golden(t, "rollout.txt", strings.ReplaceAll(errs, root+"/", ""))
}
