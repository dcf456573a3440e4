package manifests

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/podsim/podsim/internal/yamlstrict"
)

// WarningMode is how many warnings a command prints.
type WarningMode string

// Warning modes (--warnings).
const (
	WarnSummary WarningMode = "summary" // ignored kinds grouped per file, a repeated field warning once
	WarnAll     WarningMode = "all"     // each, once
	WarnNone    WarningMode = "none"
)

// ignoredKind matches the warning of an ignored object (object, in
// manifests.go, writes it): its kind and why it is ignored.
var ignoredKind = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^warning: \S+ (\S+) (?:"(?:[^"\\]|\\.)*"|\(no name\)) is ignored: (.+)$`)
})

// Warnings returns the warnings to print of ws in mode: none; each once
// (a file included twice warns once); or, in summary, one line per file
// for its ignored objects ("warning: 12 objects ignored: 11
// ServiceAccounts, 1 ClusterRole (no API access)") where it has more than
// one, and a
// field warning repeated in a file once, with the count. Other warnings
// are kept as they are, in their order.
func Warnings(ws ErrorList, mode WarningMode) ErrorList {
	if mode == WarnNone {
		return nil
	}
	var out ErrorList
	seen := map[string]bool{}
	for _, w := range ws {
		if s := w.Error(); !seen[s] {
			seen[s] = true
			out = append(out, w)
		}
	}
	if mode == WarnAll {
		return out
	}
	return summarize(out)
}

// kindTally counts one file's ignored objects of one kind.
type kindTally struct {
	kind string
	n    int
}

// reasonTally is one file's ignored objects for one reason, by kind.
type reasonTally struct {
	why   string
	kinds []kindTally
}

// fileSummary is one file's ignored objects, by reason and kind in order
// of first mention, and where its line goes among the warnings.
type fileSummary struct {
	at      int // index in the output of its first ignored object
	n       int
	reasons []reasonTally
}

func summarize(ws ErrorList) ErrorList {
	var files []*fileSummary
	byFile := map[string]*fileSummary{}
	first := map[[2]string]int{} // a field warning's (file, message): its index in out
	var counts []int             // by index in out: how many times it was said
	var out ErrorList
	for _, w := range ws {
		if m := ignoredKind().FindStringSubmatch(w.Msg); m != nil {
			f := byFile[w.File]
			if f == nil {
				f = &fileSummary{at: len(out)}
				byFile[w.File] = f
				files = append(files, f)
				out, counts = append(out, w), append(counts, 1)
			}
			f.add(m[1], shortReason(m[2]))
			continue
		}
		if strings.HasPrefix(w.Msg, "warning: ") && strings.Contains(w.Msg, " is not simulated: ") {
			k := [2]string{w.File, w.Msg}
			if i, ok := first[k]; ok {
				counts[i]++
				continue
			}
			first[k] = len(out)
		}
		out, counts = append(out, w), append(counts, 1)
	}
	for _, f := range files {
		if f.n > 1 {
			out[f.at] = yamlstrict.Error{File: out[f.at].File,
				Msg: fmt.Sprintf("warning: %d objects ignored: %s (--warnings=all lists each)", f.n, f)}
		}
	}
	for i, n := range counts {
		if n > 1 {
			out[i].Msg += fmt.Sprintf(" (%d times in this file; --warnings=all lists each)", n)
		}
	}
	return out
}

func (f *fileSummary) add(kind, why string) {
	f.n++
	i := 0
	for i < len(f.reasons) && f.reasons[i].why != why {
		i++
	}
	if i == len(f.reasons) {
		f.reasons = append(f.reasons, reasonTally{why: why})
	}
	r := &f.reasons[i]
	for j := range r.kinds {
		if r.kinds[j].kind == kind {
			r.kinds[j].n++
			return
		}
	}
	r.kinds = append(r.kinds, kindTally{kind: kind, n: 1})
}

// String is "11 ServiceAccounts, 1 ClusterRole (no API access); 1 Service
// (no networking)".
func (f *fileSummary) String() string {
	var b strings.Builder
	for i, r := range f.reasons {
		if i > 0 {
			b.WriteString("; ")
		}
		for j, k := range r.kinds {
			if j > 0 {
				b.WriteString(", ")
			}
			name := k.kind
			if k.n > 1 {
				name = plural(name)
			}
			fmt.Fprintf(&b, "%d %s", k.n, name)
		}
		fmt.Fprintf(&b, " (%s)", r.why)
	}
	return b.String()
}

// shortReason is why a kind is ignored, in short: "no networking" of
// "podsim simulates no networking", "no autoscaling" of "podsim simulates
// no autoscaling: replicas stay as written", "unknown kind" of "podsim
// does not know this kind".
func shortReason(why string) string {
	if why == "podsim does not know this kind" {
		return "unknown kind"
	}
	why = strings.TrimPrefix(why, "podsim simulates ")
	why, _, _ = strings.Cut(why, ":")
	return why
}

// plural is the plural of a kind: ServiceAccounts, Ingresses,
// NetworkPolicies, Endpoints.
func plural(kind string) string {
	switch {
	case strings.HasSuffix(kind, "ss"), strings.HasSuffix(kind, "x"), strings.HasSuffix(kind, "ch"), strings.HasSuffix(kind, "sh"):
		return kind + "es"
	case strings.HasSuffix(kind, "s"):
		return kind
	case len(kind) > 1 && strings.HasSuffix(kind, "y") && !strings.ContainsAny(kind[len(kind)-2:len(kind)-1], "aeiou"):
		return kind[:len(kind)-1] + "ies"
	}
	return kind + "s"
}
