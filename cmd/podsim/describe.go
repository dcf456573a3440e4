package main

import (
	"bufio"
	"flag"
	"fmt"
	"strings"

	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/report"
	"github.com/podsim/podsim/sim"
)

// describe is `podsim describe FILE POD [-n NS] [--at T] [-o text|json]`: the pod as
// `kubectl describe pod` shows it at T (default: the end of the run); or,
// for node/NAME, the node as `kubectl describe node` shows it (text).
func (m *Main) describe(args []string) (int, error) {
	fs := flag.NewFlagSet("describe", flag.ContinueOnError)
	out := outputFlag(fs, "text or json")
	var at durationFlag
	fs.Var(&at, "at", "describe the pod as of this virtual time (e.g. 4m) instead of the end")
	m.addWarningsFlag(fs)
	maxEvents := maxEventsFlag(fs)
	over := overrideFlags(fs)
	ns := fs.String("namespace", model.DefaultNamespace, "the pod's namespace")
	fs.StringVar(ns, "n", model.DefaultNamespace, "the pod's namespace (short for --namespace)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 0, err
	}
	if len(pos) != 2 {
		return 0, usageError{"describe takes a scenario file and a pod name: podsim describe FILE POD [-n NAMESPACE] [--at T] [-o text|json]"}
	}
	if err := checkOutput(*out, "text", "json"); err != nil {
		return 0, err
	}
	file, name := pos[0], pos[1]
	kind, rest, typed := strings.Cut(name, "/")
	switch {
	case typed && (kind == "node" || kind == "nodes"):
		if *out != "text" {
			return 0, usageError{"describe of a node writes text only: drop -o " + *out}
		}
		return m.describeNode(file, rest, &at, over, *maxEvents)
	case typed && (kind == "pod" || kind == "pods"):
		name = rest
	case typed:
		return 0, usageError{fmt.Sprintf("describe shows a pod or a node, not %q: podsim describe FILE POD, pod/POD or node/NODE", kind)}
	}
	w, code, err := m.runTo(file, &at, over, *maxEvents)
	if w == nil || code != exitOK {
		return code, err
	}
	until := w.Now()

	p := w.Pod(model.Key(*ns, name))
	if p == nil {
		var names []string
		other := ""
		for _, q := range w.Pods() { // creation order
			n := q.Key() // namespace/name outside default
			if q.Deleted() {
				n += " (deleted)"
			}
			names = append(names, n)
			if q.Name == name && other == "" {
				other = q.Namespace
			}
		}
		list := "none"
		if len(names) > 0 {
			list = strings.Join(names, ", ")
		}
		hint := ""
		if other != "" {
			hint = "; it is in namespace " + other + ": add -n " + other
		}
		return 0, fmt.Errorf("%s: pod %q not found%s at %s; pods: %s%s", file, name, inNamespace(*ns), sim.FormatTime(until), list, hint)
	}
	if p.Deleted() {
		fmt.Fprintf(m.Stderr, "podsim: pod %s was deleted at %s; showing its last status\n", name, sim.FormatTime(p.DeletedAt()))
	}

	bw := bufio.NewWriter(m.Stdout)
	defer bw.Flush()
	if *out == "json" {
		return 0, report.WriteDescribePodJSON(bw, w, p)
	}
	return 0, report.WriteDescribePod(bw, w, p)
}

// inNamespace is " in namespace ns" outside the default namespace, for
// messages.
func inNamespace(ns string) string {
	if ns == model.DefaultNamespace {
		return ""
	}
	return " in namespace " + ns
}

// describeNode is `podsim describe FILE node/NAME`: the node at --at as
// `kubectl describe node` shows it.
func (m *Main) describeNode(file, name string, at *durationFlag, over *overrides, maxEvents uint64) (int, error) {
	w, code, err := m.runTo(file, at, over, maxEvents)
	if w == nil || code != exitOK {
		return code, err
	}
	n := w.Node(name)
	if n == nil {
		var names []string
		for _, x := range w.Nodes() {
			names = append(names, x.Name)
		}
		return 0, fmt.Errorf("%s: node %q not found at %s; nodes: %s", file, name, sim.FormatTime(w.Now()), strings.Join(names, ", "))
	}
	if n.Gone() {
		fmt.Fprintf(m.Stderr, "podsim: node %s was deleted; showing its last status\n", name)
	}
	bw := bufio.NewWriter(m.Stdout)
	defer bw.Flush()
	return exitOK, report.WriteDescribeNode(bw, w, n)
}
