package scenarios

// Limits on what one file may ask for, each refused with FILE:LINE:COL and
// exit 2 rather than allocated. They sit well above Kubernetes'
// scalability envelope (5,000 nodes, 150,000 pods), which podsim runs.
const (
	// MaxNodes is the most nodes a scenario may have, node counts expanded.
	MaxNodes = 50_000
	// MaxPods is the most pods a scenario may create: bare pods, the
	// replicas of ReplicaSets and Deployments, Jobs' completions and one
	// pod per node for each DaemonSet.
	MaxPods = 200_000
	// MaxContainers is the most containers and init containers those pods
	// have in all.
	MaxContainers = 400_000
	// MaxLabels is the most labels those pods carry in all (a selector
	// reads them per pod: 20,000 labels on 50,000 pods ran for minutes).
	MaxLabels = 4_000_000
	// MaxCells is the most cells a study's grid may have.
	MaxCells = 10_000
	// MaxSeeds is the most runs per cell.
	MaxSeeds = 100_000
	// MaxRuns is the most runs (cells x seeds) a study may have: a sweep
	// holds every run's samples and series until it aggregates them.
	MaxRuns = 100_000
	// MaxStudyNodes bounds the YAML a study builds: cells times the nodes
	// of the base scenario's document (10,000 cells of a 200-value base take about 4 s and 250 MB).
	MaxStudyNodes = 2_000_000
)

// mulSat returns a*b for non-negative a and b, or limit+1 if it is more
// than limit (so that a grid of 2^64 cells does not wrap to 0).
func mulSat(a, b, limit int) int {
	if a < 0 || b < 0 {
		return limit + 1
	}
	if b != 0 && a > limit/b {
		return limit + 1
	}
	return min(a*b, limit+1)
}
