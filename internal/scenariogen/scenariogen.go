// Package scenariogen writes random valid scenarios for tests and
// fuzzing: one generator, used by the probe-skipping test (report) and the
// model's fuzz target under the invariant checker (model); and Valid, the
// library's own scenarios for the tests that run them all.
package scenariogen

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/podsim/podsim/scenarios"
)

// Config selects what a scenario may hold beyond the base mix (probes,
// failure windows, behaviours, hooks, distributions, faults, a ReplicaSet).
// The zero Config draws exactly the base mix, so the same *rand.Rand gives
// the same scenario as before any option was added.
type Config struct {
	// Rich adds resource requests on small nodes (so scheduling can fail),
	// Deployments, Jobs, DaemonSets, StatefulSets and CronJobs, images that pull slowly or are
	// missing, short crash backoffs, hooks that take 0s, node MTBF, power
	// losses for good, and shorter runs (at most 10 minutes).
	Rich bool
	// SinceStart makes some failure windows count from each start of the
	// container (sinceStart: true), where no run of it ends for sure
	// before them.
	SinceStart bool
}

// Random writes a scenario: a couple of nodes; bare pods and a
// ReplicaSet whose containers have random probes (periods that share
// instants, initial delays, thresholds, grace periods), behaviours with
// failure windows, startup times, crashes and hooks, some drawn from
// distributions; and faults at odd instants, some on a probe tick.
func Random(r *rand.Rand, i int, cfg Config) string {
	g := &gen{r: r, cfg: cfg}
	fmt.Fprintf(&g.b, "apiVersion: podsim/v1\nkind: Scenario\nmetadata: {name: random-%d}\nspec:\n", i)
	minutes := 5 + r.IntN(15)
	if cfg.Rich {
		minutes = 1 + r.IntN(10)
	}
	fmt.Fprintf(&g.b, "  duration: %dm\n  seed: %d\n", minutes, r.IntN(1000))
	g.cluster()
	pods := g.pods()
	g.workloads()
	g.b.WriteString("  behavior:\n")
	for _, x := range g.refs {
		g.b.WriteString(g.behavior(x.pod, x.c, x.h))
	}
	g.faults(minutes, pods)
	return g.b.String()
}

// gen writes one random scenario into b, drawing from r.
type gen struct {
	r    *rand.Rand
	cfg  Config
	b    strings.Builder
	last has   // what the last container made has
	refs []ref // every container written, for behaviours and faults
}

// has is what a container has that behaviour can act on.
type has struct {
	probes map[string]bool
	hooks  bool
}

// ref is a container of a bare pod or of a workload's pods.
type ref struct {
	pod, c string
	h      has
}

func (g *gen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

func (g *gen) dur(max int) string {
	if g.r.IntN(4) == 0 {
		return fmt.Sprintf("%dms", g.r.IntN(max*1000))
	}
	return fmt.Sprintf("%ds", g.r.IntN(max))
}

func (g *gen) dist(max int) string {
	r := g.r
	switch r.IntN(5) {
	case 0:
		return fmt.Sprintf("{uniform: {min: %ds, max: %ds}}", r.IntN(max/2+1), max/2+1+r.IntN(max/2+1))
	case 1:
		return fmt.Sprintf("{lognormal: {median: %ds, sigma: 0.5}}", 1+r.IntN(max))
	}
	return g.dur(max)
}

func (g *gen) positive() string {
	if g.r.IntN(2) == 0 {
		return fmt.Sprintf("{uniform: {min: 1s, max: %ds}}", 2+g.r.IntN(120))
	}
	return fmt.Sprintf("%dms", 1+g.r.IntN(120000))
}

func (g *gen) probe(kind string) string {
	r, pick := g.r, g.pick
	p := fmt.Sprintf("%s: {%s, periodSeconds: %s", kind,
		pick("httpGet: {path: /, port: 80}", "tcpSocket: {port: 80}", "exec: {command: [x]}", "grpc: {port: 9}"),
		pick("1", "2", "3", "5", "10", "10", "7"))
	if r.IntN(2) == 0 {
		p += ", initialDelaySeconds: " + pick("0", "1", "3", "7", "20")
	}
	if kind == "readinessProbe" && r.IntN(2) == 0 {
		p += ", successThreshold: " + pick("1", "2", "3")
	}
	if r.IntN(2) == 0 {
		p += ", failureThreshold: " + pick("1", "2", "3", "5")
	}
	if kind != "readinessProbe" && r.IntN(4) == 0 {
		p += ", terminationGracePeriodSeconds: " + pick("1", "2", "5", "10")
	}
	return p + "}"
}

// container writes a container and keeps what it has in g.last.
func (g *gen) container(name string, sidecar bool) string {
	r := g.r
	g.last = has{probes: map[string]bool{}}
	c := fmt.Sprintf("{name: %s, image: img/%s:1", name, name)
	if sidecar {
		c += ", restartPolicy: Always"
	}
	for _, k := range []string{"liveness", "readiness", "startup"} {
		if r.IntN(3) > 0 {
			c += ", " + g.probe(k+"Probe")
			g.last.probes[k] = true
		}
	}
	if r.IntN(4) == 0 {
		c += ", lifecycle: {postStart: {exec: {command: [x]}}, preStop: {exec: {command: [x]}}}"
		g.last.hooks = true
	}
	if g.cfg.Rich {
		if r.IntN(2) == 0 {
			c += fmt.Sprintf(", resources: {requests: {cpu: %dm, memory: %dMi}}", 100*r.IntN(12), 256*r.IntN(10))
		}
		if r.IntN(4) == 0 {
			c += ", imagePullPolicy: " + g.pick("Always", "IfNotPresent", "Never")
		}
	}
	return c + "}"
}

// behavior writes the behaviour of container name of pod, which has h.
func (g *gen) behavior(pod, name string, h has) string {
	r, pick, dist := g.r, g.pick, g.dist
	s := fmt.Sprintf("    - pod: %s\n      container: %s\n", pod, name)
	if r.IntN(2) == 0 {
		s += "      startupTime: " + dist(30) + "\n"
	}
	endless := true // some run may go on for ever: any sinceStart window is valid
	if r.IntN(3) > 0 {
		endless = false
		s += "      runs:\n"
		for range 1 + r.IntN(3) {
			code := "exitCode: " + pick("0", "1", "2")
			if r.IntN(4) == 0 {
				code = "oom: true"
			}
			s += fmt.Sprintf("        - {exitAfter: %s, %s, times: %d}\n", dist(120), code, 1+r.IntN(3))
		}
		if r.IntN(3) == 0 {
			s += fmt.Sprintf("        - {exitAfter: %s, crashProbability: 0.5}\n", dist(100))
			endless = true
		}
	}
	if len(h.probes) > 0 {
		s += g.windows(h, endless)
	}
	if r.IntN(3) == 0 {
		s += fmt.Sprintf("      shutdownTime: %s\n", dist(20))
	}
	if h.hooks && r.IntN(2) == 0 {
		// The base mix keeps its old draws: hooks of 1s or more.
		if g.cfg.Rich {
			s += fmt.Sprintf("      hooks: {postStart: {duration: %s, fail: %v}, preStop: {duration: %s, fail: %v}}\n", dist(10), r.IntN(3) == 0, dist(20), r.IntN(3) == 0)
		} else {
			s += fmt.Sprintf("      hooks: {postStart: {duration: %ds, fail: %v}, preStop: {duration: %s}}\n", 1+r.IntN(10), r.IntN(4) == 0, dist(20))
		}
	}
	return s
}

// windows writes failure windows for the probes in h; endless says some
// run may go on for ever, so that a sinceStart window is valid.
func (g *gen) windows(h has, endless bool) string {
	r := g.r
	s := "      probes:\n"
	for _, k := range []string{"liveness", "readiness", "startup"} {
		if !h.probes[k] || r.IntN(3) == 0 {
			continue
		}
		s += "        " + k + ":\n"
		at := 0
		for range 1 + r.IntN(3) {
			at += r.IntN(200)
			s += fmt.Sprintf("          - {from: %ds", at)
			if r.IntN(5) > 0 {
				at += 1 + r.IntN(60)
				s += fmt.Sprintf(", to: %ds", at)
			}
			if g.cfg.SinceStart && endless && r.IntN(2) == 0 {
				s += ", sinceStart: true"
			}
			s += "}\n"
		}
	}
	return s
}

// cluster writes the nodes, and in a Rich scenario the settings, up to
// the pods' key.
func (g *gen) cluster() {
	r, b := g.r, &g.b
	if !g.cfg.Rich {
		b.WriteString("  nodes: [{name: a}, {name: b}]\n  pods:\n")
		return
	}
	b.WriteString("  settings:\n")
	if r.IntN(2) == 0 {
		fmt.Fprintf(b, "    crashLoopBackOff: {initial: %ds, max: %ds}\n", 1+r.IntN(10), 10+r.IntN(300))
	}
	if r.IntN(2) == 0 {
		fmt.Fprintf(b, "    imagePullBackOff: {initial: %ds, max: %ds}\n", 1+r.IntN(10), 10+r.IntN(300))
	}
	b.WriteString("    images:\n")
	for _, img := range []string{"c0", "c1", "side"} {
		switch r.IntN(4) {
		case 0:
			fmt.Fprintf(b, "      - {name: img/%s:1, pullTime: %s}\n", img, g.dist(30))
		case 1:
			fmt.Fprintf(b, "      - {name: img/%s:1, missing: true}\n", img)
		}
	}
	fmt.Fprintf(b, "    terminatedPodGCThreshold: %d\n", 1+r.IntN(5))
	b.WriteString("  nodes:\n")
	for _, n := range []string{"a", "b"} {
		fmt.Fprintf(b, "    - {name: %s, capacity: {cpu: \"%d\", memory: %dGi, pods: %d}", n, 1+r.IntN(4), 1+r.IntN(4), 1+r.IntN(6))
		if r.IntN(4) == 0 {
			fmt.Fprintf(b, ", mtbf: %ds, repairTime: %s", 30+r.IntN(600), g.positive())
		}
		b.WriteString("}\n")
	}
	b.WriteString("  pods:\n")
}

// pods writes the bare pods and returns their names.
func (g *gen) pods() []string {
	r, b, pick := g.r, &g.b, g.pick
	var pods []string
	for p := range 1 + r.IntN(4) {
		name := fmt.Sprintf("p%d", p)
		pods = append(pods, name)
		fmt.Fprintf(b, "    - metadata: {name: %s}\n      spec:\n", name)
		fmt.Fprintf(b, "        restartPolicy: %s\n", pick("Always", "Always", "OnFailure", "Never"))
		if r.IntN(2) == 0 {
			fmt.Fprintf(b, "        terminationGracePeriodSeconds: %s\n", pick("0", "3", "10", "30"))
		}
		if r.IntN(3) == 0 {
			b.WriteString("        initContainers: [" + g.container("side", true) + "]\n")
			g.refs = append(g.refs, ref{name, "side", g.last})
		}
		b.WriteString("        containers: [")
		for c := range 1 + r.IntN(2) {
			if c > 0 {
				b.WriteString(", ")
			}
			cn := fmt.Sprintf("c%d", c)
			b.WriteString(g.container(cn, false))
			g.refs = append(g.refs, ref{name, cn, g.last})
		}
		b.WriteString("]\n")
	}
	return pods
}

// workloads writes a ReplicaSet, and in a Rich scenario other workloads,
// each with one container.
func (g *gen) workloads() {
	r, b, pick := g.r, &g.b, g.pick
	workloads := false
	header := func() {
		if !workloads {
			workloads = true
			b.WriteString("  workloads:\n")
		}
	}
	add := func(name string) {
		b.WriteString(g.container("c0", false) + "]\n")
		g.refs = append(g.refs, ref{name, "c0", g.last})
	}
	const template = "        template:\n          spec:\n            containers: ["
	if r.IntN(2) == 0 {
		header()
		fmt.Fprintf(b, "    - apiVersion: apps/v1\n      kind: ReplicaSet\n      metadata: {name: rs}\n      spec:\n        replicas: %d\n", 1+r.IntN(3))
		b.WriteString("        template:\n          metadata: {labels: {app: rs}}\n          spec:\n            containers: [")
		add("rs")
	}
	if !g.cfg.Rich {
		return
	}
	if r.IntN(2) == 0 {
		header()
		fmt.Fprintf(b, "    - apiVersion: apps/v1\n      kind: Deployment\n      metadata: {name: dep}\n      spec:\n        replicas: %d\n", r.IntN(4))
		b.WriteString(template)
		add("dep")
	}
	if r.IntN(2) == 0 {
		header()
		fmt.Fprintf(b, "    - apiVersion: batch/v1\n      kind: Job\n      metadata: {name: job}\n      spec:\n        completions: %d\n        parallelism: %d\n        backoffLimit: %d\n",
			1+r.IntN(3), 1+r.IntN(2), r.IntN(4))
		if r.IntN(3) == 0 {
			fmt.Fprintf(b, "        activeDeadlineSeconds: %d\n", 1+r.IntN(300))
		}
		fmt.Fprintf(b, "        template:\n          spec:\n            restartPolicy: %s\n            containers: [", pick("Never", "OnFailure"))
		add("job")
	}
	if r.IntN(3) == 0 {
		header()
		b.WriteString("    - apiVersion: apps/v1\n      kind: DaemonSet\n      metadata: {name: ds}\n      spec:\n")
		b.WriteString(template)
		add("ds")
	}
	if r.IntN(3) == 0 {
		header()
		fmt.Fprintf(b, "    - apiVersion: apps/v1\n      kind: StatefulSet\n      metadata: {name: sts}\n      spec:\n        replicas: %d\n        podManagementPolicy: %s\n",
			r.IntN(4), pick("OrderedReady", "Parallel"))
		b.WriteString(template)
		add("sts")
	}
	if r.IntN(3) == 0 {
		header()
		fmt.Fprintf(b, "    - apiVersion: batch/v1\n      kind: CronJob\n      metadata: {name: cj}\n      spec:\n        schedule: %q\n        concurrencyPolicy: %s\n        successfulJobsHistoryLimit: %d\n        failedJobsHistoryLimit: %d\n",
			pick("* * * * *", "*/2 * * * *", "@every 45s"), pick("Allow", "Forbid", "Replace"), r.IntN(3), r.IntN(2))
		fmt.Fprintf(b, "        jobTemplate:\n          spec:\n            backoffLimit: %d\n            template:\n              spec:\n                restartPolicy: %s\n                containers: [", r.IntN(3), pick("Never", "OnFailure"))
		add("cj")
	}
}

// faultMix is the faults drawn, one entry picked at random for each: a
// kind of fault by its name in scenarios.FaultKinds; later is an exit at
// a drawn instant (code 1). In a Rich scenario half the disk failures are
// power losses for good instead.
var faultMix = []struct {
	kind  string
	later bool
}{{kind: "exit"}, {kind: "oom"}, {kind: "delete"}, {kind: "partition"}, {kind: "nodeFailure"}, {kind: "diskFailure"}, {kind: "exit", later: true}}

// faults writes up to five faults of faultMix in a run of minutes, then,
// drawn last so that the draws before stay as they were, perhaps a
// rollout of the Deployment.
func (g *gen) faults(minutes int, pods []string) {
	r, b := g.r, &g.b
	b.WriteString("  faults:\n")
	for range r.IntN(6) {
		at := fmt.Sprintf("%ds", r.IntN(minutes*60))
		if r.IntN(3) == 0 {
			at = fmt.Sprintf("%dms", r.IntN(minutes*60000))
		}
		x := g.refs[r.IntN(len(g.refs))]
		d := &scenarios.FaultDraw{R: r, Pod: x.pod, Container: x.c, Pods: pods, Nodes: []string{"a", "b"}, For: g.positive}
		m := faultMix[r.IntN(len(faultMix))]
		kind := m.kind
		switch {
		case kind == "diskFailure" && g.cfg.Rich && r.IntN(2) == 0:
			kind, d.For = "nodeFailure", nil
		case m.later:
			at, d.Code = g.dist(minutes*60-1), "1"
		}
		fmt.Fprintf(b, "    - {at: %s, %s}\n", at, scenarios.FaultKindNamed(kind).Random(d))
	}
	if strings.Contains(b.String(), "metadata: {name: dep}") && r.IntN(2) == 0 {
		at := r.IntN(minutes * 60)
		fmt.Fprintf(b, "    - {at: %ds, %s}\n", at, scenarios.FaultKindNamed("rollout").Random(&scenarios.FaultDraw{R: r, Deployment: "dep"}))
	}
}

// bytesSource is a rand.Source that reads the fuzzer's bytes, 8 a number,
// then goes on with a PCG seeded from what it read: a mutation of the
// input changes the draws near it, and any input makes a whole scenario.
type bytesSource struct {
	data []byte
	pcg  *rand.PCG
	sum  uint64
}

func (s *bytesSource) Uint64() uint64 {
	if len(s.data) == 0 {
		if s.pcg == nil {
			s.pcg = rand.NewPCG(s.sum, 0x9e3779b97f4a7c15)
		}
		return s.pcg.Uint64()
	}
	var buf [8]byte
	n := copy(buf[:], s.data)
	s.data = s.data[n:]
	v := binary.LittleEndian.Uint64(buf[:])
	s.sum = s.sum*0x100000001b3 ^ v
	return v
}

// FromBytes writes a Rich scenario whose random draws come from data.
func FromBytes(data []byte) string {
	return Random(rand.New(&bytesSource{data: data}), 0, Config{Rich: true})
}
