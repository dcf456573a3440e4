package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/benbjohnson/clock"

	"github.com/podsim/podsim/serve"
	"github.com/podsim/podsim/sim"
)

// defaultServeAddr is loopback: the API has no authentication, so it is
// served to the network only when --addr names another address.
const defaultServeAddr = "127.0.0.1:8001"

func (m *Main) serve(args []string) (int, error) {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	speed := speedFlag{x: 1}
	fs.Var(&speed, "speed", "play the run at this many virtual seconds per wall second (30: half a minute of cluster time a second)")
	var at durationFlag
	fs.Var(&at, "at", "run to this virtual time at once and serve the cluster frozen there (instead of --speed)")
	addr := fs.String("addr", defaultServeAddr, "listen on this address (an address other than loopback serves the cluster to the network, without authentication)")
	kubeconfig := fs.String("kubeconfig", "", "write a kubeconfig pointing at the server to this file")
	allowWrites := fs.Bool("allow-writes", false, "take kubectl apply -f and create -f of new pods and workloads, and delete pod, cordon, uncordon, drain (evictions, which disruption budgets may refuse), scale, set image, rollout undo and patch --subresource resize as the scenario's faults, at the current virtual time (else every write is refused)")
	maxEvents := maxEventsFlag(fs)
	over := overrideFlags(fs)
	files, err := parseArgs(fs, args)
	if err != nil {
		return 0, err
	}
	switch {
	case speed.set && at.set:
		return 0, usageError{"serve takes --speed or --at, not both"}
	case len(files) != 1:
		return 0, usageError{"serve takes one scenario file"}
	}
	s, err := m.loadFile(files[0])
	if err != nil {
		return 0, err
	}
	over.apply(s)
	o := serve.Options{Speed: speed.x, Until: s.Duration, AllowWrites: *allowWrites, Clock: clock.New(), MaxEvents: *maxEvents, Log: m.Stderr,
		TuneGC: os.Getenv("GOGC") == "" && os.Getenv("GOMEMLIMIT") == ""}
	if at.set {
		if o.At, err = at.until(s); err != nil {
			return 0, err
		}
		o.Speed = 0
	}

	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return 0, usageError{fmt.Sprintf("--addr %s: %v", *addr, err)}
	}
	if host, _, err := net.SplitHostPort(*addr); err == nil {
		if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			fmt.Fprintf(m.Stderr, "podsim serve: warning: %s is not a loopback address: anyone who reaches it can read the cluster, without authentication\n", *addr)
		}
	}
	bound := ln.Addr().String()
	if *kubeconfig != "" {
		if err := serve.WriteKubeconfig(*kubeconfig, bound); err != nil {
			ln.Close()
			return 0, err
		}
	}

	parent := m.ctx
	if parent == nil {
		parent = context.Background()
	}
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	srv := serve.New(s, o)
	mode := fmt.Sprintf("playing at %gx", o.Speed)
	if at.set {
		mode = "frozen at " + sim.FormatTime(o.At)
	}
	fmt.Fprintf(m.Stderr, "podsim serve: %s (%s of virtual time, %s) at http://%s", s.File.Metadata.Name, sim.FormatTime(s.Duration), mode, bound)
	if *kubeconfig != "" {
		fmt.Fprintf(m.Stderr, "; kubectl --kubeconfig %s get pods -w", *kubeconfig)
	}
	if *allowWrites {
		fmt.Fprint(m.Stderr, "; writes allowed")
	}
	fmt.Fprintln(m.Stderr, "; Ctrl-C stops it")

	hs := serve.HTTPServer(srv, ctx)
	go srv.Play(ctx)
	served := make(chan error, 1)
	go func() { served <- hs.Serve(serve.LimitListener(ln, serve.MaxConnections)) }()
	select {
	case <-ctx.Done():
		shutdown, stop := context.WithTimeout(context.Background(), 500*time.Millisecond)
		defer stop()
		hs.Shutdown(shutdown)
		return exitOK, nil
	case err := <-served:
		if errors.Is(err, http.ErrServerClosed) {
			return exitOK, nil
		}
		return 0, err
	}
}
