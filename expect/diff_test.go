package expect

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestUnifiedDiff(t *testing.T) {
	a := "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\n"
	b := "a\nb\nc\nD\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\n"
	want := `--- old
+++ new
@@ -1,7 +1,7 @@
 a
 b
 c
-d
+D
 e
 f
 g
@@ -11,3 +11,4 @@
 k
 l
 m
+n
`
	if got := UnifiedDiff("old", "new", a, b, 3, 0); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if got := UnifiedDiff("old", "new", a, a, 3, 0); got != "" {
		t.Errorf("equal texts give %q", got)
	}
	// Changes close together share a hunk.
	got := UnifiedDiff("old", "new", "1\n2\n3\n4\n5\n", "1\nX\n3\n4\nY\n", 1, 0)
	want = "--- old\n+++ new\n@@ -1,5 +1,5 @@\n 1\n-2\n+X\n 3\n 4\n-5\n+Y\n"
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	// From and to nothing.
	if got, want := UnifiedDiff("old", "new", "", "x\n", 3, 0), "--- old\n+++ new\n@@ -0,0 +1 @@\n+x\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := UnifiedDiff("old", "new", "x\ny\n", "", 3, 0), "--- old\n+++ new\n@@ -1,2 +0,0 @@\n-x\n-y\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// A long diff is cut.
	long := UnifiedDiff("old", "new", strings.Repeat("a\n", 100), strings.Repeat("b\n", 100), 3, 10)
	if n := strings.Count(long, "\n"); n != 13 || !strings.HasSuffix(long, "... 191 more diff lines\n") {
		t.Errorf("%d lines, ending %q", n, long[max(0, len(long)-40):])
	}
}

// apply rebuilds b from a and an edit script, checking the script on the way.
func apply(t *testing.T, a, b []string, edits []edit) []string {
	t.Helper()
	var out []string
	ia := 0
	for _, e := range edits {
		switch e.op {
		case ' ':
			if e.a != ia || a[e.a] != b[e.b] {
				t.Fatalf("bad kept line %+v", e)
			}
			out = append(out, a[e.a])
			ia++
		case '-':
			if e.a != ia {
				t.Fatalf("deletion out of order %+v", e)
			}
			ia++
		case '+':
			out = append(out, b[e.b])
		}
	}
	if ia != len(a) {
		t.Fatalf("script consumed %d of %d lines", ia, len(a))
	}
	return out
}

// lcs is the length of a longest common subsequence, by dynamic programming.
func lcs(a, b []string) int {
	prev := make([]int, len(b)+1)
	for i := range a {
		cur := make([]int, len(b)+1)
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
			} else {
				cur[j+1] = max(cur[j], prev[j+1])
			}
		}
		prev = cur
	}
	return prev[len(b)]
}

func TestDiffLinesIsShortest(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"a", "b", "c", "d"}
	for range 2000 {
		a := make([]string, r.IntN(12))
		b := make([]string, r.IntN(12))
		for i := range a {
			a[i] = words[r.IntN(len(words))]
		}
		for i := range b {
			b[i] = words[r.IntN(len(words))]
		}
		edits := diffLines(a, b)
		if got := apply(t, a, b, edits); !slices.Equal(got, b) {
			t.Fatalf("diff of %v and %v rebuilds %v", a, b, got)
		}
		kept := 0
		for _, e := range edits {
			if e.op == ' ' {
				kept++
			}
		}
		if want := lcs(a, b); kept != want {
			t.Fatalf("diff of %v and %v keeps %d lines, want %d", a, b, kept, want)
		}
	}
}

func TestDiffLinesGivesUpOnHugeDiffs(t *testing.T) {
	var a, b []string
	for i := range 1500 {
		a = append(a, "a"+strings.Repeat("x", i%7)+string(rune('0'+i%10)))
		b = append(b, "b"+strings.Repeat("y", i%5)+string(rune('0'+i%10)))
	}
	a, b = append([]string{"same"}, a...), append([]string{"same"}, b...)
	edits := diffLines(a, b)
	if got := apply(t, a, b, edits); !slices.Equal(got, b) {
		t.Fatal("the wholesale replacement does not rebuild b")
	}
	if len(edits) != 1+1500+1500 {
		t.Errorf("%d edits, want the common line kept and the rest replaced", len(edits))
	}
}
