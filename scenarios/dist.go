package scenarios

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/podsim/podsim/model"
	"go.yaml.in/yaml/v3"
)

// DistKinds are the distributions a duration field accepts, as YAML keys.
var DistKinds = []string{"uniform", "normal", "lognormal", "exponential", "empirical"}

// DurationDist is a duration written as a Go duration ("30s", fixed) or as a
// distribution: a mapping with exactly one of
//
//	{uniform: {min: 10s, max: 30s}}
//	{normal: {mean: 30s, stddev: 5s}}       # truncated at 0
//	{lognormal: {median: 30s, sigma: 0.5}}
//	{exponential: {mean: 2m}}
//	{empirical: [10s, 20s, 45s]}            # each value as likely
//
// The zero DurationDist is the fixed duration 0.
type DurationDist struct {
	Fixed Duration   // the value when Dist is nil
	Dist  model.Dist // nil for a fixed duration
	bad   bool       // it could not be decoded (and was reported)
}

// FixedValue returns the duration and true if d is a fixed duration that
// was decoded without error.
func (d DurationDist) FixedValue() (time.Duration, bool) {
	return d.Fixed.D(), d.Dist == nil && !d.bad
}

// Model returns d as the model takes it: a fixed value, or a distribution
// (and 0).
func (d DurationDist) Model() (time.Duration, model.Dist) {
	if d.Dist != nil {
		return 0, d.Dist
	}
	return d.Fixed.D(), nil
}

// Sample returns the fixed value without touching r, or a draw from r.
func (d DurationDist) Sample(r *rand.Rand) time.Duration {
	if d.Dist == nil {
		return d.Fixed.D()
	}
	return d.Dist.Sample(r)
}

// String formats a fixed value like time.Duration, a distribution by its
// parameters.
func (d DurationDist) String() string {
	if d.Dist != nil {
		return d.Dist.String()
	}
	return d.Fixed.String()
}

// MarshalYAML writes a fixed value as a duration, a distribution as its
// String (for messages; it does not read back).
func (d DurationDist) MarshalYAML() (any, error) { return d.String(), nil }

const distHint = "a duration such as 30s, or a distribution such as {uniform: {min: 10s, max: 30s}}"

// UnmarshalYAML accepts a duration or a one-key distribution mapping. Its
// errors carry positions (an ErrorList without a file name).
func (d *DurationDist) UnmarshalYAML(n *yaml.Node) error {
	*d = DurationDist{bad: true}
	switch n.Kind {
	case yaml.ScalarNode:
		var f Duration
		if err := f.UnmarshalYAML(n); err != nil {
			return err
		}
		*d = DurationDist{Fixed: f}
		return nil
	case yaml.MappingNode:
	default:
		return fmt.Errorf("expected %s, found %s", distHint, describeNode(n))
	}
	var errs ErrorList
	pairs := distPairs(n, &errs, "distribution", DistKinds)
	if len(errs) > 0 {
		return errs
	}
	switch len(pairs) {
	case 0:
		return fmt.Errorf("empty distribution: want one of %s", strings.Join(DistKinds, ", "))
	case 1:
	default:
		return fmt.Errorf("a distribution takes exactly one of %s; found %d", strings.Join(DistKinds, ", "), len(pairs))
	}
	kind, v := pairs[0].name, pairs[0].val
	var dist model.Dist
	switch kind {
	case "empirical":
		if v.Kind != yaml.SequenceNode {
			return ErrorList{{Pos: nodePos(v), Msg: fmt.Sprintf("empirical: expected a list of durations such as [10s, 20s, 45s], found %s", describeNode(v))}}
		}
		if len(v.Content) == 0 {
			return ErrorList{{Pos: nodePos(v), Msg: "empirical: list at least one duration"}}
		}
		e := model.Empirical{}
		for _, item := range v.Content {
			x, ok := distDuration(item, &errs)
			if ok {
				e.Values = append(e.Values, x)
			}
		}
		dist = e
	default:
		if v.Kind != yaml.MappingNode {
			return ErrorList{{Pos: nodePos(v), Msg: fmt.Sprintf("%s: expected a mapping such as %s, found %s", kind, distExample[kind], describeNode(v))}}
		}
		dist = distParams(kind, v, &errs)
	}
	if len(errs) > 0 {
		return errs
	}
	*d = DurationDist{Dist: dist}
	return nil
}

var distExample = map[string]string{
	"uniform":     "{min: 10s, max: 30s}",
	"normal":      "{mean: 30s, stddev: 5s}",
	"lognormal":   "{median: 30s, sigma: 0.5}",
	"exponential": "{mean: 2m}",
}

var distFields = map[string][]string{
	"uniform":     {"min", "max"},
	"normal":      {"mean", "stddev"},
	"lognormal":   {"median", "sigma"},
	"exponential": {"mean"},
}

// distParams reads the parameters of a uniform, normal, lognormal or
// exponential distribution.
func distParams(kind string, n *yaml.Node, errs *ErrorList) model.Dist {
	before := len(*errs)
	pairs := distPairs(n, errs, kind, distFields[kind])
	got := map[string]*yaml.Node{}
	for _, p := range pairs {
		got[p.name] = p.val
	}
	for _, f := range distFields[kind] {
		if got[f] == nil && len(*errs) == before {
			errs.Add("", nodePos(n), "%s: %s is required (e.g. %s)", kind, f, distExample[kind])
		}
	}
	if len(*errs) > before {
		return nil
	}
	dur := func(f string) time.Duration {
		x, _ := distDuration(got[f], errs)
		return x
	}
	positive := func(f string, x time.Duration) {
		if x <= 0 && len(*errs) == before {
			errs.Add("", nodePos(got[f]), "%s: %s must be positive", kind, f)
		}
	}
	switch kind {
	case "uniform":
		lo, hi := dur("min"), dur("max")
		if hi < lo && len(*errs) == before {
			errs.Add("", nodePos(got["max"]), "uniform: max (%s) must not be less than min (%s)", hi, lo)
		}
		return model.Uniform{Min: lo, Max: hi}
	case "normal":
		return model.Normal{Mean: dur("mean"), StdDev: dur("stddev")}
	case "lognormal":
		m := dur("median")
		positive("median", m)
		s := got["sigma"]
		sigma, err := yamlFloat(s)
		switch {
		case err != nil:
			errs.Add("", nodePos(s), "lognormal: sigma: %s", err.Error())
		case sigma < 0:
			errs.Add("", nodePos(s), "lognormal: sigma must not be negative")
		}
		return model.LogNormal{Median: m, Sigma: sigma}
	default: // exponential
		m := dur("mean")
		positive("mean", m)
		return model.Exponential{Mean: m}
	}
}

type distPair struct {
	name     string
	key, val *yaml.Node
}

// distPairs lists the entries of mapping n, reporting keys that are not in
// allowed (what names the mapping in messages) and duplicates.
func distPairs(n *yaml.Node, errs *ErrorList, what string, allowed []string) []distPair {
	var out []distPair
	seen := map[string]Pos{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := resolveAliasChain(n.Content[i])
		v := resolveAliasChain(n.Content[i+1])
		kp := nodePos(n.Content[i])
		if k == nil || k.Kind != yaml.ScalarNode || v == nil {
			errs.Add("", kp, "expected one of %s, found %s", strings.Join(allowed, ", "), describeNode(n.Content[i]))
			continue
		}
		if first, dup := seen[k.Value]; dup {
			errs.Add("", kp, "duplicate field %q (already set at %s)", k.Value, first)
			continue
		}
		seen[k.Value] = kp
		if !slices.Contains(allowed, k.Value) {
			msg := fmt.Sprintf("unknown field %q in %s", k.Value, what)
			if what == "distribution" {
				msg = fmt.Sprintf("unknown distribution %q", k.Value)
			}
			if s := suggestName(k.Value, allowed); s != "" {
				msg += fmt.Sprintf("; did you mean %q?", s)
			} else {
				msg += " (want " + strings.Join(allowed, ", ") + ")"
			}
			errs.Add("", kp, "%s", msg)
			continue
		}
		out = append(out, distPair{k.Value, k, v})
	}
	return out
}

// distDuration reads one duration of a distribution.
func distDuration(n *yaml.Node, errs *ErrorList) (time.Duration, bool) {
	var d Duration
	if n.Kind != yaml.ScalarNode {
		errs.Add("", nodePos(n), "expected a duration such as 30s, 5m or 1h30m, found %s", describeNode(n))
		return 0, false
	}
	if err := d.UnmarshalYAML(n); err != nil {
		errs.Add("", nodePos(n), "%s", err.Error())
		return 0, false
	}
	return d.D(), true
}

// yamlFloat reads a number.
func yamlFloat(n *yaml.Node) (float64, error) {
	if n.Kind == yaml.ScalarNode && (n.ShortTag() == "!!int" || n.ShortTag() == "!!float") {
		f, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64)
		if err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			return f, nil
		}
	}
	return 0, fmt.Errorf("expected a number, found %s", describeNode(n))
}
