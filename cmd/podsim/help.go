package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
)

// command is one subcommand as help and completion describe it.
type command struct {
	name     string
	usage    string // the synopsis after "podsim"
	summary  string
	examples []string
	run      func(m *Main, args []string) (int, error)
}

// commands lists every subcommand, in the order help lists them.
var commands = []command{
	{"run", "run [FILE] [flags]", "Simulate one scenario (no FILE: the embedded demo; FILE may also be Kubernetes manifests, a file or a folder as for kubectl apply -f, run as they are on the default cluster) and print its timeline and `kubectl get pods` (and `kubectl get jobs`, if it has Jobs) at the end; or draw it (-o html, -o svg); or its Chrome trace (-o trace); or play it live on the wall clock as `kubectl get pods -w` (--follow). On a terminal, a long run shows its progress on stderr.",
		[]string{"podsim run scenarios/demo.yaml", "podsim run scenarios/demo.yaml --at 60s", "podsim run k8s/app.yaml -o jsonl > timeline.jsonl",
			"podsim run scenarios/demo.yaml -o html > demo.html", "podsim run scenarios/demo.yaml -o svg > demo.svg",
			"podsim run my-scenario.yaml -o trace > trace.json   # open in ui.perfetto.dev", "podsim run scenarios/demo.yaml --follow --speed 60",
			"podsim run scenarios/demo.yaml --follow -o jsonl",
			"podsim run scenarios/realistic/crashloop-describe.yaml   # settings.kubeletSync: realistic, the kubelet's pod worker cadence"},
		(*Main).run},
	{"test", "test PATH... [flags]", "Run scenarios (files, or folders searched for *.yaml; a manifest file runs as it is, without expectations) on every core and check their expectations; print a line per scenario and `N passed, M failed`. Exit 0 all passed, 1 some failed, 2 bad input. On a terminal, long runs show their progress on stderr.",
		[]string{"podsim test scenarios", "podsim test scenarios --junit reports/podsim.xml", "podsim test scenarios --golden testdata/timelines"},
		(*Main).test},
	{"validate", "validate FILE... [flags]", "Check scenario, study and manifest files (or folders of manifests) without running them: every problem as FILE:LINE:COL: message (exit 2); warn when a run would go over its event budget.",
		[]string{"podsim validate my-scenario.yaml", "podsim validate scenarios/studies/*.yaml"},
		(*Main).validate},
	{"describe", "describe FILE POD|node/NODE [flags]", "Show one pod as `kubectl describe pod` would (POD or pod/POD), or one node as `kubectl describe node` would (node/NODE, text only), at the end of the run or at --at. A Pending pod, and a node, of which a node autoscaler has something to say show it in an Autoscaler section.",
		[]string{"podsim describe scenarios/demo.yaml web", "podsim describe scenarios/demo.yaml web --at 4m -o json", "podsim describe scenarios/cluster/out-of-capacity.yaml node/node-0 --at 1m", "podsim describe scenarios/manifests/k8s/shop-app.yaml web-1 -n shop",
			"podsim describe scenarios/realistic/crashloop-describe.yaml api   # events as the API holds them: counts, the spam filter"},
		(*Main).describe},
	{"explain", "explain FILE [flags]", "Say why, at the end of the run or at --at, each Pending pod waits for a node (the scheduler's last FailedScheduling message, and the node autoscaler's account: which node group or NodePool could fit it and why it did not scale) and why each node the autoscaler keeps is not removed (which pod blocks it, by which rule). Without a node autoscaler in the scenario it says so.",
		[]string{"podsim explain my-scenario.yaml --at 5m", "podsim explain scenarios/cluster/out-of-capacity.yaml --at 1m   # no autoscaler: the scheduler's reason only"},
		(*Main).explain},
	{"serve", "serve FILE [flags]", "Serve the run through the Kubernetes API over HTTP, paced against the wall clock (--speed) or frozen at --at, so that kubectl, k9s and client-go list and watch it.",
		[]string{"podsim serve scenarios/demo.yaml --speed 30 --kubeconfig podsim.kubeconfig", "kubectl --kubeconfig podsim.kubeconfig get pods -w",
			"podsim serve scenarios/demo.yaml --at 4m --kubeconfig podsim.kubeconfig", "podsim serve my-scenario.yaml --allow-writes --addr 127.0.0.1:8080",
			"podsim serve my-cluster.yaml --speed 10 --allow-writes --kubeconfig podsim.kubeconfig   # kubectl drain, cordon, scale and set image act on the run"},
		(*Main).serve},
	{"snapshot", "snapshot [flags]", "Read a live cluster through its kubeconfig, read-only (GET requests only), into one manifest file that podsim runs from where the cluster is: its Nodes, PriorityClasses, workloads, PodDisruptionBudgets, HorizontalPodAutoscalers, Services and pods, as one v1 List. Secrets and ConfigMaps are not read. See docs/from-your-cluster.md.",
		[]string{"podsim snapshot -A -o cluster.yaml", "podsim snapshot --kubeconfig ~/.kube/prod --context prod -n shop -o shop.yaml",
			"podsim snapshot -A -l team=payments -o payments.yaml", "podsim run cluster.yaml -o text"},
		(*Main).snapshot},
	{"sweep", "sweep STUDY [flags]", "Run a what-if study: every cell of its grid with several seeds, then a table of statistics per metric and cell, and plots. On a terminal, a bar on stderr shows the runs done and the time left.",
		[]string{"podsim sweep scenarios/studies/kep-4603-backoff.yaml", "podsim sweep scenarios/studies/kubelet-sync.yaml",
			"podsim sweep STUDY.yaml -o markdown --plots plots/", "podsim sweep STUDY.yaml --shard 0/4 > shard-0.json"},
		(*Main).sweep},
	{"merge", "merge SHARD... [flags]", "Combine the shards of a study (podsim sweep --shard i/n) into what one podsim sweep prints.",
		[]string{"podsim merge shard-*.json", "podsim merge shard-*.json -o csv --plots plots/"},
		(*Main).merge},
	{"completion", "completion bash|zsh|fish", "Print a shell completion script.",
		[]string{"source <(podsim completion bash)", "podsim completion zsh > \"${fpath[1]}/_podsim\"", "podsim completion fish > ~/.config/fish/completions/podsim.fish"},
		nil}, // set in init: completion reads commands
	{"version", "version", "Print podsim's module version, VCS revision and Go version.",
		[]string{"podsim version"},
		func(m *Main, args []string) (int, error) {
			if _, err := parseArgs(flag.NewFlagSet("version", flag.ContinueOnError), args); err != nil {
				return 0, err
			}
			fmt.Fprintln(m.Stdout, "podsim", version())
			return exitOK, nil
		}},
	{"help", "help [COMMAND]", "Print the usage of podsim, or of one command.",
		[]string{"podsim help", "podsim help run"},
		nil}, // set in init: help reads commands
}

func init() {
	findCommand("help").run = (*Main).help
	findCommand("completion").run = (*Main).completion
}

func findCommand(name string) *command {
	for i := range commands {
		if commands[i].name == name {
			return &commands[i]
		}
	}
	return nil
}

// helpRequested is the "error" of a command called with -h or --help: its
// flags, for the help text.
type helpRequested struct{ fs *flag.FlagSet }

func (helpRequested) Error() string { return "help requested" }

// flagsOf returns the flag set of a command, by asking it for its help.
func (m *Main) flagsOf(c *command) *flag.FlagSet {
	_, err := c.run(&Main{Stdout: io.Discard, Stderr: io.Discard}, []string{"--help"})
	var hr helpRequested
	if errors.As(err, &hr) {
		return hr.fs
	}
	return flag.NewFlagSet(c.name, flag.ContinueOnError)
}

// printHelp writes a command's help: usage, summary, flags with their
// defaults, examples.
func printHelp(w io.Writer, c *command, fs *flag.FlagSet) {
	fmt.Fprintf(w, "Usage: podsim %s\n\n%s\n", c.usage, c.summary)
	var flags strings.Builder
	fs.SetOutput(&flags)
	fs.PrintDefaults()
	fs.SetOutput(io.Discard)
	if flags.Len() > 0 {
		fmt.Fprintf(w, "\nFlags:\n%s", flags.String())
	}
	fmt.Fprintf(w, "\nExamples:\n")
	for _, e := range c.examples {
		fmt.Fprintf(w, "  %s\n", e)
	}
}

// help prints podsim's usage or a command's help.
func (m *Main) help(args []string) (int, error) {
	fs := flag.NewFlagSet("help", flag.ContinueOnError)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 0, err
	}
	switch len(pos) {
	case 0:
		fmt.Fprint(m.Stdout, usage)
		return exitOK, nil
	case 1:
		c := findCommand(pos[0])
		if c == nil {
			return 0, usageError{fmt.Sprintf("help: unknown command %q", pos[0])}
		}
		printHelp(m.Stdout, c, m.flagsOf(c))
		return exitOK, nil
	}
	return 0, usageError{"help takes at most one command"}
}

// completion prints a completion script for bash, zsh or fish: commands,
// and each command's flags.
func (m *Main) completion(args []string) (int, error) {
	fs := flag.NewFlagSet("completion", flag.ContinueOnError)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return 0, err
	}
	if len(pos) != 1 || !slices.Contains([]string{"bash", "zsh", "fish"}, pos[0]) {
		return 0, usageError{"completion takes one shell: bash, zsh or fish"}
	}
	var names []string
	flagsOf := map[string][]string{}
	for i := range commands {
		c := &commands[i]
		names = append(names, c.name)
		m.flagsOf(c).VisitAll(func(f *flag.Flag) {
			flagsOf[c.name] = append(flagsOf[c.name], "--"+f.Name)
		})
	}
	w := m.Stdout
	switch pos[0] {
	case "bash":
		fmt.Fprintf(w, "# bash completion for podsim: source <(podsim completion bash)\n_podsim() {\n")
		fmt.Fprintf(w, "  local cur=${COMP_WORDS[COMP_CWORD]}\n  if [ \"$COMP_CWORD\" -eq 1 ]; then\n")
		fmt.Fprintf(w, "    COMPREPLY=($(compgen -W %q -- \"$cur\")); return\n  fi\n", strings.Join(names, " "))
		fmt.Fprintf(w, "  local flags=\"\"\n  case ${COMP_WORDS[1]} in\n")
		for _, n := range names {
			if len(flagsOf[n]) > 0 {
				fmt.Fprintf(w, "    %s) flags=%q ;;\n", n, strings.Join(flagsOf[n], " "))
			}
		}
		fmt.Fprintf(w, "  esac\n  if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W \"$flags\" -- \"$cur\")); else COMPREPLY=($(compgen -f -- \"$cur\")); fi\n}\ncomplete -o filenames -F _podsim podsim\n")
	case "zsh":
		fmt.Fprintf(w, "#compdef podsim\n# zsh completion for podsim: podsim completion zsh > \"${fpath[1]}/_podsim\"\n_podsim() {\n")
		fmt.Fprintf(w, "  if (( CURRENT == 2 )); then\n    compadd -- %s\n    return\n  fi\n  case $words[2] in\n", strings.Join(names, " "))
		for _, n := range names {
			if len(flagsOf[n]) > 0 {
				fmt.Fprintf(w, "    %s) _arguments '*:file:_files' %s ;;\n", n, quoteAll(flagsOf[n]))
			}
		}
		fmt.Fprintf(w, "    *) _files ;;\n  esac\n}\ncompdef _podsim podsim\n")
	case "fish":
		fmt.Fprintf(w, "# fish completion for podsim: podsim completion fish > ~/.config/fish/completions/podsim.fish\n")
		for i := range commands {
			c := &commands[i]
			fmt.Fprintf(w, "complete -c podsim -n __fish_use_subcommand -a %s -d %q\n", c.name, firstSentence(c.summary))
			for _, f := range flagsOf[c.name] {
				fmt.Fprintf(w, "complete -c podsim -n '__fish_seen_subcommand_from %s' -l %s\n", c.name, strings.TrimPrefix(f, "--"))
			}
		}
	}
	return exitOK, nil
}

func quoteAll(ss []string) string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = "'" + s + "'"
	}
	return strings.Join(out, " ")
}

func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i]
	}
	return strings.TrimSuffix(s, ".")
}
