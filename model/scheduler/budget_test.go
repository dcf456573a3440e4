package scheduler

import (
	"strings"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
)

// A run's budget counts the scheduler's reads of nodes too: a cluster
// whose tries each read hundreds of nodes uses it up in few events, and
// the scheduling pass stops within it, not at the pass's end.
func TestBudgetCountsNodeReads(t *testing.T) {
	const nodes, pods, budget = 2000, 3000, 100_000
	w, _ := spreadWorld(nodes, pods, true) // the full scan: every try reads its feasible nodes
	if end := w.RunChecked(time.Minute, budget, nil); end != model.OverBudget {
		t.Fatalf("run ended %v after %d events, want OverBudget", end, w.Engine().Fired())
	}
	if w.Engine().Fired() >= budget/10 {
		t.Errorf("%d events fired: the reads should have spent the budget", w.Engine().Fired())
	}
	// A pass looks at its budget every interruptEvery tries.
	if slack := uint64(interruptEvery * nodes / model.NodeReadsPerEvent); w.Used() > budget+slack {
		t.Errorf("used %d of a budget of %d: the pass ran on past it", w.Used(), budget)
	}
	if msg := w.BudgetSpent(budget); !strings.HasPrefix(msg, "it used its budget of 100000 events: ") ||
		!strings.HasSuffix(msg, " reads of nodes by the scheduler at 6 to an event") {
		t.Errorf("BudgetSpent: %q", msg)
	}
}
