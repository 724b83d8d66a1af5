package protocol_test

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/grip-dev/grip/extension"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/protocol/internal/tsgen"
)

// readExtensionFile returns one of the extension's files as shipped.
func readExtensionFile(t *testing.T, name string) string {
	t.Helper()
	b, err := fs.ReadFile(extension.Files(), name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRouterHandlesExactlyExtRequests fails when the worker's router and
// the Go list of requests disagree: a request the host sends that the
// worker does not know, or one the worker answers that the host never
// sends. (tsc checks the same against protocol.d.ts, and each handler's
// params and reply too; this test needs no tsc.)
func TestRouterHandlesExactlyExtRequests(t *testing.T) {
	src := readExtensionFile(t, "worker/router.js")
	m := regexp.MustCompile(`(?s)\nconst handlers = \{\n(.*?)\n\};\n`).FindStringSubmatch(src)
	if m == nil {
		t.Fatal("router.js has no `const handlers = {…};` table")
	}
	var got []string
	for _, h := range regexp.MustCompile(`(?m)^  ([a-z_]+): `).FindAllStringSubmatch(m[1], -1) {
		got = append(got, h[1])
	}
	want := slices.Clone(protocol.ExtRequests)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("router.js handles %v\nprotocol.ExtRequests lists %v", got, want)
	}
}

// TestGeneratedFilesAreFresh fails when a file generated from the Go types
// (extension/protocol.d.ts, extension/kernel/keycodes.js) is not what the
// types give now.
func TestGeneratedFilesAreFresh(t *testing.T) {
	files, err := tsgen.Files("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		got, err := os.ReadFile(filepath.Join("..", filepath.FromSlash(f.Path)))
		if err != nil || !bytes.Equal(got, f.Data) {
			t.Errorf("%s is stale (%v): run %s", f.Path, err, tsgen.Command)
		}
	}
}

// TestEveryNameIsListed: every constant of protocol's contract is in the
// list the generator reads, so none is missing from protocol.d.ts: each
// Code in Codes, Boundary in Boundaries, EventKind in EventKinds, and each
// Ext… request name in ExtCalls, Host… in HostCalls.
func TestEveryNameIsListed(t *testing.T) {
	lists := map[string][]string{
		"Code":      strs(protocol.Codes),
		"Boundary":  strs(protocol.Boundaries),
		"EventKind": strs(protocol.EventKinds),
		"Ext":       protocol.ExtRequests,
		"Host":      hostRequests(),
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				v := spec.(*ast.ValueSpec)
				list := ""
				if id, ok := v.Type.(*ast.Ident); ok && lists[id.Name] != nil {
					list = id.Name
				} else if g, ok := v.Type.(*ast.IndexListExpr); ok && fmt.Sprint(g.X) == "ExtCall" {
					list = "Ext" // a typed request: ExtCall[P, R]
				} else if ok && fmt.Sprint(g.X) == "HostCall" {
					list = "Host"
				} else if v.Type == nil && len(v.Names) == 1 {
					for _, prefix := range []string{"Ext", "Host"} {
						if strings.HasPrefix(v.Names[0].Name, prefix) {
							list = prefix
						}
					}
				}
				if list == "" || len(v.Values) != 1 {
					continue
				}
				lit, ok := v.Values[0].(*ast.BasicLit)
				if !ok || lit.Kind != token.STRING {
					continue
				}
				value, _ := strconv.Unquote(lit.Value)
				n++
				if !slices.Contains(lists[list], value) {
					t.Errorf("%s: %s = %q is not in the list of %s", name, v.Names[0].Name, value, list)
				}
			}
		}
	}
	if n < 40 {
		t.Errorf("found only %d constants: the test no longer reads protocol's files", n)
	}
	if !slices.Equal(hostRequests(), protocol.HostRequests) {
		t.Errorf("HostCalls %v, HostRequests %v", hostRequests(), protocol.HostRequests)
	}
}

func hostRequests() []string {
	var names []string
	for _, c := range protocol.HostCalls {
		names = append(names, c.Name)
	}
	return names
}

func strs[S ~string](list []S) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = string(s)
	}
	return out
}

// TestEventKindsAreSent: the event kinds the host reacts to are the ones
// the worker sends (tsc refuses any other kind; this checks none is
// missing).
func TestEventKindsAreSent(t *testing.T) {
	src := readExtensionFile(t, "worker/background.js")
	var got []string
	for _, m := range regexp.MustCompile(`notifyHost\('([a-z_]+)'`).FindAllStringSubmatch(src, -1) {
		got = append(got, m[1])
	}
	slices.Sort(got)
	want := strs(protocol.EventKinds)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("background.js sends events %v, the host knows %v", got, want)
	}
}

// TestActionTable checks the table's own consistency.
func TestActionTable(t *testing.T) {
	seen := map[string]bool{}
	for _, a := range protocol.Actions {
		if seen[a.Name] {
			t.Errorf("%s listed twice", a.Name)
		}
		seen[a.Name] = true
		if !a.InPage() && (a.Target != protocol.TargetNone || a.Trusted) {
			t.Errorf("%s: a tab action takes no element and has no trusted form", a.Name)
		}
		if a.Files && (!a.InPage() || a.Target != protocol.TargetRequired || a.Text != "") {
			t.Errorf("%s: files go into an element in the page, with no text", a.Name)
		}
		if !a.InPage() && !slices.Contains(protocol.ExtRequests, a.Ext) {
			t.Errorf("%s: extension request %q is not in ExtRequests", a.Name, a.Ext)
		}
		if got, ok := protocol.LookupAction(a.Name); !ok || got.Name != a.Name {
			t.Errorf("LookupAction(%q) = %v, %v", a.Name, got, ok)
		}
	}
	if _, ok := protocol.LookupAction("explode"); ok {
		t.Error("LookupAction found an action that does not exist")
	}
}

// TestKernelKnowsTheInPageActions: the kernel carries out exactly the
// actions the table says run in the page, and needs an element for exactly
// those that require a target.
func TestKernelKnowsTheInPageActions(t *testing.T) {
	src := readExtensionFile(t, "kernel/run.js")
	list := func(name string) []string {
		m := regexp.MustCompile(`const ` + name + ` = new Set\(\[([^\]]*)\]\)`).FindStringSubmatch(src)
		if m == nil {
			t.Fatalf("kernel/run.js has no %s set", name)
		}
		var out []string
		for _, q := range regexp.MustCompile(`'([a-z_]+)'`).FindAllStringSubmatch(m[1], -1) {
			out = append(out, q[1])
		}
		return out
	}
	needsNode := list("NEEDS_NODE")
	known := append(slices.Clone(needsNode), "press", "scroll", "find")
	if !strings.Contains(src, "const KNOWN = new Set([...NEEDS_NODE, 'press', 'scroll', 'find'])") {
		t.Fatal("kernel/run.js's KNOWN is no longer NEEDS_NODE + press + scroll + find: update this test")
	}
	var inPage, required []string
	for _, a := range protocol.Actions {
		if a.InPage() {
			inPage = append(inPage, a.Name)
			if a.Target == protocol.TargetRequired {
				required = append(required, a.Name)
			}
		}
	}
	for _, l := range [][]string{known, inPage, needsNode, required} {
		slices.Sort(l)
	}
	if !slices.Equal(known, inPage) {
		t.Errorf("the kernel knows %v, the table runs %v in the page", known, inPage)
	}
	if !slices.Equal(needsNode, required) {
		t.Errorf("the kernel needs an element for %v, the table for %v", needsNode, required)
	}
}
