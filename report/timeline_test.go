package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/podsim/podsim/internal/scenariogen"
	"github.com/podsim/podsim/model"
	"github.com/podsim/podsim/sim"
)

// The hand-written JSON lines are byte for byte what encoding/json writes
// for the contract's fields, odd strings and tiny times included.
func TestAppendJSONMatchesEncodingJSON(t *testing.T) {
	type line struct {
		T            float64 `json:"t"`
		Kind         string  `json:"kind"`
		Pod          string  `json:"pod,omitempty"`
		Node         string  `json:"node,omitempty"`
		Workload     string  `json:"workload,omitempty"`
		Object       string  `json:"object,omitempty"`
		Container    string  `json:"container,omitempty"`
		From         string  `json:"from,omitempty"`
		To           string  `json:"to,omitempty"`
		State        string  `json:"state,omitempty"`
		Type         string  `json:"type,omitempty"`
		Condition    string  `json:"condition,omitempty"`
		Status       string  `json:"status,omitempty"`
		Reason       string  `json:"reason,omitempty"`
		Message      string  `json:"message,omitempty"`
		ExitCode     *int32  `json:"exitCode,omitempty"`
		RestartCount *int32  `json:"restartCount,omitempty"`
	}
	odd := "quote \" back\\slash <tag> & tab\t nl\n ctl\x01 é \u2028 bad\xff"
	changes := []model.Change{
		{T: 0, Kind: model.ChangeNode, Node: "n", Type: "Ready", Status: "True", Reason: "KubeletReady"},
		{T: 1, Kind: model.ChangePhase, Pod: "p", To: model.Pending},
		{T: 1500 * time.Millisecond, Kind: model.ChangePhase, Pod: "p", From: model.Pending, To: model.Running},
		{T: 90 * time.Second, Kind: model.ChangeContainer, Pod: "p", Container: "c", State: model.StateTerminated, Reason: "Error", ExitCode: -1, HasExitCode: true, RestartCount: 3},
		{T: 30 * time.Hour, Kind: model.ChangeContainer, Pod: "p", Container: "c", State: model.StateRunning},
		{T: 7, Kind: model.ChangeEvent, Workload: "w", Object: "ReplicaSet", Type: "Normal", Reason: "SuccessfulCreate", Message: odd},
		{T: 123456789, Kind: model.ChangePod, Pod: odd, Reason: "Terminating", Message: "grace period 30s"},
		{T: 290 * 365 * 24 * time.Hour, Kind: model.ChangePhase, Pod: "late", From: model.Running, To: model.Failed},
		{T: 7 * time.Hour, Kind: model.ChangePhase, Pod: "whole", From: model.Running, To: model.Failed},
	}
	for i := range changes {
		c := &changes[i]
		want := line{T: c.T.Seconds(), Kind: c.Kind.String(), Pod: c.Pod, Node: c.Node, Workload: c.Workload, Object: c.Object,
			Container: c.Container, From: string(c.From), To: string(c.To), Status: c.Status, Reason: c.Reason, Message: c.Message}
		if c.Kind == model.ChangeNode {
			want.Condition = c.Type
		} else {
			want.Type = c.Type
		}
		if c.Kind == model.ChangeContainer {
			want.State = c.State.String()
			rc := c.RestartCount
			want.RestartCount = &rc
			if c.HasExitCode {
				ec := c.ExitCode
				want.ExitCode = &ec
			}
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(want); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		j := NewJSONL(&got)
		j.Change(c)
		if got.String() != buf.String() {
			t.Errorf("change %d:\n got %s\nwant %s", i, got.String(), buf.String())
		}
	}
}

// The streamed table is what writeTable renders for the same rows.
func TestTextTimelineMatchesTheTable(t *testing.T) {
	changes := []model.Change{
		{T: 0, Kind: model.ChangeNode, Node: "node-a", Type: "Ready", Status: "True", Reason: "KubeletReady"},
		{T: 90 * time.Second, Kind: model.ChangeContainer, Pod: "web", Container: "app", State: model.StateTerminated, Reason: "OOMKilled", ExitCode: 137, HasExitCode: true, RestartCount: 2},
		{T: 2*time.Hour + 5*time.Second, Kind: model.ChangeEvent, Pod: "web", Type: "Warning", Reason: "BackOff", Message: "Back-off restarting failed container app in pod web_default"},
		{T: 3 * time.Hour, Kind: model.ChangePod, Pod: "a-much-longer-pod-name", Reason: "Deleted"},
	}
	var rows [][]string
	for i := range changes {
		c := &changes[i]
		rows = append(rows, []string{sim.FormatTime(c.T), Object(c), Describe(c)})
	}
	var want, got bytes.Buffer
	if err := writeTable(&want, []string{"TIME", "OBJECT", "CHANGE"}, rows); err != nil {
		t.Fatal(err)
	}
	tt := NewTextTimeline(&got)
	for i := range changes {
		tt.Change(&changes[i])
	}
	if err := tt.Close(); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("streamed:\n%s\ntable:\n%s", got.String(), want.String())
	}
}

// A change in the default namespace is written as it was before namespaces
// (golden timelines stay byte-identical); another namespace adds a field.
func TestAppendJSONNamespace(t *testing.T) {
	for _, tc := range []struct {
		ns, want string
	}{
		{"", `{"t":1,"kind":"phase","pod":"p","to":"Pending"}`},
		{model.DefaultNamespace, `{"t":1,"kind":"phase","pod":"p","to":"Pending"}`},
		{"shop", `{"t":1,"kind":"phase","namespace":"shop","pod":"p","to":"Pending"}`},
	} {
		c := model.Change{T: time.Second, Kind: model.ChangePhase, Namespace: tc.ns, Pod: "p", To: model.Pending}
		if got := string(AppendJSON(nil, &c)); got != tc.want {
			t.Errorf("namespace %q: %s, want %s", tc.ns, got, tc.want)
		}
		if want := map[string]string{"shop": "shop/pod/p"}[tc.ns]; want != "" && Object(&c) != want {
			t.Errorf("Object: %s, want %s", Object(&c), want)
		}
	}
}

// appendString writes every string as encoding/json does (without HTML
// escaping): the quick path for quotes and backslashes, encoding/json's for
// the rest, whether the odd character comes before or after a quote.
func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", `Container image "c" already present on machine`, `"`, `\`, `""\\`, `a\"b`,
		"end\"", "\"start", "quote \" then tab\t", "tab\t then quote \"", `"é"`, "\u2028\"", "bad\xff\"", "<a&b>\"", "del\x7f\""} {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		want := "x" + strings.TrimSuffix(buf.String(), "\n")
		if got := string(appendString([]byte("x"), s)); got != want {
			t.Errorf("appendString(%q) = %s, want %s", s, got, want)
		}
	}
}

// Rows past the memory spool go to a temporary file and come back in
// order, and words past those kept are spooled in their rows: the table
// is the same.
func TestTextTimelineSpillsToAFile(t *testing.T) {
	defer func(n, c, k, b int) {
		textSpoolMemory, textSpoolChunk, textWordsKept, textWordsBytes = n, c, k, b
	}(textSpoolMemory, textSpoolChunk, textWordsKept, textWordsBytes)
	textSpoolMemory, textSpoolChunk, textWordsKept, textWordsBytes = 300, 100, 50, 1<<20
	var rows [][]string
	var changes []model.Change
	for i := range 500 {
		c := model.Change{T: time.Duration(i) * 7 * time.Millisecond, Kind: model.ChangeContainer, Pod: "web-" + strconv.Itoa(i%13),
			Container: "app", State: model.StateRunning, RestartCount: int32(i)}
		changes = append(changes, c)
		rows = append(rows, []string{sim.FormatTime(c.T), Object(&c), Describe(&c)})
	}
	var want, got bytes.Buffer
	if err := writeTable(&want, []string{"TIME", "OBJECT", "CHANGE"}, rows); err != nil {
		t.Fatal(err)
	}
	tt := NewTextTimeline(&got)
	for i := range changes {
		tt.Change(&changes[i])
	}
	if tt.file == nil || len(tt.words) != 50 {
		t.Fatalf("500 rows past a 100-byte spool, 50 words kept: file %v, %d words kept", tt.file, len(tt.words))
	}
	if err := tt.Close(); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("spilled table differs:\n%s\nwant:\n%s", got.String(), want.String())
	}
}

// An indented change is what json.Indent makes of the flat one, and an
// encoder that has seen many strings (its cache full of other strings of
// the same length and ends) writes each change as a fresh one does.
func TestIndentedJSONMatchesJSONIndent(t *testing.T) {
	changes := []model.Change{
		{T: 1500 * time.Millisecond, Kind: model.ChangeEvent, Pod: "web", Type: "Warning", Reason: "BackOff", Message: `Back-off {restarting}, "failed": a\b, [x]`},
		{T: 0, Kind: model.ChangeContainer, Pod: "p", Container: "c", State: model.StateTerminated, ExitCode: -1, HasExitCode: true, Combined: true},
		{T: time.Hour, Kind: model.ChangePod, Pod: "naïve\n\t", Reason: "Deleted", Message: "\u2028<&>"},
		{T: time.Hour, Kind: model.ChangeNode, Namespace: "shop", Node: "n", Type: "Ready", Status: "False", Dropped: true},
	}
	for i := range 4 { // changes alike but for one value
		changes = append(changes,
			model.Change{T: time.Second, Kind: model.ChangeContainer, Pod: "p", Container: "c", State: model.StateTerminated, ExitCode: int32(i % 2), HasExitCode: true, RestartCount: int32(i)},
			model.Change{T: time.Second, Kind: model.ChangeEvent, Pod: "p", Type: "Normal", Reason: "R", Message: "m", Combined: i%2 == 0, Dropped: i > 1},
			model.Change{T: time.Second, Kind: model.ChangePhase, Pod: "p", From: []model.Phase{model.Pending, model.Running}[i%2], To: model.Failed},
			model.Change{T: time.Second, Kind: model.ChangeEvent, Workload: "w", Object: []string{"Job", "Pod"}[i%2], Namespace: []string{"", "ab"}[i/2]},
		)
	}
	for i := range 500 { // strings that share slots with those above
		s := strconv.Itoa(i)
		changes = append(changes, model.Change{T: time.Duration(i), Kind: model.ChangeEvent, Pod: "w" + s + "b", Type: "W" + s + "g",
			Reason: "B\"" + s + "f", Message: strings.Repeat("m", i%40) + s + `"`})
	}
	flat, ind := ChangeJSON{keys: &flatKeys}, IndentedJSON("    ", "  ")
	for round := range 2 {
		for i := range changes {
			c := &changes[i]
			fresh := AppendJSON(nil, c)
			if got := flat.Append(nil, c); string(got) != string(fresh) {
				t.Errorf("round %d, change %d: cached %s, fresh %s", round, i, got, fresh)
			}
			var want bytes.Buffer
			if err := json.Indent(&want, fresh, "    ", "  "); err != nil {
				t.Fatal(err)
			}
			if got := ind.Append(nil, c); string(got) != want.String() {
				t.Errorf("round %d, change %d: got\n%s\nwant\n%s", round, i, got, want.String())
			}
		}
	}
}

// TestChangeJSONBodyTableSharedByPods checks that pods taking turns with
// the same change (a fleet, in any namespace) share one body in the table.
func TestChangeJSONBodyTableSharedByPods(t *testing.T) {
	e := ChangeJSON{keys: &flatKeys}
	for i := range bodyWindow - 1 { // one window: its count of hits is not reset

		c := &model.Change{T: time.Duration(i) * time.Second, Kind: model.ChangeCondition, Pod: "app-" + strconv.Itoa(i%1000),
			Namespace: []string{"", "default", "shop"}[i%3], Type: "Ready", Status: "True"}
		if got, want := e.Append(nil, c), AppendJSON(nil, c); string(got) != string(want) {
			t.Fatalf("got %s, want %s", got, want)
		}
	}
	if e.skip != 0 || e.hits != bodyWindow-2 {
		t.Fatalf("pods with the same change do not share its body (skip %d, hits %d)", e.skip, e.hits)
	}
}

// TestChangeJSONBodyTableOffAndOn checks that the writer turns its table of
// bodies off while every change misses it and on again when a few changes
// repeat, writing the bytes AppendJSON writes throughout.
func TestChangeJSONBodyTableOffAndOn(t *testing.T) {
	e := ChangeJSON{keys: &flatKeys}
	check := func(c *model.Change) {
		t.Helper()
		if got, want := e.Append(nil, c), AppendJSON(nil, c); string(got) != string(want) {
			t.Fatalf("got %s, want %s", got, want)
		}
	}
	for i := range 2 * bodyWindow { // a thousand pods taking turns, each with its own message
		check(&model.Change{T: time.Duration(i) * time.Second, Kind: model.ChangeEvent, Pod: "app-" + strconv.Itoa(i),
			Type: "Normal", Reason: "Scheduled", Message: "Successfully assigned default/app-" + strconv.Itoa(i) + " to n"})
	}
	if e.skip == 0 {
		t.Fatal("the table of bodies is still on while every change misses it")
	}
	for i := range bodySkip + 2*bodyWindow { // one pod's crash loop
		check(&model.Change{T: time.Duration(i) * time.Second, Kind: model.ChangeContainer, Pod: "p", Container: "c",
			State: model.StateRunning, RestartCount: int32(i)})
	}
	if e.skip != 0 || e.hits == 0 {
		t.Fatalf("the table of bodies is not back on for a repeating change (skip %d, hits %d)", e.skip, e.hits)
	}
}

// TestPlain8 checks the word-at-a-time test against the byte-at-a-time
// one, for every byte at every place of a word, with the other places
// plain or holding a byte that borrows.
func TestPlain8(t *testing.T) {
	plain := func(c byte) bool { return c >= 0x20 && c < utf8.RuneSelf && c != '"' && c != '\\' }
	for _, fill := range []byte{'a', ' ', '~', 0x21, '#', '[', ']'} {
		for pos := range 8 {
			for c := range 256 {
				w := []byte(strings.Repeat(string(fill), 8))
				w[pos] = byte(c)
				want := true
				for _, x := range w {
					want = want && plain(x)
				}
				if got := plain8(string(w)); got != want {
					t.Fatalf("plain8(%q) = %v, want %v", w, got, want)
				}
			}
		}
	}
}

// timeWidth counts what FormatTime prints, for every kind of instant.
func TestTimeWidth(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	ds := []time.Duration{0, 1, 999, time.Microsecond, 1500, time.Millisecond, 1500 * time.Microsecond,
		time.Second, time.Second + 1, time.Minute, time.Minute + time.Second, time.Hour, time.Hour + time.Minute,
		time.Hour + time.Second, time.Hour + 1, 10 * time.Hour, 100*time.Hour + 59*time.Minute, math.MaxInt64}
	for range 100000 {
		ds = append(ds, time.Duration(r.Int64N(int64(10*time.Hour))), time.Duration(r.Int64()),
			time.Duration(r.Int64N(1e6))*time.Millisecond, time.Duration(r.Int64N(1e6))*time.Second)
	}
	for _, d := range ds {
		if got, want := timeWidth(d), width(sim.FormatTime(d)); got != want {
			t.Fatalf("timeWidth(%d) = %d, want %d (%q)", d, got, want, sim.FormatTime(d))
		}
	}
}

// Once its objects and words are seen and its chunk is made, a row costs
// the text timeline no allocation, whatever its time; and its words cost
// no spool but their index.
func TestTextTimelineChangeAllocatesNothing(t *testing.T) {
	tt := NewTextTimeline(io.Discard)
	c := model.Change{T: time.Hour, Kind: model.ChangeContainer, Pod: "web", Container: "app", State: model.StateRunning}
	for c.RestartCount = range 10 {
		tt.Change(&c)
	}
	spooled := len(tt.mem)
	if n := testing.AllocsPerRun(1000, func() {
		c.T += 1500 * time.Millisecond
		c.RestartCount = (c.RestartCount + 1) % 10
		tt.Change(&c)
	}); n != 0 {
		t.Errorf("%v allocations per row", n)
	}
	// A row: the time since the last one's (5 bytes for 1.5 s), the
	// object's index and the words' (1 byte each).
	if per := float64(len(tt.mem)-spooled) / 1001; per > 7 {
		t.Errorf("%.1f bytes spooled per row of words seen, want at most 7", per)
	}
}

// Once its strings are known, a line costs the JSON lines writer no
// allocation, whether it writes each line to a bufio.Writer or holds them
// (NewJSONLBuffered), and the bytes are those of AppendJSON.
func TestJSONLChangeAllocatesNothing(t *testing.T) {
	var out, held bytes.Buffer
	bw := bufio.NewWriterSize(&out, 4096)
	writes := &countWrites{w: &held}
	sinks := []*JSONL{NewJSONL(bw), NewJSONL(io.Discard), NewJSONLBuffered(writes, 4096)}
	for _, j := range sinks {
		c := model.Change{T: time.Hour, Kind: model.ChangeContainer, Pod: "web", Container: "app", State: model.StateRunning}
		e := model.Change{T: time.Hour, Kind: model.ChangeEvent, Pod: "web", Type: "Normal", Reason: "Pulled",
			Message: `Container image "example/web:1.4" already present on machine`}
		j.Change(&c)
		j.Change(&e)
		if n := testing.AllocsPerRun(1000, func() {
			c.T += 1500 * time.Millisecond
			c.RestartCount++
			e.T = c.T
			j.Change(&c)
			j.Change(&e)
		}); n != 0 {
			t.Errorf("%T: %v allocations per line", j.w, n)
		}
	}
	if err := bw.Flush(); err != nil {
		t.Fatal(err)
	}
	// The held lines are written in pieces of about 4 KB, each ending a
	// line, and the rest only by Flush.
	if writes.n < 40 || held.Len() == 0 || held.Bytes()[held.Len()-1] != '\n' {
		t.Fatalf("%d writes of %d bytes before Flush", writes.n, held.Len())
	}
	before := held.Len()
	if err := sinks[2].Flush(); err != nil || held.Len() == before {
		t.Fatalf("Flush wrote %d bytes, %v", held.Len()-before, err)
	}
	if held.String() != out.String() {
		t.Fatal("the held lines differ from those written one by one")
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) < 2002 || !strings.HasPrefix(lines[len(lines)-1], `{"t":`) {
		t.Fatalf("%d lines, the last %q", len(lines), lines[len(lines)-1])
	}
	c := model.Change{T: time.Hour + 1001*1500*time.Millisecond, Kind: model.ChangeEvent, Pod: "web", Type: "Normal", Reason: "Pulled",
		Message: `Container image "example/web:1.4" already present on machine`}
	if want := string(AppendJSON(nil, &c)); lines[len(lines)-1] != want {
		t.Errorf("last line %s, want %s", lines[len(lines)-1], want)
	}
}

// countWrites counts the writes to w.
type countWrites struct {
	w io.Writer
	n int
}

func (c *countWrites) Write(p []byte) (int, error) {
	c.n++
	return c.w.Write(p)
}

// The words and objects the text timeline remembers by their strings'
// addresses are those their text would give: over random changes of every
// kind, made of a few strings passed again and of copies of them (the same
// text elsewhere), its table is writeTable's, also when its object table
// starts over every few sources.
func TestTextTimelineRecentAsText(t *testing.T) {
	for _, kept := range []int{objectsKept, 5} {
		t.Run(fmt.Sprint("kept ", kept), func(t *testing.T) {
			defer func(k int) { objectsKept = k }(objectsKept)
			objectsKept = kept
			textTimelineRecentAsText(t)
		})
	}
}

func textTimelineRecentAsText(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	pool := func(ss ...string) func() string {
		return func() string {
			s := ss[r.IntN(len(ss))]
			if r.IntN(4) == 0 {
				s = strings.Clone(s) // the same text, other bytes
			}
			return s
		}
	}
	pods, names := pool("", "web-0", "web-1", "db-0"), pool("", "app", "sidecar")
	nodes, spaces := pool("", "n-0", "n-1"), pool("", "default", "shop")
	words := pool("", "Ready", "True", "False", "BackOff", "Normal", "Warning", "Back-off restarting", "Error")
	leading := pool("Ready", "Normal", "Warning", "BackOff") // what a change's words start with is never blank
	phases := []model.Phase{"", model.Pending, model.Running, model.Failed}
	kinds := []model.ChangeKind{model.ChangePhase, model.ChangeContainer, model.ChangeCondition, model.ChangeNode,
		model.ChangeWorkload, model.ChangeEvent, model.ChangePod, model.ChangeClient}
	var rows [][]string
	var got, want bytes.Buffer
	tt := NewTextTimeline(&got)
	for i := range 20000 {
		c := model.Change{T: time.Duration(i) * time.Second, Kind: kinds[r.IntN(len(kinds))], Pod: pods(), Namespace: spaces(),
			Container: names(), Node: nodes(), Reason: leading(), Message: words(), Type: leading(), Status: words(),
			From: phases[r.IntN(len(phases))], To: phases[r.IntN(len(phases))], State: model.StateKind(1 + r.IntN(3)),
			ExitCode: int32(r.IntN(3)), HasExitCode: r.IntN(2) == 0, RestartCount: int32(r.IntN(3)),
			Combined: r.IntN(2) == 0, Dropped: r.IntN(2) == 0}
		if r.IntN(5) == 0 {
			c.Workload, c.Object = "web", []string{"", "ReplicaSet", "Deployment"}[r.IntN(3)]
		}
		tt.Change(&c)
		rows = append(rows, []string{sim.FormatTime(c.T), Object(&c), Describe(&c)})
	}
	if err := tt.Close(); err != nil {
		t.Fatal(err)
	}
	if err := writeTable(&want, []string{"TIME", "OBJECT", "CHANGE"}, rows); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		g, w := strings.Split(got.String(), "\n"), strings.Split(want.String(), "\n")
		for i := range min(len(g), len(w)) {
			if g[i] != w[i] {
				t.Fatalf("line %d: %q, want %q", i, g[i], w[i])
			}
		}
		t.Fatalf("%d lines, want %d", len(g), len(w))
	}
}

// The object table finds every object it was given, by its strings'
// addresses, however many (a fleet's outnumber a small cache's slots),
// and no other: the same text elsewhere is not found.
func TestObjectTableFindsEveryObjectSeen(t *testing.T) {
	var table objectTable
	changes := make([]model.Change, 5000)
	for i := range changes {
		changes[i] = model.Change{Kind: model.ChangeContainer, Pod: fmt.Sprintf("app-%d", i), Container: "c"}
		if i%2 == 1 {
			changes[i].Container = ""
		}
		c := &changes[i]
		if _, ok := table.find(c, objectHash(c)); ok {
			t.Fatalf("%d found before it was added", i)
		}
		table.add(c, objectHash(c), uint32(i))
	}
	for i := range changes {
		c := &changes[i]
		if id, ok := table.find(c, objectHash(c)); !ok || id != uint32(i) {
			t.Fatalf("%d: found %d, %v", i, id, ok)
		}
	}
	copied := changes[7]
	copied.Pod = strings.Clone(copied.Pod)
	if _, ok := table.find(&copied, objectHash(&copied)); ok {
		t.Error("an object found by another string of the same text")
	}
	if len(table.index.refs) < 2*len(table.srcs) {
		t.Errorf("%d entries for %d sources: more than half full", len(table.index.refs), len(table.srcs))
	}
}

// A remembered object or words are those of a change only if every field
// they are written from is the same.
func TestRecentSlotsTellChangesApart(t *testing.T) {
	base := model.Change{Kind: model.ChangeContainer, Namespace: "shop", Pod: "web", Container: "app", Node: "n-0", Workload: "w",
		Object: "ReplicaSet", Reason: "Error", Message: "m", Type: "Warning", Status: "True", From: model.Pending, To: model.Running,
		State: model.StateTerminated, ExitCode: 1, HasExitCode: true, RestartCount: 2}
	var obj objectSlot
	var words wordsSlot
	obj.keep(&base, 0)
	words.keep(&base, 0)
	if c := base; !obj.holds(&c) || !words.holds(&c) {
		t.Fatal("the same change is not remembered")
	}
	for name, edit := range map[string]func(c *model.Change){
		"kind": func(c *model.Change) { c.Kind = model.ChangeNode }, "namespace": func(c *model.Change) { c.Namespace = "x" },
		"pod": func(c *model.Change) { c.Pod = "x" }, "container": func(c *model.Change) { c.Container = "x" },
		"node": func(c *model.Change) { c.Node = "x" }, "workload": func(c *model.Change) { c.Workload = "x" },
		"object": func(c *model.Change) { c.Object = "x" },
	} {
		c := base
		edit(&c)
		if obj.holds(&c) {
			t.Errorf("another %s: the same object", name)
		}
	}
	for name, edit := range map[string]func(c *model.Change){
		"kind": func(c *model.Change) { c.Kind = model.ChangeEvent }, "reason": func(c *model.Change) { c.Reason = "x" },
		"message": func(c *model.Change) { c.Message = "x" }, "type": func(c *model.Change) { c.Type = "x" },
		"status": func(c *model.Change) { c.Status = "x" }, "object": func(c *model.Change) { c.Object = "x" },
		"from": func(c *model.Change) { c.From = model.Failed }, "to": func(c *model.Change) { c.To = model.Failed },
		"state": func(c *model.Change) { c.State = model.StateRunning }, "exit code": func(c *model.Change) { c.ExitCode = 3 },
		"has exit code": func(c *model.Change) { c.HasExitCode = false }, "restarts": func(c *model.Change) { c.RestartCount = 5 },
		"combined": func(c *model.Change) { c.Combined = true }, "dropped": func(c *model.Change) { c.Dropped = true },
	} {
		c := base
		edit(&c)
		if words.holds(&c) {
			t.Errorf("another %s: the same words", name)
		}
	}
}

// A row at the last row's instant, of its object, spools its words only:
// the two take one byte (a fleet's rows come a few a pod at one instant).
func TestTextTimelineSpoolsARepeatInTwoBytes(t *testing.T) {
	tt := NewTextTimeline(io.Discard)
	c := model.Change{T: time.Minute, Kind: model.ChangeCondition, Pod: "web", Type: "Ready", Status: "True"}
	tt.Change(&c)
	before := len(tt.mem)
	for range 100 {
		tt.Change(&c)
	}
	if n := len(tt.mem) - before; n != 200 {
		t.Errorf("100 repeats spooled in %d bytes, want 200", n)
	}
	c.T += time.Second
	tt.Change(&c)
	if err := tt.Close(); err != nil {
		t.Fatal(err)
	}
}

// podSink is a sink that can find pods by the world's (FindPodsIn).
type podSink interface {
	model.Sink
	FindPodsIn(world *model.World)
}

// byPodAsByName runs every scenario of the library into two sinks that
// newSink makes, the first finding pods by the world's, and fails a
// scenario whose two outputs (end writes out the rest) differ. After
// each change naming a pod, and both sinks had it, check returns whether
// the first kept what it wrote of the pod by the pod; it fails a scenario
// where one did not, and the test if fewer than 10,000 changes named a
// pod.
func byPodAsByName[S podSink](t *testing.T, newSink func(io.Writer) S, end func(S) error, check func(byPod S, p *model.Pod, c *model.Change) bool) {
	all, err := scenariogen.Valid([]string{"../scenarios"}, "runaway", "slow")
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, s := range all {
		var byPod, byName bytes.Buffer
		w := s.NewWorld()
		a, b := newSink(&byPod), newSink(&byName)
		a.FindPodsIn(w)
		w.Subscribe(a)
		w.Subscribe(b)
		missed, named := 0, 0
		w.Subscribe(sinkFunc(func(c *model.Change) {
			if p := w.ChangeNamesPod(); p != nil {
				named++
				if !check(a, p, c) {
					missed++
				}
			}
		}))
		s.Populate(w)
		w.RunChecked(s.Duration, 500_000, nil)
		if err := errors.Join(end(a), end(b)); err != nil {
			t.Fatal(err)
		}
		if byPod.String() != byName.String() {
			t.Errorf("%s: the outputs differ", s.Path)
		}
		if missed > 0 {
			t.Errorf("%s: %d of %d changes naming their pod not kept by the pod", s.Path, missed, named)
		}
		total += named
	}
	if total < 10000 {
		t.Errorf("only %d changes named their pod", total)
	}
}

// sinkFunc is a sink of a function.
type sinkFunc func(c *model.Change)

func (f sinkFunc) Change(c *model.Change) { f(c) }

// Over the scenarios of the library, a text timeline that finds pods'
// objects by the pod (FindPodsIn) writes what one finding them by their
// names writes, and keeps each such change's object (the pod's own or a
// container's) by its pod.
func TestTextTimelineFindsPodsByThePod(t *testing.T) {
	byPodAsByName(t, NewTextTimeline, (*TextTimeline).Close, func(a *TextTimeline, p *model.Pod, c *model.Change) bool {
		if c.Workload != "" || c.Object != "" {
			return true // another object: a workload's, kubectl
		}
		var id uint32
		if p.ID() < len(a.pods) {
			id = a.pods[p.ID()].pod
			if c.Container != "" {
				id = a.pods[p.ID()].container
			}
		}
		return id != 0 && a.objs[id-1] == Object(c)
	})
}

// Over the scenarios of the library, JSON lines that keep pods' fronts by
// the pod (FindPodsIn) are those kept by address, and each change naming
// a pod finds its front in the slice by pod.
func TestJSONLFindsPodsByThePod(t *testing.T) {
	newSink := func(w io.Writer) *JSONL { return NewJSONLBuffered(w, 4096) }
	byPodAsByName(t, newSink, (*JSONL).Flush, func(a *JSONL, p *model.Pod, c *model.Change) bool {
		if int(c.Kind) >= len(a.enc.heads) {
			return true // not through the tables
		}
		return p.ID() < len(a.enc.podFronts) && at(a.enc.podFronts[p.ID()].pod, c.Pod)
	})
}
