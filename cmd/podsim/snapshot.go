package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"

	"github.com/podsim/podsim/snapshot"
)

// snapshot is `podsim snapshot`: a live cluster, read-only, into one
// manifest file that podsim runs from where the cluster is.
func (m *Main) snapshot(args []string) (int, error) {
	fs := flag.NewFlagSet("snapshot", flag.ContinueOnError)
	kubeconfig := fs.String("kubeconfig", "", "the kubeconfig to read the cluster's address and credentials from (default: $KUBECONFIG, else ~/.kube/config)")
	context := fs.String("context", "", "the kubeconfig's context (default: its current context)")
	ns := fs.String("n", "", "read the namespaced objects of this namespace (default: the context's, else default)")
	all := fs.Bool("A", false, "read the namespaced objects of every namespace")
	selector := fs.String("l", "", "read only the namespaced objects with these labels (a label selector, as kubectl -l); Nodes and PriorityClasses are read whole")
	out := fs.String("o", "", "write the manifest file here (default: standard output)")
	pos, err := parseArgs(fs, args)
	switch {
	case err != nil:
		return 0, err
	case len(pos) > 0:
		return 0, usageError{"snapshot takes no FILE: it reads the cluster of --kubeconfig and writes -o FILE"}
	case *all && *ns != "":
		return 0, usageError{"-n and -A: read one namespace, or every one"}
	}
	var buf bytes.Buffer
	err = snapshot.Take(m.ctx, snapshot.Options{Kubeconfig: *kubeconfig, Context: *context, Namespace: *ns, AllNamespaces: *all,
		Selector: *selector, Note: func(msg string) { fmt.Fprintln(m.Stderr, "podsim snapshot: "+msg) }}, &buf)
	if err != nil {
		return 0, fmt.Errorf("podsim snapshot: %v", err)
	}
	if *out == "" {
		_, err = m.Stdout.Write(buf.Bytes())
		return exitOK, err
	}
	if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		return 0, fmt.Errorf("podsim snapshot: %v", err)
	}
	return exitOK, nil
}
