package scenarios

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The manual, docs/scenario-format.md, must list every field the decoder
// accepts: each field of the scenario and study schema (walked by reflection
// over the yaml tags, from File and StudyFile), every Kubernetes field that
// is accepted and ignored (the Ignore calls of this package), and the keys
// of the scalar leaves that read mappings (distributions, ranges). A field
// counts as listed when a table row of its type's section names it in
// backquotes in the row's first cell.

const formatDoc = "../docs/scenario-format.md"

// docSections maps each struct type of the schema to the heading of the
// section of docs/scenario-format.md that lists its fields. A new struct type
// must be added here, and get its section.
var docSections = map[reflect.Type]string{
	reflect.TypeFor[File]():                  "Top level",
	reflect.TypeFor[Metadata]():              "metadata",
	reflect.TypeFor[Spec]():                  "spec",
	reflect.TypeFor[Settings]():              "4. Settings",
	reflect.TypeFor[Backoff]():               "Backoffs",
	reflect.TypeFor[ContainerRestartRule]():  "Restart rules",
	reflect.TypeFor[ExitCodesMatch]():        "Exit codes",
	reflect.TypeFor[Image]():                 "Images",
	reflect.TypeFor[Node]():                  "5. Nodes",
	reflect.TypeFor[Taint]():                 "Taints",
	reflect.TypeFor[Pod]():                   "Pods",
	reflect.TypeFor[ObjectMeta]():            "Object metadata",
	reflect.TypeFor[PodSpec]():               "Pod spec",
	reflect.TypeFor[NameOnly]():              "Scheduling gates",
	reflect.TypeFor[ReadinessGate]():         "Readiness gates",
	reflect.TypeFor[Toleration]():            "Tolerations",
	reflect.TypeFor[Container]():             "Containers",
	reflect.TypeFor[Resources]():             "Resources",
	reflect.TypeFor[Probe]():                 "Probes",
	reflect.TypeFor[Handler]():               "Handlers",
	reflect.TypeFor[Lifecycle]():             "Lifecycle",
	reflect.TypeFor[Workload]():              "Workloads",
	reflect.TypeFor[WorkloadSpec]():          "Workload spec",
	reflect.TypeFor[PodTemplate]():           "Pod template",
	reflect.TypeFor[JobTemplate]():           "Job template",
	reflect.TypeFor[Behavior]():              "7. Behaviour",
	reflect.TypeFor[Run]():                   "Runs",
	reflect.TypeFor[ProbeWindows]():          "Probe windows",
	reflect.TypeFor[Window]():                "Windows",
	reflect.TypeFor[HookBehaviors]():         "Hooks",
	reflect.TypeFor[HookBehavior]():          "Hook outcome",
	reflect.TypeFor[Fault]():                 "8. Faults",
	reflect.TypeFor[ExitFault]():             "exit fault",
	reflect.TypeFor[ContainerRef]():          "oom fault",
	reflect.TypeFor[DeleteFault]():           "delete fault",
	reflect.TypeFor[NodeFault]():             "Node faults",
	reflect.TypeFor[SetCondition]():          "setCondition fault",
	reflect.TypeFor[NodeRef]():               "Node actions",
	reflect.TypeFor[TaintFault]():            "taint fault",
	reflect.TypeFor[ScaleFault]():            "scale fault",
	reflect.TypeFor[ResizeFault]():           "resize fault",
	reflect.TypeFor[EvictFault]():            "evict fault",
	reflect.TypeFor[CreateFault]():           "create fault",
	reflect.TypeFor[ContainerResizePolicy](): "Resize policies",
	reflect.TypeFor[ContainerPort]():         "Container ports",
	reflect.TypeFor[LabelSelector]():         "Label selector",
	reflect.TypeFor[Selector]():              "Label selector",
	reflect.TypeFor[KubeProxy]():             "kube-proxy",
	reflect.TypeFor[MetricsServer]():         "metrics-server",
	reflect.TypeFor[SleepAction]():           "Sleep action",
	reflect.TypeFor[Traffic]():               "Traffic",
	reflect.TypeFor[Usage]():                 "Use of resources",
	reflect.TypeFor[Leak]():                  "Memory leak",

	reflect.TypeFor[HPASettings]():       "HorizontalPodAutoscaler controller",
	reflect.TypeFor[HPASpec]():           "HorizontalPodAutoscaler",
	reflect.TypeFor[ObjectReference]():   "Object reference",
	reflect.TypeFor[HPAMetric]():         "Autoscaler metrics",
	reflect.TypeFor[HPAResourceMetric](): "Resource metric",
	reflect.TypeFor[HPAPodsMetric]():     "Pods metric",
	reflect.TypeFor[HPAObjectMetric]():   "Object metric",
	reflect.TypeFor[HPAMetricName]():     "Metric name",
	reflect.TypeFor[HPAMetricTarget]():   "Metric target",
	reflect.TypeFor[HPABehavior]():       "Autoscaler behavior",
	reflect.TypeFor[HPAScalingRules]():   "Scaling rules",
	reflect.TypeFor[HPAScalingPolicy]():  "Scaling policies",
	reflect.TypeFor[HPACheck]():          "9. Expectations",

	reflect.TypeFor[InstanceType]():          "Instance types",
	reflect.TypeFor[NodePoolSpec]():          "Karpenter NodePool",
	reflect.TypeFor[NodeClaimTemplateSpec](): "Karpenter NodePool",
	reflect.TypeFor[NodePoolRequirement]():   "NodePool requirements",
	reflect.TypeFor[NodePoolDisruption]():    "NodePool disruption",
	reflect.TypeFor[NodePoolBudget]():        "NodePool budgets",
	reflect.TypeFor[NodeClassRef]():          "Node class reference",

	reflect.TypeFor[OwnerReference]():  "Owner references",
	reflect.TypeFor[PodStatus]():       "Pod status",
	reflect.TypeFor[PodCondition]():    "Pod conditions",
	reflect.TypeFor[ContainerStatus](): "Container statuses",
	reflect.TypeFor[ContainerState]():  "Container states",
	reflect.TypeFor[StateRunning]():    "Container states",
	reflect.TypeFor[StateWaiting]():    "Container states",
	reflect.TypeFor[StateTerminated](): "Container states",

	reflect.TypeFor[Affinity]():                 "Affinity",
	reflect.TypeFor[NodeAffinity]():             "Node affinity",
	reflect.TypeFor[NodeSelector]():             "Node selector",
	reflect.TypeFor[NodeSelectorTerm]():         "Node selector terms",
	reflect.TypeFor[SelectorRequirement]():      "Selector requirements",
	reflect.TypeFor[PreferredSchedulingTerm]():  "Preferred node terms",
	reflect.TypeFor[PodAffinity]():              "Pod affinity",
	reflect.TypeFor[PodAffinityTerm]():          "Pod affinity terms",
	reflect.TypeFor[WeightedPodAffinityTerm]():  "Weighted pod affinity terms",
	reflect.TypeFor[TopologySpreadConstraint](): "Topology spread constraints",

	reflect.TypeFor[Expect]():               "9. Expectations",
	reflect.TypeFor[ConditionCheck]():       "Condition check",
	reflect.TypeFor[JobStatusCheck]():       "Job status check",
	reflect.TypeFor[PodFailurePolicy]():     "Pod failure policy",
	reflect.TypeFor[SuccessPolicy]():        "Success policy",
	reflect.TypeFor[SuccessPolicyRule]():    "Success policy rules",
	reflect.TypeFor[PodFailurePolicyRule](): "Pod failure policy rules",
	reflect.TypeFor[OnExitCodes]():          "Exit code requirement",
	reflect.TypeFor[PodConditionPattern]():  "Pod condition patterns",
	reflect.TypeFor[EventCheck]():           "Event check",
	reflect.TypeFor[NodeGroup]():            "Node groups",
	reflect.TypeFor[NodeTemplate]():         "Node template",
	reflect.TypeFor[ClusterAutoscaler]():    "Cluster Autoscaler",
	reflect.TypeFor[NodeGroupFault]():       "nodeGroupBootFailure fault",
	reflect.TypeFor[NodePoolUpdateFault]():  "nodePoolUpdate fault",
	reflect.TypeFor[TransitionCheck]():      "Transition check",
	reflect.TypeFor[LastStateCheck]():       "Last state check",
	reflect.TypeFor[StudyFile]():            "Study file",
	reflect.TypeFor[StudySpec]():            "Study spec",
	reflect.TypeFor[Parameter]():            "Parameters",
	reflect.TypeFor[StudyOutput]():          "Study output",
}

// leafKeys are the mapping keys that scalar leaves with their own
// UnmarshalYAML accept, by the section that must list them.
func leafKeys() map[string][]string {
	dist := slices.Clone(DistKinds)
	for _, kind := range DistKinds {
		dist = append(dist, distFields[kind]...)
	}
	return map[string][]string{
		"Distributions":      dist,
		"Numbers and ranges": {"min", "max"}, // IntRange.UnmarshalYAML
		"Request rates":      rateKeys(),     // Series.UnmarshalYAML
	}
}

// rateKeys are the keys a request rate accepts.
func rateKeys() []string {
	out := slices.Clone(SeriesKinds)
	for _, kind := range SeriesKinds {
		out = append(out, seriesFields[kind]...)
	}
	return out
}

// docField is a field the decoder accepts, and the section that must list it.
type docField struct {
	section string
	name    string
	ignored bool   // a Kubernetes field accepted and ignored
	where   string // how the test found it, for messages
}

// acceptedFields walks the schema from the roots and returns every field
// the decoder accepts. Unknown struct types are reported in missing.
func acceptedFields(t *testing.T) (fields []docField, missing []string) {
	t.Helper()
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type, string)
	walk = func(typ reflect.Type, path string) {
		typ = leafType(typ)
		if typ.Kind() != reflect.Struct || isScalarLeaf(typ) || seen[typ] {
			return
		}
		seen[typ] = true
		section, ok := docSections[typ]
		if !ok {
			missing = append(missing, typ.Name()+" (at "+path+")")
			return
		}
		var fieldsOf func(reflect.Type)
		fieldsOf = func(st reflect.Type) {
			for i := range st.NumField() {
				f := st.Field(i)
				tag := f.Tag.Get("yaml")
				name, opts, _ := strings.Cut(tag, ",")
				if !f.IsExported() || name == "-" {
					continue
				}
				if opts == "inline" && f.Type.Kind() == reflect.Map {
					continue // a Service's selector labels: keys of the user's
				}
				if opts == "inline" {
					fieldsOf(leafType(f.Type))
					continue
				}
				if name == "" {
					name = strings.ToLower(f.Name)
				}
				fields = append(fields, docField{section: section, name: name, where: typ.Name() + "." + f.Name})
				walk(f.Type, path+"."+name)
			}
		}
		fieldsOf(typ)
	}
	walk(reflect.TypeFor[File](), "scenario")
	walk(reflect.TypeFor[StudyFile](), "study")

	byName := map[string]reflect.Type{}
	for typ := range seen {
		byName[typ.Name()] = typ
	}
	for typeName, keys := range ignoreCalls(t) {
		typ, ok := byName[typeName]
		if !ok {
			missing = append(missing, "Ignore["+typeName+"]: not a type of the schema")
			continue
		}
		for _, k := range keys {
			fields = append(fields, docField{section: docSections[typ], name: k, ignored: true, where: "Ignore[" + typeName + "]"})
		}
	}
	for section, keys := range leafKeys() {
		for _, k := range keys {
			fields = append(fields, docField{section: section, name: k, where: "scalar leaf"})
		}
	}
	return fields, missing
}

// leafType strips pointers, slices and arrays down to the element type.
func leafType(t reflect.Type) reflect.Type {
	for {
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			t = t.Elem()
		default:
			return t
		}
	}
}

// isScalarLeaf reports whether t decodes itself (durations, quantities,
// distributions, ranges) or is a raw YAML node.
func isScalarLeaf(t reflect.Type) bool {
	return t == reflect.TypeFor[yaml.Node]() || reflect.PointerTo(t).Implements(reflect.TypeFor[yaml.Unmarshaler]())
}

// ignoreCalls reads the Ignore[T]("a", "b", ...) and Unmodelled[T](map...)
// calls in the package's source files: the Kubernetes fields accepted and
// not simulated, quietly or with a warning, by type name.
func ignoreCalls(t *testing.T) map[string][]string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			idx, ok := call.Fun.(*ast.IndexExpr)
			if !ok {
				return true
			}
			fn, ok1 := idx.X.(*ast.Ident)
			typ, ok2 := idx.Index.(*ast.Ident)
			if !ok1 || !ok2 || fn.Name != "Ignore" && fn.Name != "Unmodelled" {
				return true
			}
			args := call.Args
			if fn.Name == "Unmodelled" { // Unmodelled[T](map[string]string{"field": "what is lost", ...})
				lit, ok := args[0].(*ast.CompositeLit)
				if len(args) != 1 || !ok {
					t.Fatalf("%s: Unmodelled[%s] takes a map literal, so that this test can read it", fset.Position(call.Pos()), typ.Name)
				}
				args = nil
				for _, e := range lit.Elts {
					args = append(args, e.(*ast.KeyValueExpr).Key)
				}
			}
			for _, a := range args {
				lit, ok := a.(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					t.Fatalf("%s: Ignore[%s] takes string literals, so that this test can read them", fset.Position(a.Pos()), typ.Name)
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil {
					t.Fatal(err)
				}
				out[typ.Name] = append(out[typ.Name], s)
			}
			return true
		})
	}
	if len(out) == 0 {
		t.Fatal("found no Ignore calls in the package: has the registry moved?")
	}
	return out
}

var (
	docHeading = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*$`)
	docCode    = regexp.MustCompile("`([^`]+)`")
)

// docTables reads a markdown document and returns, for each heading, the
// names in backquotes in the first cell of the table rows of its own body
// (up to the next heading) and of its body with its subsections.
func docTables(doc string) (own, nested map[string]map[string]bool) {
	own, nested = map[string]map[string]bool{}, map[string]map[string]bool{}
	type open struct {
		level int
		title string
	}
	var stack []open
	current := ""
	fence := false
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fence = !fence
			continue
		}
		if fence {
			continue
		}
		if m := docHeading.FindStringSubmatch(line); m != nil {
			level := len(m[1])
			for len(stack) > 0 && stack[len(stack)-1].level >= level {
				stack = stack[:len(stack)-1]
			}
			stack = append(stack, open{level, m[2]})
			current = m[2]
			continue
		}
		if !strings.HasPrefix(line, "|") || current == "" {
			continue
		}
		cells := strings.Split(strings.ReplaceAll(line, `\|`, "\x00"), "|")
		if len(cells) < 2 {
			continue
		}
		for _, m := range docCode.FindAllStringSubmatch(cells[1], -1) {
			name := strings.ReplaceAll(m[1], "\x00", "|")
			add := func(set map[string]map[string]bool, title string) {
				if set[title] == nil {
					set[title] = map[string]bool{}
				}
				set[title][name] = true
			}
			add(own, current)
			for _, o := range stack {
				add(nested, o.title)
			}
		}
	}
	return own, nested
}

// undocumented returns every accepted field that doc does not list.
func undocumented(t *testing.T, doc string) []string {
	t.Helper()
	fields, missing := acceptedFields(t)
	var out []string
	for _, m := range missing {
		out = append(out, "no section for "+m+": add it to docSections and to the manual")
	}
	own, nested := docTables(doc)
	for _, f := range fields {
		set := own[f.section]
		if f.ignored {
			set = nested[f.section] // in the section or its "accepted and ignored" subsection
		}
		if _, ok := own[f.section]; !ok && nested[f.section] == nil {
			out = append(out, "no section headed "+strconv.Quote(f.section)+" with a table")
			continue
		}
		if !set[f.name] {
			kind := "field"
			if f.ignored {
				kind = "accepted-and-ignored field"
			}
			out = append(out, kind+" `"+f.name+"` ("+f.where+") has no row in section "+strconv.Quote(f.section))
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func TestFormatDocListsEveryField(t *testing.T) {
	data, err := os.ReadFile(formatDoc)
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range undocumented(t, string(data)) {
		t.Errorf("%s: %s", formatDoc, msg)
	}
}

// The check itself: deleting a row makes it fail.
func TestFormatDocCheckFindsMissingRows(t *testing.T) {
	data, err := os.ReadFile(formatDoc)
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range []struct{ prefix, want string }{
		{"| `shutdownExitCode` |", "field `shutdownExitCode`"},
		{"| `dnsPolicy` |", "accepted-and-ignored field `dnsPolicy`"},
		{"| `lognormal` |", "field `lognormal`"},
		{"| `labels` | list of strings |", "field `labels` (Parameter.Labels)"},
	} {
		var kept []string
		dropped := 0
		for _, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(line, row.prefix) {
				dropped++
				continue
			}
			kept = append(kept, line)
		}
		if dropped != 1 {
			t.Fatalf("the manual has %d rows starting %q; want 1", dropped, row.prefix)
		}
		got := undocumented(t, strings.Join(kept, "\n"))
		if len(got) != 1 || !strings.HasPrefix(got[0], row.want) {
			t.Errorf("without the row %q: got %q, want one problem starting %q", row.prefix, got, row.want)
		}
	}
}

// faultRows returns the names in the first cell of the table rows of the
// manual's section "8. Faults", in order, and the keys its YAML example
// gives a fault after at.
func faultRows(doc string) (rows, example []string) {
	in, fence := false, false
	exampleKey := regexp.MustCompile(`^\s*- \{at: [^,]+, ([A-Za-z]+):`)
	for _, line := range strings.Split(doc, "\n") {
		if m := docHeading.FindStringSubmatch(line); m != nil && !fence {
			if in {
				break
			}
			in = m[2] == "8. Faults"
			continue
		}
		if !in {
			continue
		}
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fence = !fence
			continue
		}
		if fence {
			if m := exampleKey.FindStringSubmatch(line); m != nil {
				example = append(example, m[1])
			}
			continue
		}
		if cells := strings.Split(line, "|"); strings.HasPrefix(line, "|") && len(cells) > 2 {
			if m := docCode.FindStringSubmatch(cells[1]); m != nil {
				rows = append(rows, m[1])
			}
		}
	}
	return rows, example
}

// The manual's list of faults is the table of fault kinds: its table has
// at, then a row per kind, and its example a fault of each kind, both in
// the table's order.
func TestFormatDocListsFaultKinds(t *testing.T) {
	data, err := os.ReadFile(formatDoc)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, k := range FaultKinds() {
		kinds = append(kinds, k.Name())
	}
	rows, example := faultRows(string(data))
	want := append([]string{"at"}, kinds...)
	if !slices.Equal(rows, want) {
		t.Errorf("%s: section 8. Faults lists %q; the fault kinds are %q", formatDoc, rows, want)
	}
	if !slices.Equal(example, kinds) {
		t.Errorf("%s: the example of section 8. Faults shows %q; the fault kinds are %q", formatDoc, example, kinds)
	}
	// The check itself: a row or an example line less is seen.
	doc := strings.Replace(string(data), "| `drain` |", "| drain |", 1)
	doc = strings.Replace(doc, "{at: 9m, scale:", "{at: 9m, nothing:", 1)
	if rows, example := faultRows(doc); slices.Equal(rows, want) || slices.Equal(example, kinds) {
		t.Errorf("without the drain row and the scale example: %q, %q", rows, example)
	}
}
