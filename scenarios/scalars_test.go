package scenarios

import (
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

func TestParseQuantity(t *testing.T) {
	const gi = int64(1) << 30
	good := []struct {
		in    string
		milli int64
		value int64
	}{
		{"100m", 100, 1},
		{"1", 1000, 1},
		{"1.5", 1500, 2},
		{"128Mi", 128 << 20 * 1000, 128 << 20},
		{"8Gi", 8 * gi * 1000, 8 * gi},
		{"1.5Gi", 3 * gi / 2 * 1000, 3 * gi / 2},
		{"1Ki", 1024 * 1000, 1024},
		{"1k", 1000 * 1000, 1000},
		{"128M", 128e6 * 1000, 128e6},
		{"2e3", 2000 * 1000, 2000},
		{"1E3", 1000 * 1000, 1000},
		{"1e-3", 1, 1},
		{"0.1m", 1, 1},  // rounds up to the next milli-unit
		{"1e-40", 1, 1}, // however small
		{"1n", 1, 1},    // nano
		{"1500u", 2, 1}, // micro
		{"1.0001", 1001, 2},
		{"+2", 2000, 2},
		{".5", 500, 1},
		{"5.", 5000, 5},
		{"0", 0, 0},
		{"0.000", 0, 0},
		{"-0", 0, 0},
		{"0Gi", 0, 0},
		{"9P", 9e15 * 1000, 9e15},
		{"9223372036854775", 9223372036854775000, 9223372036854775},
	}
	for _, c := range good {
		q, err := ParseQuantity(c.in)
		if err != nil {
			t.Errorf("ParseQuantity(%q): %v", c.in, err)
			continue
		}
		if q.MilliValue() != c.milli || q.Value() != c.value || q.String() != c.in || q.IsZero() != (c.milli == 0) {
			t.Errorf("ParseQuantity(%q) = %d milli, %d units, %q; want %d milli, %d units", c.in, q.MilliValue(), q.Value(), q.String(), c.milli, c.value)
		}
	}

	const hint = ": want a Kubernetes quantity such as 500m, 2, 128Mi or 4Gi"
	bad := []struct{ in, want string }{
		{"8 GB", `invalid quantity "8 GB"` + hint},
		{"", `invalid quantity ""` + hint},
		{"abc", `invalid quantity "abc"` + hint},
		{"1.2.3", `invalid quantity "1.2.3"` + hint},
		{".", `invalid quantity "."` + hint},
		{"Gi", `invalid quantity "Gi"` + hint},
		{"1ki", `invalid quantity "1ki"` + hint},
		{"1Ki5", `invalid quantity "1Ki5"` + hint},
		{"1 Gi", `invalid quantity "1 Gi"` + hint},
		{"1e", `invalid quantity "1e"` + hint},
		{"1e+", `invalid quantity "1e+"` + hint},
		{"1e++3", `invalid quantity "1e++3"` + hint},
		{"1e1.5", `invalid quantity "1e1.5"` + hint},
		{"0x10", `invalid quantity "0x10"` + hint},
		{"+-1", `invalid quantity "+-1"` + hint},
		{"1_000", `invalid quantity "1_000"` + hint},
		{"-1", `invalid quantity "-1": must not be negative`},
		{"-100m", `invalid quantity "-100m": must not be negative`},
		{"-1e-40", `invalid quantity "-1e-40": must not be negative`},
		{"9223372036854776", `invalid quantity "9223372036854776": too large`},
		{"10E", `invalid quantity "10E": too large`},
		{"8Ei", `invalid quantity "8Ei": too large`},
		{"1e300", `invalid quantity "1e300": too large`},
		{"1e99999999999999999999", `invalid quantity "1e99999999999999999999": too large`},
		{strings.Repeat("1", 101), `invalid quantity "` + strings.Repeat("1", 37) + `..."` + hint},
	}
	for _, c := range bad {
		q, err := ParseQuantity(c.in)
		if err == nil {
			t.Errorf("ParseQuantity(%q) = %v, want an error", c.in, q.MilliValue())
			continue
		}
		if err.Error() != c.want {
			t.Errorf("ParseQuantity(%q): got error %q, want %q", c.in, err, c.want)
		}
	}

	var zero Quantity
	if !zero.IsZero() || zero.String() != "0" || zero.Value() != 0 {
		t.Errorf("zero Quantity: %v %q %d", zero.IsZero(), zero.String(), zero.Value())
	}
}

func TestQuantityYAML(t *testing.T) {
	cases := []struct {
		src   string
		milli int64
		err   string
	}{
		{"q: 4", 4000, ""},
		{"q: 110", 110000, ""},
		{"q: 0.5", 500, ""},
		{"q: 2e3", 2000000, ""},
		{`q: "250m"`, 250, ""},
		{"q: 4Gi", 4 << 30 * 1000, ""},
		{"q: 8 GB", 0, `invalid quantity "8 GB": want a Kubernetes quantity such as 500m, 2, 128Mi or 4Gi`},
		{"q: [1]", 0, `expected a quantity such as 500m, 2, 128Mi or 4Gi, found a sequence`},
		{"q: true", 0, `invalid quantity "true": want a Kubernetes quantity such as 500m, 2, 128Mi or 4Gi`},
	}
	for _, c := range cases {
		var out struct {
			Q Quantity `yaml:"q"`
		}
		err := yaml.Unmarshal([]byte(c.src), &out)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.src, err)
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("%s: got error %v, want %q", c.src, err, c.err)
		case c.err == "" && out.Q.MilliValue() != c.milli:
			t.Errorf("%s: got %d milli, want %d", c.src, out.Q.MilliValue(), c.milli)
		}
	}
}

func TestDuration(t *testing.T) {
	const hint = ": use a Go duration such as 30s, 5m or 1h30m"
	cases := []struct {
		src  string
		want time.Duration
		err  string
	}{
		{"d: 30s", 30 * time.Second, ""},
		{"d: 5m", 5 * time.Minute, ""},
		{"d: 1h30m", 90 * time.Minute, ""},
		{"d: 1.5h", 90 * time.Minute, ""},
		{"d: 500ms", 500 * time.Millisecond, ""},
		{"d: 0", 0, ""},
		{"d: 0.0", 0, ""},
		{"d: '0'", 0, ""},
		{"d: 0s", 0, ""},
		{"d: 10 minutes", 0, `invalid duration "10 minutes"` + hint},
		{"d: abc", 0, `invalid duration "abc"` + hint},
		{"d: 1e3", 0, `invalid duration "1e3"` + hint},
		{"d: true", 0, `invalid duration "true"` + hint},
		{"d: 30", 0, `invalid duration "30": add a unit, e.g. 30s`},
		{"d: '30'", 0, `invalid duration "30": add a unit, e.g. 30s`},
		{"d: 1.5", 0, `invalid duration "1.5": add a unit, e.g. 1.5s`},
		{"d: -5s", 0, `invalid duration "-5s": must not be negative`},
		{"d: -30", 0, `invalid duration "-30": must not be negative`},
		{"d: {s: 1}", 0, `expected a duration such as 30s, 5m or 1h30m, found a mapping`},
	}
	for _, c := range cases {
		var out struct {
			D Duration `yaml:"d"`
		}
		out.D = 7 // must be overwritten or left alone on error
		err := yaml.Unmarshal([]byte(c.src), &out)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v", c.src, err)
		case c.err != "" && (err == nil || err.Error() != c.err):
			t.Errorf("%s: got error %v, want %q", c.src, err, c.err)
		case c.err == "" && out.D.D() != c.want:
			t.Errorf("%s: got %v, want %v", c.src, out.D, c.want)
		case c.err != "" && out.D != 7:
			t.Errorf("%s: value changed on error to %v", c.src, out.D)
		}
	}
	if s := Duration(90 * time.Second).String(); s != "1m30s" {
		t.Errorf("String() = %q", s)
	}
}

func TestIntRange(t *testing.T) {
	cases := []struct {
		src  string
		want IntRange
		str  string
		err  string
	}{
		{"r: 3", Exactly(3), "3", ""},
		{"r: -2", Exactly(-2), "-2", ""},
		{"r: 1e3", Exactly(1000), "1000", ""},
		{"r: {min: 1}", IntRange{Min: 1, HasMin: true}, "at least 1", ""},
		{"r: {max: 4}", IntRange{Max: 4, HasMax: true}, "at most 4", ""},
		{"r: {min: 3, max: 4}", IntRange{Min: 3, Max: 4, HasMin: true, HasMax: true}, "3..4", ""},
		{"r: {min: 3, max: 3}", Exactly(3), "3", ""},
		{"r:\n  max: 0\n  min: 0", Exactly(0), "0", ""},
		{"r: {}", IntRange{}, "", "t.yaml:1:4: empty range: give min, max or both"},
		{"r: {min: 5, max: 3}", IntRange{}, "", "t.yaml:1:4: invalid range: min 5 is greater than max 3"},
		{"r: {min: 1, mx: 3}", IntRange{}, "", `t.yaml:1:13: unknown field "mx" in range; did you mean "max"?`},
		{"r: {minimum: 1}", IntRange{}, "", `t.yaml:1:5: unknown field "minimum" in range (want min and/or max)`},
		{"r: {min: 1, min: 2}", IntRange{}, "", `t.yaml:1:13: duplicate field "min" (already set at 1:5)`},
		{"r: abc", IntRange{}, "", `t.yaml:1:4: cannot use "abc" as an integer`},
		{"r: 1.5", IntRange{}, "", `t.yaml:1:4: cannot use "1.5" as an integer`},
		{`r: "3"`, IntRange{}, "", `t.yaml:1:4: cannot use "3" as an integer`},
		{"r: 99999999999999999999", IntRange{}, "", `t.yaml:1:4: cannot use "99999999999999999999" as an integer: out of range`},
		{"r: [1, 2]", IntRange{}, "", `t.yaml:1:4: expected an integer or a mapping with min and/or max, found a sequence`},
		{"r: {min: x, max: [1]}", IntRange{}, "",
			"t.yaml:1:10: cannot use \"x\" as an integer\nt.yaml:1:18: expected an integer, found a sequence"},
		{"r:\n  min:\n  max: 2", IntRange{}, "", `t.yaml:2:7: expected an integer, found null`},
	}
	for _, c := range cases {
		var out struct {
			R *IntRange `yaml:"r"`
		}
		_, errs := dtDecode(t, c.src, &out)
		switch {
		case c.err == "" && len(errs) > 0:
			t.Errorf("%q: %v", c.src, errs)
		case c.err != "" && errs.Error() != c.err:
			t.Errorf("%q: got errors %q, want %q", c.src, errs.Error(), c.err)
		case c.err == "" && (out.R == nil || *out.R != c.want || out.R.String() != c.str):
			t.Errorf("%q: got %+v, want %+v %q", c.src, out.R, c.want, c.str)
		}
	}
	if s := (IntRange{}).String(); s != "any" {
		t.Errorf("zero IntRange String() = %q", s)
	}
}

func TestIntRangeContains(t *testing.T) {
	cases := []struct {
		r    IntRange
		n    int64
		want bool
	}{
		{Exactly(3), 3, true},
		{Exactly(3), 4, false},
		{Exactly(3), 2, false},
		{IntRange{Min: 1, HasMin: true}, 1, true},
		{IntRange{Min: 1, HasMin: true}, 0, false},
		{IntRange{Min: 1, HasMin: true}, 1 << 62, true},
		{IntRange{Max: 4, HasMax: true}, 4, true},
		{IntRange{Max: 4, HasMax: true}, 5, false},
		{IntRange{Max: 4, HasMax: true}, -1 << 62, true},
		{IntRange{Min: 2, Max: 4, HasMin: true, HasMax: true}, 3, true},
		{IntRange{Min: 2, Max: 4, HasMin: true, HasMax: true}, 5, false},
		{IntRange{}, 12345, true},
	}
	for _, c := range cases {
		if got := c.r.Contains(c.n); got != c.want {
			t.Errorf("%v.Contains(%d) = %v, want %v", c.r, c.n, got, c.want)
		}
	}
}

func TestScalarsMarshalRoundTrip(t *testing.T) {
	type doc struct {
		D Duration  `yaml:"d"`
		Q Quantity  `yaml:"q"`
		E IntRange  `yaml:"e"`
		R IntRange  `yaml:"r"`
		M *IntRange `yaml:"m"`
	}
	in := doc{
		D: Duration(90 * time.Second),
		Q: MustParseQuantity("128Mi"),
		E: Exactly(2),
		R: IntRange{Min: 1, Max: 3, HasMin: true, HasMax: true},
		M: &IntRange{Max: 5, HasMax: true},
	}
	data, err := yaml.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	want := "d: 1m30s\nq: 128Mi\ne: 2\nr:\n    min: 1\n    max: 3\nm:\n    max: 5\n"
	if string(data) != want {
		t.Errorf("Marshal:\n%s\nwant:\n%s", data, want)
	}
	var out doc
	if _, errs := dtDecode(t, string(data), &out); len(errs) > 0 {
		t.Fatal(errs)
	}
	if out.D != in.D || out.Q != in.Q || out.E != in.E || out.R != in.R || *out.M != *in.M {
		t.Errorf("round trip: got %+v, want %+v", out, in)
	}
}
