package scenarios

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/podsim/podsim/model"
	"go.yaml.in/yaml/v3"
)

// SeriesKinds are the forms of a request rate besides a number, as YAML keys.
var SeriesKinds = []string{"steps", "ramp", "daily", "spikes", "csv"}

var seriesFields = map[string][]string{
	"ramp":   {"from", "to", "over", "at"},
	"daily":  {"min", "max", "peakAt"},
	"spikes": {"base", "peak", "every", "for", "at"},
}

// Resolutions at which a ramp and a daily curve are stepped: each step
// holds the curve's value at its middle, so that a ramp's count is exact.
const (
	rampStep  = time.Second
	dailyStep = time.Minute
)

// maxRPS bounds a rate: a billion requests per second.
const maxRPS = 1e9

// Series is a request rate over time (requests per second), written as a
// number (constant) or a mapping with exactly one of
//
//	{steps: [[0s, 100], [5m, 200]]}            # each value from its time on; 0 before the first
//	{ramp: {from: 0, to: 200, over: 10m, at: 1m}}
//	{daily: {min: 50, max: 400, peakAt: 14h}}  # a sine over 24 h
//	{spikes: {base: 100, peak: 800, every: 10m, for: 30s, at: 5m}}
//	{csv: load.csv}                            # t,rps lines, relative to the scenario file
type Series struct {
	kind  string // "" for a constant
	steps []model.RateStep
	a, b  int64         // ramp from/to, daily min/max, spikes base/peak (milli-rps)
	over  time.Duration // ramp: its length; spikes: every
	dur   time.Duration // spikes: each spike's length
	at    time.Duration // ramp, spikes: the start; daily: peakAt
	CSV   string        // the csv file as written
	bad   bool
}

const seriesHint = "a rate such as 200, or one of {steps: ...}, {ramp: ...}, {daily: ...}, {spikes: ...}, {csv: FILE}"

// UnmarshalYAML reads a number or a one-key mapping. Its errors carry
// positions.
func (s *Series) UnmarshalYAML(n *yaml.Node) error {
	*s = Series{bad: true}
	var errs ErrorList
	switch n.Kind {
	case yaml.ScalarNode:
		v, ok := rate(n, &errs)
		if !ok {
			return errs
		}
		*s = Series{steps: []model.RateStep{{MilliRPS: v}}}
		return nil
	case yaml.MappingNode:
	default:
		return fmt.Errorf("expected %s, found %s", seriesHint, describeNode(n))
	}
	pairs := distPairs(n, &errs, "rate", SeriesKinds)
	if len(errs) > 0 {
		return errs
	}
	if len(pairs) != 1 {
		return fmt.Errorf("a rate takes exactly one of %s; found %d", strings.Join(SeriesKinds, ", "), len(pairs))
	}
	out := Series{kind: pairs[0].name}
	v := pairs[0].val
	switch out.kind {
	case "steps":
		out.steps = readSteps(v, &errs)
	case "csv":
		if v.Kind != yaml.ScalarNode || v.Value == "" {
			errs.Add("", nodePos(v), "csv: expected a file name, found %s", describeNode(v))
		}
		out.CSV = v.Value
	default:
		if v.Kind != yaml.MappingNode {
			errs.Add("", nodePos(v), "%s: expected a mapping, found %s", out.kind, describeNode(v))
			break
		}
		out.params(v, &errs)
	}
	if len(errs) > 0 {
		return errs
	}
	*s = out
	return nil
}

// params reads a ramp's, a daily curve's or spikes' fields.
func (s *Series) params(n *yaml.Node, errs *ErrorList) {
	before := len(*errs)
	got := map[string]*yaml.Node{}
	for _, p := range distPairs(n, errs, s.kind, seriesFields[s.kind]) {
		got[p.name] = p.val
	}
	for _, f := range seriesFields[s.kind] {
		if got[f] == nil && f != "at" && len(*errs) == before {
			errs.Add("", nodePos(n), "%s: %s is required", s.kind, f)
		}
	}
	if len(*errs) > before {
		return
	}
	num := func(f string) int64 { v, _ := rate(got[f], errs); return v }
	dur := func(f string) time.Duration {
		if got[f] == nil {
			return -1
		}
		d, _ := distDuration(got[f], errs)
		return d
	}
	switch s.kind {
	case "ramp":
		s.a, s.b, s.over, s.at = num("from"), num("to"), dur("over"), max(dur("at"), 0)
	case "daily":
		s.a, s.b, s.at = num("min"), num("max"), dur("peakAt")
		if s.b < s.a && len(*errs) == before {
			errs.Add("", nodePos(got["max"]), "daily: max must not be less than min")
		}
	case "spikes":
		s.a, s.b, s.over, s.dur, s.at = num("base"), num("peak"), dur("every"), dur("for"), dur("at")
		if s.at < 0 {
			s.at = s.over
		}
		if s.over <= 0 && len(*errs) == before {
			errs.Add("", nodePos(got["every"]), "spikes: every must be positive")
		}
		if s.dur > s.over && len(*errs) == before {
			errs.Add("", nodePos(got["for"]), "spikes: for (%s) must not be longer than every (%s)", s.dur, s.over)
		}
	}
}

// readSteps reads [[T, V], ...], times strictly increasing.
func readSteps(n *yaml.Node, errs *ErrorList) []model.RateStep {
	if n.Kind != yaml.SequenceNode || len(n.Content) == 0 {
		errs.Add("", nodePos(n), "steps: expected a list of [time, rate] pairs such as [[0s, 100], [5m, 200]], found %s", describeNode(n))
		return nil
	}
	var out []model.RateStep
	for _, item := range n.Content {
		item = resolveAliasChain(item)
		if item == nil || item.Kind != yaml.SequenceNode || len(item.Content) != 2 {
			errs.Add("", nodePos(n), "steps: expected a [time, rate] pair such as [5m, 200]")
			continue
		}
		at, ok1 := distDuration(resolveAliasChain(item.Content[0]), errs)
		v, ok2 := rate(resolveAliasChain(item.Content[1]), errs)
		if !ok1 || !ok2 {
			continue
		}
		if len(out) > 0 && at <= out[len(out)-1].At {
			errs.Add("", nodePos(item), "steps: %s is not after the step before it (%s)", at, out[len(out)-1].At)
			continue
		}
		out = append(out, model.RateStep{At: at, MilliRPS: v})
	}
	return out
}

// rate reads a number of requests per second into thousandths.
func rate(n *yaml.Node, errs *ErrorList) (int64, bool) {
	if n == nil {
		return 0, false
	}
	f, err := yamlFloat(n)
	switch {
	case err != nil:
		errs.Add("", nodePos(n), "expected a number of requests per second, found %s", describeNode(n))
		return 0, false
	case f < 0 || f > maxRPS:
		errs.Add("", nodePos(n), "a rate must be between 0 and %g requests per second, not %s", float64(maxRPS), n.Value)
		return 0, false
	}
	return int64(math.Round(f * 1000)), true
}

// ReadCSV reads t,rps lines into the series' steps: t in seconds, the first
// line's t being the start of the run (a Prometheus export's Unix times
// work as they are); a first line that is not numbers is a header. name
// names the file in errors.
func (s *Series) ReadCSV(name string, data []byte) ErrorList {
	var errs ErrorList
	var t0 float64
	sc := bufio.NewScanner(bytes.NewReader(data))
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		tf, vf, ok := strings.Cut(text, ",")
		t, err1 := strconv.ParseFloat(strings.TrimSpace(tf), 64)
		v, err2 := strconv.ParseFloat(strings.TrimSpace(vf), 64)
		switch {
		case (err1 != nil || err2 != nil) && line == 1 && len(s.steps) == 0:
			continue // a header
		case !ok || err1 != nil || err2 != nil || math.IsNaN(t) || math.IsNaN(v):
			errs.Add(name, Pos{Line: line, Col: 1}, "want a line t,rps such as 60,250 (t in seconds)")
			continue
		case v < 0 || v > maxRPS:
			errs.Add(name, Pos{Line: line, Col: len(tf) + 2}, "a rate must be between 0 and %g requests per second", float64(maxRPS))
			continue
		}
		if len(s.steps) == 0 {
			t0 = t
		}
		at := time.Duration(math.Round((t - t0) * 1e9))
		if t-t0 > float64(math.MaxInt64)/1e9 || len(s.steps) > 0 && at <= s.steps[len(s.steps)-1].At {
			errs.Add(name, Pos{Line: line, Col: 1}, "t %s is not after the line before it", tf)
			continue
		}
		s.steps = append(s.steps, model.RateStep{At: at, MilliRPS: int64(math.Round(v * 1000))})
	}
	if len(s.steps) == 0 && len(errs) == 0 {
		errs.Add(name, Pos{Line: 1, Col: 1}, "no t,rps lines")
	}
	return errs
}

// Steps returns the series as the model takes it, stepped up to end.
func (s *Series) Steps(end time.Duration) []model.RateStep {
	switch s.kind {
	case "ramp":
		return curve(end, s.at, s.at+s.over, rampStep, s.a, func(t time.Duration) float64 {
			return float64(s.a) + float64(s.b-s.a)*float64(t-s.at)/float64(s.over)
		}, s.b)
	case "daily":
		return curve(end, 0, end, dailyStep, s.a, func(t time.Duration) float64 {
			phase := 2 * math.Pi * float64(t-s.at) / float64(24*time.Hour)
			return float64(s.a) + float64(s.b-s.a)*(1+math.Cos(phase))/2
		}, -1)
	case "spikes":
		var out []model.RateStep
		out = append(out, model.RateStep{MilliRPS: s.a})
		for t := s.at; t <= end && len(out) < 1<<20; t += s.over {
			out = append(out, model.RateStep{At: t, MilliRPS: s.b}, model.RateStep{At: t + s.dur, MilliRPS: s.a})
		}
		return out
	}
	return s.steps
}

// curve steps f from `from` to `to` every step (at each step's middle),
// with before before from and after (if not negative) from to on.
func curve(end, from, to, step time.Duration, before int64, f func(time.Duration) float64, after int64) []model.RateStep {
	out := []model.RateStep{{MilliRPS: before}}
	for t := from; t < to && t <= end; t += step {
		mid := t + min(step, to-t)/2
		out = append(out, model.RateStep{At: t, MilliRPS: int64(math.Round(f(mid)))})
	}
	if after >= 0 && to <= end {
		out = append(out, model.RateStep{At: to, MilliRPS: after})
	}
	return out
}
