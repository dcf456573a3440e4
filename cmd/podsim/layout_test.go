package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/podsim/podsim/"

// ownImports maps each package of the module (a folder with non-test Go
// files) to the module's packages its non-test files import, sorted.
func ownImports(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != root && (strings.HasPrefix(n, ".") || n == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		pkg := filepath.ToSlash(rel)
		if _, ok := out[pkg]; !ok {
			out[pkg] = nil
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			if own, ok := strings.CutPrefix(p, module); ok && !slices.Contains(out[pkg], own) {
				out[pkg] = append(out[pkg], own)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range out {
		slices.Sort(v)
	}
	return out
}

// TestReadmeLayoutIsTrue keeps the README's Layout true: its folders
// name every package, and its table of imports is what the code imports.
func TestReadmeLayoutIsTrue(t *testing.T) {
	readme := mustRead(t, filepath.Join(root, "README.md"))
	layout := readme[strings.Index(readme, "## Layout"):]
	split := strings.Index(layout, "Imports flow")
	folders, imports := cells(layout[:split]), cells(layout[split:])
	have := ownImports(t)
	for _, pkg := range slices.Sorted(maps.Keys(have)) {
		want := have[pkg]
		if _, ok := folders[pkg]; !ok {
			t.Errorf("README Layout: package %s is not among the folders", pkg)
		}
		got, ok := imports[pkg]
		if !ok {
			t.Errorf("README Layout: package %s is not in the table of imports", pkg)
			continue
		}
		if !slices.Equal(got, want) {
			t.Errorf("README Layout: %s imports %v; the table says %v", pkg, want, got)
		}
	}
}

// cells reads the rows of the markdown tables in text: each name quoted in
// a row's first cell (a trailing slash dropped) maps to the names quoted in
// its second cell, sorted.
func cells(text string) map[string][]string {
	quoted := regexp.MustCompile("`([^`]+)`")
	names := func(cell string) []string {
		var out []string
		for _, m := range quoted.FindAllStringSubmatch(cell, -1) {
			out = append(out, strings.TrimSuffix(m[1], "/"))
		}
		return out
	}
	out := map[string][]string{}
	for line := range strings.SplitSeq(text, "\n") {
		c := strings.Split(line, "|")
		if len(c) != 4 {
			continue
		}
		for _, n := range names(c[1]) {
			out[n] = slices.Sorted(slices.Values(names(c[2])))
		}
	}
	return out
}

// No Go file but a test is over 600 lines, and no function in one over
// 120 (issue 22): a file that grows past it is split by concern, a
// function into the steps it takes.
func TestNoFileOver600Lines(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if n := strings.Count(string(data), "\n"); n > 600 {
			t.Errorf("%s: %d lines, want at most 600", path, n)
		}
		f, err := parser.ParseFile(fset, path, data, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			if fn, ok := decl.(*ast.FuncDecl); ok {
				if n := fset.Position(fn.End()).Line - fset.Position(fn.Pos()).Line + 1; n > 120 {
					t.Errorf("%s: func %s: %d lines, want at most 120", path, fn.Name.Name, n)
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
