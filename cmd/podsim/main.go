// Command podsim simulates Kubernetes pod lifecycles from scenario files.
//
//	podsim run [FILE] [-o text|jsonl|json|html|svg|trace] [--at T] [--follow [--speed X]]
//	podsim test PATH... [-o text|jsonl|json] [--junit FILE] [--golden DIR [--update]]
//	podsim validate FILE...
//	podsim describe FILE POD|node/NODE [-n NS] [--at T]
//	podsim explain FILE [--at T] [-o text|json]
//	podsim sweep STUDY [-o text|markdown|csv|json] [--plots DIR] [--shard i/n] [--parallel N]
//	podsim merge SHARD... [-o text|markdown|csv|json] [--plots DIR]
//	podsim serve FILE [--speed X | --at T] [--addr A] [--kubeconfig OUT] [--allow-writes]
//	podsim version
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"
	"time"

	"github.com/benbjohnson/clock"

	_ "github.com/podsim/podsim/internal/heapstart" // the heap's first pages on huge pages, before the inits fault them in
	"github.com/podsim/podsim/internal/progress"
	"github.com/podsim/podsim/manifests"
	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/scenarios"
)

// Exit codes of the contract.
const (
	exitOK       = 0
	exitFailed   = 1 // expectations failed
	exitBadInput = 2 // bad input or usage
	exitSIGINT   = 130
)

func main() {
	// Ctrl-C stops a run cleanly: what it wrote so far is flushed and
	// complete, a summary goes to stderr, and podsim exits 130.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	done := make(chan struct{})
	go exitAfterInterrupt(ctx, done, interruptGrace, os.Stderr, os.Exit)
	batchGC(os.Args[1:])
	code := (&Main{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}).Run(ctx, os.Args[1:])
	close(done)
	stop()
	os.Exit(code)
}

// The collector's settings for a batch command (batchGC).
const (
	batchGCPercent   = 400
	batchMemoryLimit = 1536 << 20
)

// batchGC tunes the garbage collector for a command that builds a world,
// runs it and exits: nearly everything it allocates stays live to the
// end, so collecting at every doubling of the heap (GOGC=100) spends a
// quarter of the CPU to give little back. It collects at five times the
// live heap instead, and more often as the heap nears 1.5 GiB (a soft
// limit: the runtime collects harder, it never fails). GOGC or GOMEMLIMIT
// in the environment leaves the runtime's settings alone; serve, which
// lives on, keeps them too.
func batchGC(args []string) {
	if len(args) == 0 || os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	switch args[0] {
	case "run", "test", "sweep", "describe", "validate":
		debug.SetGCPercent(batchGCPercent)
		debug.SetMemoryLimit(batchMemoryLimit)
	}
}

// interruptGrace is how long a command may take to stop cleanly after
// Ctrl-C before podsim exits anyway.
const interruptGrace = 900 * time.Millisecond

// exitAfterInterrupt is the guarantee behind Ctrl-C: once ctx is canceled,
// a command that has not returned (done) within grace, whatever it is
// doing, is ended with exit 130 and a note that its output may be cut.
func exitAfterInterrupt(ctx context.Context, done <-chan struct{}, grace time.Duration, stderr io.Writer, exit func(int)) {
	select {
	case <-done:
		return
	case <-ctx.Done():
	}
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
		fmt.Fprintf(stderr, "\npodsim: interrupted: stopped after %s without finishing; the output may be cut short\n", grace)
		exit(exitSIGINT)
	}
}

// Main is the command line; only main calls os.Exit.
type Main struct {
	Stdin          io.Reader // read for a file named "-"
	Stdout, Stderr io.Writer
	Clock          clock.Clock // the wall clock of live replays and progress; nil: the real one
	Progress       io.Writer   // where progress is drawn; nil: Stderr if it is a terminal, else nowhere

	ctx      context.Context       // of the command running: canceled on SIGINT
	warnMode manifests.WarningMode // --warnings of the command running ("": summary)
}

// interrupted reports whether the user asked podsim to stop (SIGINT).
func (m *Main) interrupted() bool { return m.ctx != nil && m.ctx.Err() != nil }

// progressOut is where progress goes: Progress, or Stderr on a terminal
// (nil: nowhere).
func (m *Main) progressOut() io.Writer {
	if m.Progress != nil {
		return m.Progress
	}
	return progress.Terminal(m.Stderr)
}

// ticking returns what a checked run of w asks between chunks of events:
// it reports the run's progress to p, then whether the user interrupted.
func (m *Main) ticking(p *progress.Runs, name string, w *model.World, until time.Duration) func() bool {
	if p == nil {
		return m.interrupted
	}
	return func() bool {
		p.Tick(name, w.Now(), until, w.Engine().Fired())
		return m.interrupted()
	}
}

// maxEventsFlag is --max-events: the event budget of one run.
func maxEventsFlag(fs *flag.FlagSet) *uint64 {
	return fs.Uint64("max-events", model.DefaultMaxEvents,
		"stop a run that fires more events than this (reads of nodes by the scheduler and the node autoscalers count 6 to an event; with run and serve, each change written out or kept counts one), naming its busiest sources (0: no limit)")
}

const usage = `podsim simulates Kubernetes pod lifecycles in virtual time.

Usage:
  podsim run [FILE] [-o text|jsonl|json|trace]      simulate one scenario or manifests (no FILE: the demo; -: stdin)
      [--at T] [--follow [--speed X]]               ... up to T; play it live on the wall clock (kubectl get pods -w)
      [-o html|svg]                                 draw it: a page with a lane per pod, or a static picture
  podsim test PATH...                               run scenarios (files or folders) and check their expectations
      [-o text|jsonl|json] [--junit FILE]           results as JSON; also a JUnit XML report for CI
      [--golden DIR [--update]]                     also compare timelines with DIR/<name>.jsonl (--update: rewrite them)
  podsim validate FILE...                           check scenario, study and manifest files without running them
  podsim sweep STUDY [-o text|markdown|csv|json]    run a what-if study: every cell of its grid with several seeds
      [--plots DIR] [--parallel N]                  also draw plots (SVG, PNG); runs at once (default: every core)
      [--shard i/n]                                 run one shard of the runs and print them raw (JSON) for merge
  podsim merge SHARD... [-o ...] [--plots DIR]      combine the shards of a study into its result
  podsim describe FILE POD [-n NS] [--at T]         the pod as kubectl describe pod shows it (default: at the end)
  podsim describe FILE node/NODE [--at T]           the node as kubectl describe node shows it
  podsim explain FILE [--at T] [-o text|json]       why Pending pods wait for a node and nodes are kept (the node autoscaler's reasons)
  podsim serve FILE [--speed X | --at T]            serve the run through the Kubernetes API (kubectl, k9s, client-go)
      [--addr 127.0.0.1:8001] [--kubeconfig OUT]    where to listen; write a kubeconfig pointing at it
      [--allow-writes]                              take kubectl delete pod, (un)cordon, drain, scale, set image, rollout undo and resize as faults
  podsim snapshot [-n NS | -A] [-l SELECTOR]        read a live cluster (read-only) into a manifest file podsim runs from where it is
      [--kubeconfig FILE] [--context C] [-o FILE]   which cluster (default: kubectl's); where to write it (default: stdout)
  podsim completion bash|zsh|fish                   print a shell completion script
  podsim version                                    print the version
  podsim help [COMMAND]                             this text, or a command's flags and examples (also COMMAND --help)

Runs stop after --max-events events (default 20,000,000; node reads count 6 to an event, changes run writes out
one each; 0: no limit) and name what made them.
Exit codes: 0 success, 1 expectations failed, 2 bad input, usage or a run over its budget,
130 interrupted (Ctrl-C: the output so far is complete).
`

// usageError is a command-line mistake: exit 2 with a hint.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

// Run dispatches one subcommand and returns the process exit code.
func (m *Main) Run(ctx context.Context, args []string) int {
	m.ctx, m.warnMode = ctx, ""
	if len(args) == 0 {
		fmt.Fprint(m.Stderr, usage)
		return exitBadInput
	}
	var code int
	var err error
	switch name, rest := args[0], args[1:]; name {
	case "--version":
		name = "version"
		fallthrough
	default:
		if name == "-h" || name == "--help" {
			name = "help"
		}
		c := findCommand(name)
		if c == nil {
			err = usageError{fmt.Sprintf("unknown command %q", name)}
			break
		}
		code, err = c.run(m, rest)
		var hr helpRequested
		if errors.As(err, &hr) {
			printHelp(m.Stdout, c, hr.fs)
			return exitOK
		}
	}
	var ue usageError
	switch {
	case errors.Is(err, errInterrupted):
		fmt.Fprintln(m.Stderr, "podsim: interrupted")
		return exitSIGINT
	case errors.As(err, &ue):
		fmt.Fprintf(m.Stderr, "podsim: %s\nRun 'podsim help' for usage.\n", ue.msg)
		return exitBadInput
	case err != nil:
		fmt.Fprintln(m.Stderr, err)
		return exitBadInput
	}
	return code
}

// parseArgs parses flags anywhere among the arguments ("run FILE -o jsonl"
// as well as "run -o jsonl FILE") and returns the positional ones.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); errors.Is(err, flag.ErrHelp) {
			return nil, helpRequested{fs}
		} else if err != nil {
			return nil, usageError{err.Error()}
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// buildVersion, when set at build time (-ldflags "-X main.buildVersion=v"),
// names the build where no VCS information is at hand, as in an image
// built from a copy of the source: see the Dockerfile.
var buildVersion string

func version() string {
	v := "(devel)"
	if buildVersion != "" {
		v = buildVersion
		if bi, ok := debug.ReadBuildInfo(); ok {
			v += " " + bi.GoVersion
		}
		return v
	}
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			// Go stamps the tag, or a pseudo-version that names the
			// commit, and whether the tree was modified (+dirty).
			return bi.Main.Version + " " + bi.GoVersion
		}
		for _, s := range bi.Settings {
			switch {
			case s.Key == "vcs.revision" && len(s.Value) >= 12:
				v += " " + s.Value[:12]
			case s.Key == "vcs.modified" && s.Value == "true":
				v += "-dirty"
			}
		}
		v += " " + bi.GoVersion
	}
	return strings.TrimSpace(v)
}

// stdinName names standard input (a file given as "-") in messages.
const stdinName = "<stdin>"

// loadFile loads FILE, or standard input for "-": a scenario, with the
// manifests it includes, or Kubernetes manifests (a file or a folder) run
// as they are. Its warnings go to stderr.
func (m *Main) loadFile(path string) (*scenarios.Scenario, error) {
	r := manifests.NewReader()
	var s *scenarios.Scenario
	if path == "-" {
		data, name, err := m.readFile(path)
		if err != nil {
			return nil, err
		}
		if s, err = r.Parse(name, data); err != nil {
			return nil, err
		}
	} else {
		var err error
		if s, err = r.Load(path); err != nil {
			return nil, err
		}
	}
	m.warn(s.Warnings)
	return s, nil
}

// readFile reads FILE, or standard input for "-", through the size limit;
// it returns the bytes and the name for messages.
func (m *Main) readFile(path string) ([]byte, string, error) {
	if path != "-" {
		data, err := scenarios.ReadFile(path)
		return data, path, err
	}
	if m.Stdin == nil {
		return nil, stdinName, fmt.Errorf("%s: no standard input", stdinName)
	}
	// A read of a pipe blocks until its writer writes or ends: read it
	// aside, so that Ctrl-C ends the wait.
	type read struct {
		data []byte
		err  error
	}
	done := make(chan read, 1)
	go func() {
		data, err := scenarios.ReadAll(stdinName, m.Stdin)
		done <- read{data, err}
	}()
	var ctxDone <-chan struct{}
	if m.ctx != nil {
		ctxDone = m.ctx.Done()
	}
	select {
	case r := <-done:
		return r.data, stdinName, r.err
	case <-ctxDone:
		return nil, stdinName, errInterrupted
	}
}

// errInterrupted is the error of a command that Ctrl-C stopped before it
// had anything to show: exit 130.
var errInterrupted = errors.New("interrupted")
