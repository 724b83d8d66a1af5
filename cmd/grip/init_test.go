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

// Every start of the one binary runs every linked package's initialisers,
// whatever the command (docs/ARCHITECTURE.md, "The CLI's fixed cost"): no
// package-level variable of the module's packages it links may parse a
// template at init (nor compile a regexp, should one come back despite
// TestNoRegexpLinked). Inside a function literal (sync.OnceValue) it
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

// The one binary links no HTTP stack: net/http brings its client, HTTP/2
// and TLS, whose package init every command's start would pay
// (docs/ARCHITECTURE.md, "The CLI's fixed cost"). The demo shop has a
// responder of its own (demo/site.go); tests may use net/http freely.
func TestNoHTTPStackLinked(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		switch pkg {
		case "net/http", "crypto/tls", "vendor/golang.org/x/net/http2/hpack":
			t.Errorf("grip links %s", pkg)
		}
	}
}

// The one binary links no regexp: regexp/syntax refers to the unicode
// package's tables of categories and scripts, so the linker keeps those
// maps and their init runs at every start, about 9% of `grip --version`,
// even when no regexp is ever compiled (docs/ARCHITECTURE.md, "The CLI's
// fixed cost"). The few texts grip matches are read by hand, each held
// equal to its regexp by a test and a fuzz target; tests may use regexp
// freely.
func TestNoRegexpLinked(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		switch pkg {
		case "regexp", "regexp/syntax":
			t.Errorf("grip links %s", pkg)
		}
	}
}
