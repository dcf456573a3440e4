package scenarios

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// validate checks the study file; root is where its mapping starts, the
// place of problems with what was not written at all.
func (s *Study) validate(metrics []string, root Pos) ErrorList {
	c := &studyCheck{s: s, root: root}
	f := &s.File
	if f.APIVersion != APIVersion {
		c.errs.Add(s.Path, c.where(s.pos.KeyOf(&f.APIVersion)), "apiVersion must be %q, not %q", APIVersion, f.APIVersion)
	}
	if f.Kind != KindStudy {
		c.errs.Add(s.Path, c.where(s.pos.KeyOf(&f.Kind)), "kind must be %q, not %q", KindStudy, f.Kind)
	}
	switch n := f.Metadata.Name; {
	case n == "":
		c.at(&f.Metadata, "study: name is required")
	case len(n) > 63 || !dnsLabel().MatchString(n):
		c.at(&f.Metadata.Name, "study name %q: want lowercase letters, digits and '-', starting and ending with a letter or digit (at most 63)", n)
	}
	sp := &f.Spec
	if sp.Scenario == "" {
		c.at(sp, "study: scenario is required (the base scenario file, relative to the study)")
	}
	if sp.Seeds != nil && (*sp.Seeds < 1 || *sp.Seeds > MaxSeeds) {
		c.at(sp.Seeds, "seeds must be 1..%d", MaxSeeds)
	}
	if sp.Duration != nil && sp.Duration.D() <= 0 {
		c.at(sp.Duration, "duration must be positive")
	}
	cells := 1
	names, varied := map[string]Pos{}, map[string]Pos{}
	for i := range sp.Parameters {
		p := &sp.Parameters[i]
		c.parameter(p, names, varied)
		cells = mulSat(cells, max(len(p.Values), 1), MaxCells)
	}
	seeds := 5
	if sp.Seeds != nil && *sp.Seeds >= 1 && *sp.Seeds <= MaxSeeds {
		seeds = *sp.Seeds
	}
	switch {
	case cells > MaxCells:
		c.at(&sp.Parameters, "the grid has more than %d cells", MaxCells)
	case mulSat(cells, seeds, MaxRuns) > MaxRuns:
		c.at(&sp.Parameters, "%d cells x %d seeds = %d runs; a study has at most %d", cells, seeds, cells*seeds, MaxRuns)
	}
	c.metrics(sp.Metrics, metrics)
	if o := sp.Output.Format; o != "" && !slices.Contains(StudyFormats, o) {
		c.at(&sp.Output.Format, "output format %q: want one of %s", o, strings.Join(StudyFormats, ", "))
	}
	if r := sp.Output.Restarts; r != "" && r != RestartsPerPod && r != RestartsTotal {
		c.at(&sp.Output.Restarts, "output restarts %q: want %s or %s", r, RestartsPerPod, RestartsTotal)
	}
	if err := CheckPlotsFolder(sp.Output.Plots); err != nil {
		c.at(&sp.Output.Plots, "%v", err)
	}
	return c.errs
}

// CheckPlotsFolder checks a study's output.plots (of a study file or a
// shard's header): a folder inside the working folder, so that a file
// from elsewhere cannot write outside it. The --plots flag is free.
func CheckPlotsFolder(dir string) error {
	if dir != "" && !filepath.IsLocal(dir) {
		return fmt.Errorf("output plots %q: want a folder inside the working folder (relative, without ..); --plots writes anywhere", dir)
	}
	return nil
}

// studyCheck collects the problems of a study file.
type studyCheck struct {
	s    *Study
	root Pos // where the file's mapping starts
	errs ErrorList
}

// where is p, or root for a value not written at all (such as a missing
// metadata).
func (c *studyCheck) where(p Pos) Pos {
	if p.IsZero() {
		return c.root
	}
	return p
}

func (c *studyCheck) at(ptr any, format string, args ...any) {
	c.errs.Add(c.s.Path, c.where(c.s.pos.Of(ptr)), format, args...)
}

// parameter checks one parameter: its paths, each varied once, its name,
// used once (names and varied hold where each was first seen), and its
// values and labels.
func (c *studyCheck) parameter(p *Parameter, names, varied map[string]Pos) {
	paths := p.paths()
	switch {
	case p.Path != "" && p.Paths != nil:
		c.at(p, "a parameter takes path or paths, not both")
	case len(paths) == 0:
		c.at(p, "a parameter needs a path (or paths)")
	}
	dup := false
	for j, ph := range paths {
		ptr := &p.Path
		if p.Paths != nil {
			ptr = &p.Paths[j]
		}
		steps, err := parsePath(ph)
		switch {
		case err != nil:
			c.at(ptr, "%s", err.Error())
		case len(steps) == 1 && (steps[0].field == "duration" || steps[0].field == "seed"):
			c.at(ptr, "a study does not vary %s: its spec.duration and spec.seeds set it for every cell", steps[0].field)
		case steps[0].field == "expect":
			c.at(ptr, "a study does not vary expect: a sweep checks no expectations")
		}
		key := strings.TrimPrefix(ph, "spec.")
		if first, ok := varied[key]; ok {
			c.at(ptr, "path %s is varied twice (already at %s)", ph, first)
			dup = true
		} else {
			varied[key] = c.s.pos.Of(ptr)
		}
	}
	if len(paths) > 0 || p.Name != "" {
		ptr := any(&p.Name)
		if p.Name == "" {
			ptr = &p.Path
			if p.Paths != nil {
				ptr = &p.Paths[0]
			}
		}
		n := p.name()
		switch first, ok := names[n]; {
		case !ok:
			names[n] = c.s.pos.Of(ptr)
		case !dup: // a repeated path is reported already
			c.at(ptr, "parameter name %q is used twice (already at %s)", n, first)
		}
	}
	if len(p.Values) == 0 {
		c.at(p, "parameter %s: list at least one value", p.name())
	}
	if len(paths) > 1 {
		for j := range p.Values {
			v := &p.Values[j]
			if v.Kind != yaml.SequenceNode || len(v.Content) != len(paths) {
				c.errs.Add(c.s.Path, nodePos(v), "with %d paths, each value is a list of %d values, one per path", len(paths), len(paths))
			}
		}
	}
	if p.Labels != nil && len(p.Labels) != len(p.Values) {
		c.at(&p.Labels, "%d labels for %d values", len(p.Labels), len(p.Values))
	}
}

// metrics checks the metrics a study lists: each known (one of known) and
// listed once.
func (c *studyCheck) metrics(list, known []string) {
	seen := map[string]bool{}
	for i := range list {
		m := &list[i]
		switch {
		case seen[*m]:
			c.at(m, "metric %q is listed twice", *m)
		case !slices.Contains(known, *m):
			msg := fmt.Sprintf("unknown metric %q", *m)
			if sg := suggestName(*m, known); sg != "" {
				msg += fmt.Sprintf("; did you mean %q?", sg)
			} else {
				msg += " (want one of " + strings.Join(known, ", ") + ")"
			}
			c.at(m, "%s", msg)
		}
		seen[*m] = true
	}
}

// sameTargets refuses two parameters whose paths name the same value of
// the base scenario by different spellings (workloads[api] and
// workloads[0], or through an alias): the last one set would win in every
// cell while the table showed both. Paths that fail to resolve are left
// to the cells' own errors.
func (s *Study) sameTargets(bdoc *yaml.Node) ErrorList {
	var errs ErrorList
	seen := map[string]string{}
	sp := &s.File.Spec
	for i := range sp.Parameters {
		p := &sp.Parameters[i]
		for j, ph := range p.paths() {
			ptr := &p.Path
			if p.Paths != nil {
				ptr = &p.Paths[j]
			}
			steps, err := parsePath(ph)
			if err != nil {
				continue
			}
			t := target(bdoc, steps)
			if first, ok := seen[t]; ok && first != ph {
				errs.Add(s.Path, s.pos.Of(ptr), "path %s names what path %s names in %s: a value is varied once", ph, first, filepath.Base(sp.Scenario))
				continue
			}
			seen[t] = ph
		}
	}
	return errs
}

// target names the value steps lead to in the scenario document doc: the
// deepest node that exists on the way (by identity, so that an index, a
// name and an alias that reach it agree) and the steps left.
func target(doc *yaml.Node, steps []pathStep) string {
	cur := doc
	if cur.Kind == yaml.DocumentNode && len(cur.Content) > 0 {
		cur = cur.Content[0]
	}
	steps = append([]pathStep{{field: "spec"}}, steps...)
	for i, st := range steps {
		next := step(resolveAliasChain(cur), st)
		if next == nil {
			var rest []string
			for _, r := range steps[i:] {
				rest = append(rest, fmt.Sprintf("%s[%d:%s]", r.field, r.index, r.name))
			}
			return fmt.Sprintf("%p/%s", cur, strings.Join(rest, "/"))
		}
		cur = next
	}
	return fmt.Sprintf("%p", resolveAliasChain(cur))
}

// step is the node st selects in n, or nil.
func step(n *yaml.Node, st pathStep) *yaml.Node {
	switch {
	case n == nil:
		return nil
	case !st.sel && n.Kind == yaml.MappingNode:
		for j := 0; j+1 < len(n.Content); j += 2 {
			if k := resolveAliasChain(n.Content[j]); k != nil && k.Value == st.field && !isNull(n.Content[j+1]) {
				return n.Content[j+1]
			}
		}
	case st.sel && n.Kind == yaml.SequenceNode:
		if st.index >= 0 {
			if st.index < len(n.Content) {
				return n.Content[st.index]
			}
			return nil
		}
		for _, it := range n.Content {
			if itemName(it) == st.name {
				return it
			}
		}
	}
	return nil
}
