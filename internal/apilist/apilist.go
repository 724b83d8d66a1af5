// Package apilist lists a package's exported API, one declaration a line,
// for a test to compare with a listing checked in beside the package: a
// change to what Go programs outside grip build on (client, workflow)
// shows in review as a change to that file, never by accident.
package apilist

import (
	"bytes"
	"flag"
	"go/ast"
	"go/build"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "write the API listings anew")

// Of returns the exported API of the package in dir (its non-test files):
// each exported const, var, type (with its exported fields and methods'
// signatures), func and method, sorted.
func Of(dir string) (string, error) {
	// The files this platform builds, as go/build chooses them by name and
	// build tags: a function declared once per OS is listed once.
	bp, err := build.ImportDir(dir, 0)
	if err != nil {
		return "", err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, name := range bp.GoFiles {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return "", err
		}
		files = append(files, f)
	}
	var lines []string
	node := func(n any) string {
		var b bytes.Buffer
		_ = (&printer.Config{Mode: printer.RawFormat}).Fprint(&b, fset, n)
		var parts []string
		for _, l := range strings.Split(b.String(), "\n") {
			if l = strings.Join(strings.Fields(l), " "); l != "" {
				parts = append(parts, l)
			}
		}
		s := strings.Join(parts, "; ")
		return strings.NewReplacer("{; ", "{ ", "; }", " }", "(; ", "(", "; )", ")").Replace(s)
	}
	for _, f := range files {
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() || (d.Recv != nil && !exportedRecv(d.Recv)) {
					continue
				}
				d = &ast.FuncDecl{Recv: d.Recv, Name: d.Name, Type: d.Type}
				lines = append(lines, node(d))
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					switch s := spec.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						lines = append(lines, "type "+node(exportedOnly(s)))
					case *ast.ValueSpec:
						for _, name := range s.Names {
							if name.IsExported() {
								kind := "var"
								if d.Tok == token.CONST {
									kind = "const"
								}
								typ := ""
								if s.Type != nil {
									typ = " " + node(s.Type)
								}
								lines = append(lines, kind+" "+name.Name+typ)
							}
						}
					}
				}
			}
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n") + "\n", nil
}

// exportedRecv says whether a method's receiver type is exported.
func exportedRecv(recv *ast.FieldList) bool {
	t := recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if g, ok := t.(*ast.IndexExpr); ok {
		t = g.X
	}
	id, ok := t.(*ast.Ident)
	return ok && id.IsExported()
}

// exportedOnly is s with a struct's or interface's unexported fields and
// methods left out, and no comments.
func exportedOnly(s *ast.TypeSpec) *ast.TypeSpec {
	out := *s
	out.Doc, out.Comment = nil, nil
	keep := func(fl *ast.FieldList) *ast.FieldList {
		if fl == nil {
			return nil
		}
		kept := &ast.FieldList{}
		for _, f := range fl.List {
			var names []*ast.Ident
			for _, n := range f.Names {
				if n.IsExported() {
					names = append(names, n)
				}
			}
			embedded := len(f.Names) == 0
			if len(names) == 0 && !embedded {
				continue
			}
			kept.List = append(kept.List, &ast.Field{Names: names, Type: f.Type})
		}
		return kept
	}
	switch t := s.Type.(type) {
	case *ast.StructType:
		out.Type = &ast.StructType{Fields: keep(t.Fields)}
	case *ast.InterfaceType:
		out.Type = &ast.InterfaceType{Methods: keep(t.Methods)}
	}
	return &out
}

// Check compares the API of the package in the test's directory with the
// listing in file there (api.txt); with -update it writes the listing.
func Check(t *testing.T, file string) {
	t.Helper()
	got, err := Of(".")
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("%v (go test -run TestAPI -update writes it)", err)
	}
	if got != string(want) {
		abs, _ := filepath.Abs(file)
		t.Fatalf("the exported API differs from %s:\n%s\nIf the change is meant, run go test -run TestAPI -update and review the listing's diff.", abs, diff(string(want), got))
	}
}

// diff lists the lines only in want (-) and only in got (+).
func diff(want, got string) string {
	in := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			m[l] = true
		}
		return m
	}
	w, g := in(want), in(got)
	var out []string
	for _, l := range strings.Split(want, "\n") {
		if !g[l] {
			out = append(out, "- "+l)
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if !w[l] {
			out = append(out, "+ "+l)
		}
	}
	return strings.Join(out, "\n")
}
