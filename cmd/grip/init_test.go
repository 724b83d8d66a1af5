package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Every start of grip runs every linked package's initialisers, whatever
// the command (docs/cli-cost.md, "The CLI's fixed cost"): no
// package-level variable of the module's packages it links may parse a
// template at init (nor compile a regexp, should one come back despite
// TestDependencies). Inside a function literal (sync.OnceValue) it
// waits for its first use.
func TestNothingCompiledAtInit(t *testing.T) {
	// The module's packages linked into this binary, with their files.
	out, err := exec.Command("go", "list", "-deps", "-f",
		`{{if .Module}}{{if eq .Module.Path "github.com/grip-dev/grip"}}{{.Dir}}{{range .GoFiles}} {{.}}{{end}}{{"\n"}}{{end}}{{end}}`, ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	fset := token.NewFileSet()
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		if len(fields) < 2 {
			continue
		}
		for _, name := range fields[1:] {
			path := filepath.Join(fields[0], name)
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				t.Fatal(err)
			}
			for _, decl := range f.Decls {
				g, ok := decl.(*ast.GenDecl)
				if !ok || g.Tok != token.VAR {
					continue
				}
				ast.Inspect(g, func(n ast.Node) bool {
					if _, ok := n.(*ast.FuncLit); ok {
						return false // runs when called, not at init
					}
					call, ok := n.(*ast.CallExpr)
					if !ok {
						return true
					}
					if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
						if x, ok := sel.X.(*ast.Ident); ok && (x.Name == "regexp" || x.Name == "template") &&
							strings.HasPrefix(sel.Sel.Name, "Must") {
							t.Errorf("%s: %s.%s at init: wrap it in sync.OnceValue", fset.Position(call.Pos()), x.Name, sel.Sel.Name)
						}
					}
					return true
				})
			}
		}
	}
}
