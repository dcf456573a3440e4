package scenarios

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"
)

// Test types are prefixed with dt so that they cannot clash with the
// package's own types.

type dtMeta struct {
	Name   string            `yaml:"name"`
	Labels map[string]string `yaml:"labels"`
}

type dtResources struct {
	Requests map[string]Quantity `yaml:"requests"`
}

type dtContainer struct {
	Name      string       `yaml:"name"`
	Image     string       `yaml:"image"`
	Resources *dtResources `yaml:"resources"`
	Startup   *Duration    `yaml:"startupTime"`
}

type dtSpec struct {
	RestartPolicy string        `yaml:"restartPolicy"`
	Containers    []dtContainer `yaml:"containers"`
	Replicas      IntRange      `yaml:"replicas"`
	Timeout       Duration      `yaml:"timeout"`
	Priority      *int          `yaml:"priority"`
	Weight        float64       `yaml:"weight"`
	Enabled       bool          `yaml:"enabled"`
	MaxPods       uint8         `yaml:"maxPods"`
	Tags          []string      `yaml:"tags"`
	Extra         yaml.Node     `yaml:"extra"`
	Raw           *yaml.Node    `yaml:"raw"`
	Any           any           `yaml:"any"`
}

type dtDoc struct {
	dtMeta   `yaml:",inline"`
	Kind     string  `yaml:"kind"`
	Spec     *dtSpec `yaml:"spec"`
	Untagged string
	Skipped  string `yaml:"-"`
}

func init() {
	Ignore[dtContainer]("env", "ports")
	Ignore[dtMeta]("uid")
}

func dtDecode(t *testing.T, src string, out any) (*Positions, ErrorList) {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(src), &doc); err != nil {
		t.Fatalf("yaml.Unmarshal: %v", err)
	}
	return decodeStrict("t.yaml", &doc, out)
}

const dtSample = `kind: Test
name: web
uid: 1234
labels:
  app: web
  tier: "1"
spec:
  restartPolicy: Always
  priority: 5
  weight: 1.5
  enabled: true
  maxPods: 110
  timeout: 1m30s
  replicas: {min: 2, max: 4}
  tags: [a, b]
  extra:
    anything: [1, 2]
  raw: [x]
  any: {x: 1}
  containers:
    - name: app
      image: 1.0
      env: [{name: X}]
      resources:
        requests:
          cpu: 100m
          memory: 128Mi
      startupTime: 0
    - name: side
      image: busybox
      startupTime: 2s
untagged: hello
`

func TestDecodeStrictSample(t *testing.T) {
	var doc dtDoc
	doc.Skipped = "kept"
	_, errs := dtDecode(t, dtSample, &doc)
	if len(errs) != 0 {
		t.Fatalf("unexpected errors:\n%v", errs)
	}
	sp := doc.Spec
	if sp == nil {
		t.Fatal("spec not decoded")
	}
	var extra struct {
		Anything []int `yaml:"anything"`
	}
	if err := sp.Extra.Decode(&extra); err != nil {
		t.Fatalf("extra.Decode: %v", err)
	}
	c0, c1 := sp.Containers[0], sp.Containers[1]
	cases := []struct {
		name      string
		got, want any
	}{
		{"kind", doc.Kind, "Test"},
		{"inline name", doc.Name, "web"},
		{"labels", doc.Labels, map[string]string{"app": "web", "tier": "1"}},
		{"untagged field uses lowercased name", doc.Untagged, "hello"},
		{"yaml:- field untouched", doc.Skipped, "kept"},
		{"restartPolicy", sp.RestartPolicy, "Always"},
		{"priority", *sp.Priority, 5},
		{"weight", sp.Weight, 1.5},
		{"enabled", sp.Enabled, true},
		{"maxPods", sp.MaxPods, uint8(110)},
		{"timeout", sp.Timeout.D(), 90 * time.Second},
		{"replicas", sp.Replicas, IntRange{Min: 2, Max: 4, HasMin: true, HasMax: true}},
		{"tags", sp.Tags, []string{"a", "b"}},
		{"extra node kind", sp.Extra.Kind, yaml.MappingNode},
		{"extra node line", sp.Extra.Line, 17},
		{"extra decoded", extra.Anything, []int{1, 2}},
		{"raw node", sp.Raw != nil && sp.Raw.Kind == yaml.SequenceNode, true},
		{"any", sp.Any, map[string]any{"x": 1}},
		{"containers", len(sp.Containers), 2},
		{"container 0 name", c0.Name, "app"},
		{"number as string", c0.Image, "1.0"},
		{"cpu", c0.Resources.Requests["cpu"].MilliValue(), int64(100)},
		{"memory", c0.Resources.Requests["memory"].Value(), int64(128 << 20)},
		{"memory as written", c0.Resources.Requests["memory"].String(), "128Mi"},
		{"startup 0", c0.Startup != nil && *c0.Startup == 0, true},
		{"container 1 image", c1.Image, "busybox"},
		{"container 1 resources", c1.Resources == nil, true},
		{"container 1 startup", c1.Startup.D(), 2 * time.Second},
	}
	for _, c := range cases {
		if !reflect.DeepEqual(c.got, c.want) {
			t.Errorf("%s: got %#v, want %#v", c.name, c.got, c.want)
		}
	}
}

func TestDecodeStrictNulls(t *testing.T) {
	var doc dtDoc
	_, errs := dtDecode(t, "kind: ~\nspec:\n", &doc)
	if len(errs) != 0 {
		t.Fatalf("unexpected errors:\n%v", errs)
	}
	if doc.Spec != nil || doc.Kind != "" {
		t.Errorf("null values should leave zero values, got %+v", doc)
	}
	_, errs = dtDecode(t, "spec: {priority: null, raw: ~, tags: }", &doc)
	if len(errs) != 0 {
		t.Fatalf("unexpected errors:\n%v", errs)
	}
	if doc.Spec == nil || doc.Spec.Priority != nil || doc.Spec.Raw != nil || doc.Spec.Tags != nil {
		t.Errorf("null values should leave nil pointers and slices, got %+v", doc.Spec)
	}
	// An empty document decodes to nothing.
	doc = dtDoc{}
	if _, errs := decodeStrict("t.yaml", &yaml.Node{Kind: yaml.DocumentNode}, &doc); len(errs) != 0 || !reflect.DeepEqual(doc, dtDoc{}) {
		t.Errorf("empty document: errs %v, doc %+v", errs, doc)
	}
}

const dtBad = `kind: [Test]
spec:
  restartPolcy: Always
  priority: abc
  priority: 2
  timeout: 10 minutes
  replicas: {min: 1, mx: 3}
  tags: {a: 1}
  weight: [1]
  maxPods: -1
  enabled: maybe
  containers:
    - name: app
      imagePullPolicy: Always
      resources:
        requests:
          cpu: 8 GB
          cpu: 1
      startupTime: 30
    - image: 3
      name: [x]
    - just a string
bogus: 1
`

func TestDecodeStrictReportsEveryProblem(t *testing.T) {
	want := []string{
		`t.yaml:1:7: expected a string, found a sequence`,
		`t.yaml:3:3: unknown field "restartPolcy" in dtSpec; did you mean "restartPolicy"?`,
		`t.yaml:4:13: cannot use "abc" as an integer`,
		`t.yaml:5:3: duplicate field "priority" (already set at 4:3)`,
		`t.yaml:6:12: invalid duration "10 minutes": use a Go duration such as 30s, 5m or 1h30m`,
		`t.yaml:7:22: unknown field "mx" in range; did you mean "max"?`,
		`t.yaml:8:9: expected a sequence, found a mapping`,
		`t.yaml:9:11: expected a number, found a sequence`,
		`t.yaml:10:12: cannot use "-1" as an integer: must not be negative`,
		`t.yaml:11:12: cannot use "maybe" as a boolean (want true or false)`,
		`t.yaml:14:7: unknown field "imagePullPolicy" in dtContainer`,
		`t.yaml:17:16: invalid quantity "8 GB": want a Kubernetes quantity such as 500m, 2, 128Mi or 4Gi`,
		`t.yaml:18:11: duplicate key "cpu" (already set at 17:11)`,
		`t.yaml:19:20: invalid duration "30": add a unit, e.g. 30s`,
		`t.yaml:21:13: expected a string, found a sequence`,
		`t.yaml:22:7: expected a mapping, found the string "just a string"`,
		`t.yaml:23:1: unknown field "bogus" in dtDoc`,
	}
	var doc dtDoc
	_, errs := dtDecode(t, dtBad, &doc)
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Good values next to bad ones are still decoded.
	if doc.Spec == nil || len(doc.Spec.Containers) != 3 || doc.Spec.Containers[1].Image != "3" {
		t.Errorf("good values not decoded: %+v", doc.Spec)
	}
	if err := errs.Err(); err == nil || !strings.Contains(err.Error(), "\nt.yaml:3:3: unknown field") {
		t.Errorf("Err() = %v, want the list joined by newlines", err)
	}
}

func TestPositions(t *testing.T) {
	var doc dtDoc
	pos, errs := dtDecode(t, dtSample, &doc)
	if len(errs) != 0 {
		t.Fatalf("unexpected errors:\n%v", errs)
	}
	sp := doc.Spec
	c1 := &sp.Containers[1]
	cases := []struct {
		name string
		got  Pos
		want Pos
	}{
		{"document", pos.Of(&doc), Pos{Line: 1, Col: 1}},
		{"inline struct", pos.Of(&doc.dtMeta), Pos{Line: 1, Col: 1}},
		{"kind value", pos.Of(&doc.Kind), Pos{Line: 1, Col: 7}},
		{"kind key", pos.KeyOf(&doc.Kind), Pos{Line: 1, Col: 1}},
		{"inline field key", pos.KeyOf(&doc.Name), Pos{Line: 2, Col: 1}},
		{"spec pointer field", pos.Of(&doc.Spec), Pos{Line: 8, Col: 3}},
		{"spec struct", pos.Of(sp), Pos{Line: 8, Col: 3}},
		{"spec key", pos.KeyOf(&doc.Spec), Pos{Line: 7, Col: 1}},
		{"slice field", pos.Of(&sp.Containers), Pos{Line: 21, Col: 5}},
		{"slice element", pos.Of(c1), Pos{Line: 29, Col: 7}},
		{"struct and its first field differ", pos.Of(&c1.Name), Pos{Line: 29, Col: 13}},
		{"element field value", pos.Of(&c1.Image), Pos{Line: 30, Col: 14}},
		{"element field key", pos.KeyOf(&c1.Image), Pos{Line: 30, Col: 7}},
		{"slice element key (none)", pos.KeyOf(c1), Pos{}},
		{"scalar slice element", pos.Of(&sp.Tags[1]), Pos{Line: 15, Col: 13}},
		{"flow mapping", pos.Of(&sp.Replicas), Pos{Line: 14, Col: 13}},
		{"map key", pos.OfMapKey(&doc.Labels, "tier"), Pos{Line: 6, Col: 3}},
		{"map key given the map", pos.OfMapKey(doc.Labels, "tier"), Pos{Line: 6, Col: 3}},
		{"map value", pos.OfMapValue(&doc.Labels, "tier"), Pos{Line: 6, Col: 9}},
		{"nested map key", pos.OfMapKey(&sp.Containers[0].Resources.Requests, "memory"), Pos{Line: 27, Col: 11}},
		{"missing map key", pos.OfMapKey(&doc.Labels, "nope"), Pos{}},
		{"absent field", pos.Of(&c1.Resources), Pos{}},
		{"not a pointer", pos.Of(doc), Pos{}},
		{"nil", pos.Of(nil), Pos{}},
		{"unknown value", pos.Of(new(int)), Pos{}},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s: got %v, want %v", c.name, c.got, c.want)
		}
	}
	var nilPos *Positions
	if p := nilPos.Of(&doc); p != (Pos{}) {
		t.Errorf("nil Positions: got %v", p)
	}
}

func TestDecodeStrictAliasesAndMerges(t *testing.T) {
	src := `spec:
  restartPolicy: &policy Never
  containers:
    - &base
      name: a
      image: img
      startupTime: 5s
    - <<: *base
      name: b
    - <<: [{name: c, image: first}, *base]
      startupTime: 1s
  tags: [*policy, *policy]
`
	var doc dtDoc
	pos, errs := dtDecode(t, src, &doc)
	if len(errs) != 0 {
		t.Fatalf("unexpected errors:\n%v", errs)
	}
	cs := doc.Spec.Containers
	got := fmt.Sprintf("%s/%s/%v %s/%s/%v %s/%s/%v %v", cs[0].Name, cs[0].Image, cs[0].Startup, cs[1].Name, cs[1].Image, cs[1].Startup,
		cs[2].Name, cs[2].Image, cs[2].Startup, doc.Spec.Tags)
	want := "a/img/5s b/img/5s c/first/1s [Never Never]"
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if p := pos.Of(&doc.Spec.Tags[1]); p != (Pos{Line: 12, Col: 19}) {
		t.Errorf("an alias value is positioned at the alias: got %v", p)
	}
	if p := pos.Of(&cs[1].Image); p != (Pos{Line: 6, Col: 14}) {
		t.Errorf("a merged value is positioned where it was written: got %v", p)
	}
}

func TestDecodeStrictAliasErrorsReportedOnce(t *testing.T) {
	src := `spec:
  containers:
    - &base
      name: a
      bad: 1
    - *base
    - *base
`
	var doc dtDoc
	_, errs := dtDecode(t, src, &doc)
	want := `t.yaml:5:7: unknown field "bad" in dtContainer`
	if errs.Error() != want {
		t.Errorf("got %q, want %q", errs.Error(), want)
	}
}

type dtTree struct {
	Kids []dtTree `yaml:"kids"`
	Self *dtTree  `yaml:"self"`
}

type dtLaughs struct {
	L0, L1, L2, L3, L4, L5, L6, L7, L8 dtTree
}

func TestDecodeStrictHostileInput(t *testing.T) {
	var b strings.Builder
	b.WriteString("l0: &l0 {kids: [{}, {}, {}, {}, {}, {}, {}, {}, {}, {}]}\n")
	for i := 1; i <= 8; i++ {
		fmt.Fprintf(&b, "l%d: &l%d {kids: [", i, i)
		for j := 0; j < 10; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*l%d", i-1)
		}
		b.WriteString("]}\n")
	}
	cases := []struct {
		name, src string
		out       any
		want      string
	}{
		{"billion laughs", b.String(), &dtLaughs{}, "document too large"},
		{"alias cycle", "self: &a {self: *a}\n", &dtTree{}, `anchor "a" refers to itself`},
		{"merge cycle", "self: &a {<<: *a}\n", &dtTree{}, "contains itself"},
		{"bad merge", "self: {<<: 3}\n", &dtTree{}, "cannot merge the integer 3"},
		{"non-scalar key", "? [a]\n: 1\n", &dtTree{}, "1:3: expected a key, found a sequence"},
		{"top level not a mapping", "- a\n", &dtTree{}, "1:1: expected a mapping, found a sequence"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			_, errs := dtDecode(t, c.src, c.out)
			if !strings.Contains(errs.Error(), c.want) {
				t.Errorf("got %q, want it to contain %q", errs.Error(), c.want)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

type dtPanicky struct{}

func (*dtPanicky) UnmarshalYAML(*yaml.Node) error { panic("boom") }

type dtPositioned struct{}

func (*dtPositioned) UnmarshalYAML(n *yaml.Node) error {
	return ErrorList{{Pos: Pos{Line: 9, Col: 9}, Msg: "first"}, {Msg: "second"}}
}

type dtPlainErr struct{}

func (*dtPlainErr) UnmarshalYAML(n *yaml.Node) error {
	var i int
	if err := n.Decode(&i); err != nil {
		return err
	}
	return errors.New("yaml: plain failure")
}

type dtBadInline struct {
	A int `yaml:",inline"`
}

type dtMisc struct {
	P  dtPanicky      `yaml:"p"`
	Q  dtPositioned   `yaml:"q"`
	E  dtPlainErr     `yaml:"e"`
	T  dtPlainErr     `yaml:"t"`
	M  map[int]int    `yaml:"m"`
	A  [2]int         `yaml:"a"`
	I  int8           `yaml:"i"`
	F  int            `yaml:"f"`
	D  time.Duration  `yaml:"d"`
	BI dtBadInline    `yaml:"bi"`
	X  map[string]any `yaml:",inline"`
}

func TestDecodeStrictMisc(t *testing.T) {
	src := `p: 1
q: 2
e: 3
t: abc
m: {1: 2, x: 3}
a: [1, 2, 3]
i: 300
f: 1.5
d: 1m
bi: {}
extra: kept
`
	want := []string{
		`t.yaml:1:4: internal error decoding scenarios.dtPanicky: boom`,
		`t.yaml:2:4: second`,
		`t.yaml:3:4: plain failure`,
		"t.yaml:4:4: cannot unmarshal !!str `abc` into int",
		`t.yaml:5:11: cannot use "x" as an integer`,
		`t.yaml:6:4: expected 2 items, found 3`,
		`t.yaml:7:4: cannot use "300" as an integer: out of range`,
		`t.yaml:8:4: cannot use "1.5" as an integer`,
		`t.yaml:9:9: first`,
		`t.yaml:10:5: internal error: scenarios.dtBadInline.A: ,inline needs a struct or a map with string keys`,
	}
	var m dtMisc
	_, errs := dtDecode(t, src, &m)
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if m.M[1] != 2 || m.D != time.Minute || m.X["extra"] != "kept" {
		t.Errorf("good values not decoded: %+v", m)
	}
	if _, errs := decodeStrict("t.yaml", &yaml.Node{}, dtMisc{}); len(errs) != 1 || !strings.Contains(errs[0].Msg, "non-nil pointer to a struct") {
		t.Errorf("non-pointer out: got %v", errs)
	}
}

func TestErrorFormatting(t *testing.T) {
	var l ErrorList
	if l.Err() != nil {
		t.Error("empty list: Err() should be nil")
	}
	l.Add("b.yaml", Pos{Line: 1, Col: 1}, "b")
	l.Add("a.yaml", Pos{Line: 10, Col: 2}, "second %d", 2)
	l.Add("a.yaml", Pos{Line: 2, Col: 5}, "%d%%", 100)
	l.Add("a.yaml", Pos{Line: 10, Col: 2}, "first")
	l.Add("a.yaml", Pos{}, "no position")
	l.Add("", Pos{Line: 3, Col: 4}, "no file")
	l.Sort()
	want := "3:4: no file\n" +
		"a.yaml: no position\n" +
		"a.yaml:2:5: 100%\n" +
		"a.yaml:10:2: first\n" +
		"a.yaml:10:2: second 2\n" +
		"b.yaml:1:1: b"
	if got := l.Err().Error(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestSuggestName(t *testing.T) {
	names := []string{"name", "image", "restartPolicy", "resources", "min", "max"}
	cases := []struct{ in, want string }{
		{"restartPolcy", "restartPolicy"},
		{"imgae", "image"},
		{"RestartPolicy", "restartPolicy"},
		{"RESTARTPOLICY", "restartPolicy"},
		{"nmae", "name"},
		{"resource", "resources"},
		{"mni", "min"},
		{"xyz", ""},
		{"ab", ""},
		{"command", ""},
	}
	for _, c := range cases {
		if got := suggestName(c.in, names); got != c.want {
			t.Errorf("suggestName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func FuzzDecodeStrict(f *testing.F) {
	f.Add(dtSample)
	f.Add(dtBad)
	f.Add("spec: {containers: [&a {name: x}, *a, {<<: *a}]}")
	f.Fuzz(func(t *testing.T, src string) {
		var doc yaml.Node
		if yaml.Unmarshal([]byte(src), &doc) != nil {
			return
		}
		var out dtDoc
		_, errs := decodeStrict("f.yaml", &doc, &out)
		for _, e := range errs {
			if e.File != "f.yaml" || e.Msg == "" || strings.Contains(e.Msg, "internal error") {
				t.Errorf("bad error %q", e.Error())
			}
		}
	})
}
