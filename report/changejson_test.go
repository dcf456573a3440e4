package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/podsim/podsim/model"
)

// TestChangeJSONTablesTellChangesApart writes changes that differ from
// one another in one field each, again and again (so that the tables of
// heads, fronts and bodies hit), flat and indented, and checks every line
// against AppendJSON's: a field the tables did not tell apart would repeat
// another change's bytes. Long pod names, namespaces and messages go past
// the blocks the tables copy.
func TestChangeJSONTablesTellChangesApart(t *testing.T) {
	long := strings.Repeat("x", 70)
	base := model.Change{Kind: model.ChangeContainer, Pod: "p", Container: "c", State: model.StateTerminated,
		Reason: "Error", ExitCode: 1, HasExitCode: true, RestartCount: 2}
	variants := []func(c *model.Change){
		func(*model.Change) {},
		func(c *model.Change) { c.Container = "d" },
		func(c *model.Change) { c.State = model.StateRunning },
		func(c *model.Change) { c.Reason = "OOMKilled" },
		func(c *model.Change) { c.Reason = strings.Clone("Error") }, // the same text elsewhere
		func(c *model.Change) { c.ExitCode = 137 },
		func(c *model.Change) { c.ExitCode, c.HasExitCode = 137, false },
		func(c *model.Change) { c.RestartCount = 3 },
		func(c *model.Change) { c.RestartCount = 1000 },
		func(c *model.Change) { c.Namespace = "shop" },
		func(c *model.Change) { c.Pod = "q" },
		func(c *model.Change) { c.Pod = long },
		func(c *model.Change) { c.Namespace, c.Pod = long, "p" },
		func(c *model.Change) {
			c.Kind, c.Type, c.Reason, c.Message = model.ChangeEvent, "Normal", "Pulled", "m"
		},
		func(c *model.Change) {
			c.Kind, c.Type, c.Reason, c.Message = model.ChangeEvent, "Normal", "Pulled", "n"
		},
		func(c *model.Change) {
			c.Kind, c.Type, c.Reason, c.Message = model.ChangeEvent, "Normal", "Pulled", long+long
		},
		func(c *model.Change) { c.Kind, c.Type, c.Reason = model.ChangeEvent, "Warning", "BackOff" },
		func(c *model.Change) {
			c.Kind, c.Type, c.Reason, c.Combined = model.ChangeEvent, "Warning", "BackOff", true
		},
		func(c *model.Change) {
			c.Kind, c.Type, c.Reason, c.Dropped = model.ChangeEvent, "Warning", "BackOff", true
		},
		func(c *model.Change) { c.Kind, c.Type, c.Status = model.ChangeCondition, "Ready", "True" },
		func(c *model.Change) { c.Kind, c.Type, c.Status = model.ChangeCondition, "Ready", "False" },
		func(c *model.Change) { c.Kind, c.Type, c.Status = model.ChangeCondition, "ContainersReady", "True" },
		func(c *model.Change) { c.Kind, c.Node = model.ChangeEvent, "n" },
		func(c *model.Change) { c.Kind, c.Workload = model.ChangeEvent, "w" },
		func(c *model.Change) { c.Kind, c.Workload, c.Object = model.ChangeEvent, "w", "ReplicaSet" },
		func(c *model.Change) { c.Kind, c.Owner = model.ChangeEvent, "d" },
		func(c *model.Change) { c.Kind, c.From, c.To = model.ChangePhase, model.Pending, model.Running },
		func(c *model.Change) { c.Kind, c.From, c.To = model.ChangePhase, model.Running, model.Failed },
		func(c *model.Change) { c.Kind, c.To = model.ChangePhase, model.Running },
		func(c *model.Change) { c.Kind, c.Type, c.Status, c.Pod = model.ChangeNode, "Ready", "True", "" },
		func(c *model.Change) { c.Kind, c.Pod = model.ChangePod, "" },
	}
	flat, line, ind := ChangeJSON{keys: &flatKeys}, ChangeJSON{keys: &lineKeys}, IndentedJSON("    ", "  ")
	var buf []byte
	for round := range 3 * bodyWindow / len(variants) {
		for i, v := range variants {
			c := base
			c.T = time.Duration(round) * 1500 * time.Millisecond // each time twice: heads hit
			v(&c)
			want := AppendJSON(nil, &c)
			if got := flat.Append(nil, &c); !bytes.Equal(got, want) {
				t.Fatalf("round %d, variant %d: got %s, want %s", round, i, got, want)
			}
			buf = line.Append(buf[:0], &c)
			if got := string(buf); got != string(want)+"\n" {
				t.Fatalf("round %d, variant %d: line %q, want %s", round, i, got, want)
			}
			var indented bytes.Buffer
			if err := json.Indent(&indented, want, "    ", "  "); err != nil {
				t.Fatal(err)
			}
			if got := ind.Append(nil, &c); string(got) != indented.String() {
				t.Fatalf("round %d, variant %d: indented %s, want %s", round, i, got, indented.String())
			}
		}
	}
	if line.hits == 0 && line.skip == 0 {
		t.Fatal("the table of bodies never hit")
	}
}

// TestSameBody checks that a change differs from another's body by each
// field it writes there, and by none of the others.
func TestSameBody(t *testing.T) {
	base := model.Change{T: time.Second, Kind: model.ChangeEvent, Pod: "p", Namespace: "ns", Container: "c", Node: "n",
		Workload: "w", Object: "o", Owner: "d", From: model.Pending, To: model.Running, State: model.StateRunning,
		Reason: "Error", Message: "m", ExitCode: 1, HasExitCode: true, RestartCount: 2, Type: "Normal", Status: "True"}
	same := []func(c *model.Change){
		func(c *model.Change) { c.T++ },
		func(c *model.Change) { c.Pod = "q" },
		func(c *model.Change) { c.Namespace = "other" },
		func(c *model.Change) { c.RestartCount++ },
		func(c *model.Change) { c.Owner = "e" },
	}
	differ := []func(c *model.Change){
		func(c *model.Change) { c.Kind = model.ChangeCondition },
		func(c *model.Change) { c.Container = "d" },
		func(c *model.Change) { c.Node = "m" },
		func(c *model.Change) { c.Workload = "v" },
		func(c *model.Change) { c.Object = "p" },
		func(c *model.Change) { c.From = model.Running },
		func(c *model.Change) { c.To = model.Failed },
		func(c *model.Change) { c.State = model.StateWaiting },
		func(c *model.Change) { c.Reason = "Fault" },
		func(c *model.Change) { c.Reason = strings.Clone(c.Reason) }, // a miss, never a wrong line
		func(c *model.Change) { c.Message = "n" },
		func(c *model.Change) { c.ExitCode = 2 },
		func(c *model.Change) { c.HasExitCode = false },
		func(c *model.Change) { c.Type = "Nomral" },
		func(c *model.Change) { c.Status = "Tru" },
		func(c *model.Change) { c.Combined = true },
		func(c *model.Change) { c.Dropped = true },
	}
	// A change with no node, workload, object or phases, as most are,
	// differs from one with any.
	plain := base
	plain.Node, plain.Workload, plain.Object, plain.From, plain.To = "", "", "", "", ""
	plainDiffer := []func(c *model.Change){
		func(c *model.Change) { c.Node = "n" },
		func(c *model.Change) { c.Workload = "w" },
		func(c *model.Change) { c.Object = "o" },
		func(c *model.Change) { c.From = model.Pending },
		func(c *model.Change) { c.To = model.Running },
	}
	for _, b := range []model.Change{base, plain} {
		k := keyOf(&b)
		for want, vs := range map[bool][]func(*model.Change){true: same, false: append(differ, plainDiffer...)} {
			for i, v := range vs {
				c := b
				v(&c)
				if c == b {
					continue // the variant sets what b has
				}
				if got := sameBody(&k, &c); got != want {
					t.Errorf("base %q, variant %d: sameBody = %v, want %v", b.Node, i, got, want)
				}
			}
		}
	}
}
