package yamlstrict

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// mergeBomb is levels mappings, each merging the one before twice.
func mergeBomb(levels int) string {
	var b strings.Builder
	b.WriteString("x0: &a0 {k0: 1, k1: 2}\n")
	for i := 1; i < levels; i++ {
		fmt.Fprintf(&b, "x%d: &a%d {<<: [*a%d, *a%d], k%d: 1}\n", i, i, i-1, i-1, i)
	}
	fmt.Fprintf(&b, "top: {<<: *a%d}\n", levels-1)
	return b.String()
}

func parse(t *testing.T, src string) *yaml.Node {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(src), &n); err != nil {
		t.Fatal(err)
	}
	return &n
}

func TestCheckExpansionMergeBomb(t *testing.T) {
	src := mergeBomb(60)
	if len(src) > 3000 {
		t.Fatalf("the bomb is %d bytes", len(src))
	}
	e := CheckExpansion("f.yaml", parse(t, src))
	if e == nil {
		t.Fatal("a merge bomb passed the expansion budget")
	}
	// 2^k values at level k: each value counts, keys included: level 17 (line 18) is the first past about 1e6.
	if e.Pos.Line != 18 || !strings.Contains(e.Msg, "merge keys") {
		t.Errorf("got %v, want an error at line 18 about merge keys", e)
	}
	// The strict decoder refuses it too, without expanding it.
	var out struct {
		X map[string]any `yaml:",inline"`
	}
	_, errs := Decode("f.yaml", parse(t, src), &out)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "f.yaml:18:") {
		t.Errorf("Decode: %v", errs)
	}
}

func TestCheckExpansionAliasesAndMergesCountTogether(t *testing.T) {
	// Small: fits.
	if e := CheckExpansion("f", parse(t, mergeBomb(10))); e != nil {
		t.Errorf("10 levels (1k values) refused: %v", e)
	}
	// Aliases alone, in sequences (the billion laughs).
	var b strings.Builder
	b.WriteString("l0: &l0 [a, a, a, a, a, a, a, a, a, a]\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&b, "l%d: &l%d [*l%[3]d, *l%[3]d, *l%[3]d, *l%[3]d, *l%[3]d, *l%[3]d, *l%[3]d, *l%[3]d, *l%[3]d, *l%[3]d]\n", i, i, i-1)
	}
	if e := CheckExpansion("f", parse(t, b.String())); e == nil || e.Pos.Line != 6 {
		t.Errorf("billion laughs: got %v, want an error at line 6 (1e6 values and their parents)", e)
	}
	// A cycle counts once; the decoder reports it.
	if e := CheckExpansion("f", parse(t, "a: &a [*a]\n")); e != nil {
		t.Errorf("cycle: %v", e)
	}
}

func TestParseOneRefusesBombs(t *testing.T) {
	_, err := ParseOne("f.yaml", []byte(mergeBomb(40)))
	if err == nil || !strings.HasPrefix(err.Error(), "f.yaml:18:") {
		t.Errorf("got %v", err)
	}
	doc, err := ParseOne("f.yaml", nil)
	if doc != nil || err != nil {
		t.Errorf("empty input: %v, %v", doc, err)
	}
	_, err = ParseOne("f.yaml", []byte("a: 1\n---\nb: 2\n"))
	if err == nil || !strings.Contains(err.Error(), "f.yaml:2:1: ") {
		t.Errorf("two documents: %v", err)
	}
}

// endless reads zeros forever, as /dev/zero or `yes` does.
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'y'
	}
	e.n += int64(len(p))
	return len(p), nil
}

func TestReadAllStopsAtTheLimit(t *testing.T) {
	r := &endless{}
	_, err := ReadAll("-", r, 1<<20)
	if err == nil || err.Error() != "-:1:1048577: file too large: more than 1 MiB" {
		t.Errorf("got %v", err)
	}
	if r.n > 1<<20+64<<10 {
		t.Errorf("read %d bytes for a limit of 1 MiB", r.n)
	}
	if _, err := ReadAll("-", strings.NewReader("ab\ncdef\ng"), 6); err == nil || err.Error() != "-:2:4: file too large: more than 6 bytes" {
		t.Errorf("got %v", err)
	}
	data, err := ReadAll("-", io.LimitReader(r, 1<<20), 1<<20)
	if err != nil || len(data) != 1<<20 {
		t.Errorf("exactly the limit: %d bytes, %v", len(data), err)
	}
	if _, err := ReadFile("/dev/zero"); err == nil || !strings.Contains(err.Error(), "not a regular file (a character device)") {
		t.Errorf("/dev/zero: %v", err)
	}
}
