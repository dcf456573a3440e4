package scenarios

import (
	"reflect"
	"strings"
	"testing"
)

// The table of fault kinds is Fault's fields: one kind per action field,
// named by its yaml tag, in the order of the fields, each reading its own
// field.
func TestFaultKindsAreFaultsFields(t *testing.T) {
	ft := reflect.TypeFor[Fault]()
	var fields []string
	for i := range ft.NumField() {
		if name, _, _ := strings.Cut(ft.Field(i).Tag.Get("yaml"), ","); name != "at" {
			fields = append(fields, name)
		}
	}
	var kinds []string
	for _, k := range FaultKinds() {
		kinds = append(kinds, k.Name())
	}
	if !reflect.DeepEqual(kinds, fields) {
		t.Fatalf("fault kinds %q; Fault's action fields are %q", kinds, fields)
	}
	for i, k := range FaultKinds() {
		var f Fault
		fv := reflect.ValueOf(&f).Elem().FieldByName(ft.Field(i + 1).Name)
		fv.Set(reflect.New(fv.Type().Elem()))
		if got := f.Kind(); got != k {
			t.Errorf("a fault with %s set is of kind %v", k.Name(), got)
		}
		if FaultKindNamed(k.Name()) != k {
			t.Errorf("FaultKindNamed(%q) is not the kind", k.Name())
		}
	}
	if FaultKindNamed("at") != nil || (&Fault{}).Kind() != nil {
		t.Error("at or an empty fault has a kind")
	}
}

// The "exactly one of" message, as the table words it.
func TestFaultTakesExactlyOneAction(t *testing.T) {
	const head = `apiVersion: podsim/v1
kind: Scenario
metadata: {name: f}
spec:
  nodes: [{name: a}]
  faults:
`
	const msg = "a fault takes exactly one of exit, oom, delete, diskFailure, partition, nodeFailure, shutdown, setCondition, cordon, uncordon, drain, deleteNode, taint, scale, rollout, resize, evict, nodeGroupBootFailure, nodePoolUpdate, create; found "
	for _, c := range []struct{ fault, want string }{
		{"{at: 1m}", "f.yaml:7:7: " + msg + "0"},
		{"{at: 1m, cordon: {node: a}, drain: {node: a}}", "f.yaml:7:7: " + msg + "2"},
		{"{at: 1m, cordon: {node: b}}", `f.yaml:7:31: no node called "b"`},
	} {
		_, err := Parse("f.yaml", []byte(head+"    - "+c.fault+"\n"))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: got %v, want %s", c.fault, err, c.want)
		}
	}
}
