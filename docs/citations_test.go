// Package docs holds grip's documents for people; its test keeps the
// code's pointers into docs/ARCHITECTURE.md and the topic pages beside it
// true.
package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// citation is a section name cited after a page's path: page is the
// page's file name in docs/ ("settling.md").
type citation struct{ page, name string }

// citations returns the sections text cites after each "docs/PAGE.md":
// the forms the code uses are
//
//	docs/debugger.md, "The debugger"
//	docs/widgets.md, *Widgets*
//	docs/dialogs.md, "Dialogs" and "What it shows"
//	docs/snapshot.md's "Snapshot format"
//
// with the comment markers of wrapped lines (//, *, #) taken out first, so
// a name may run over two comment lines.
func citations(text string) []citation {
	flat := wrapped.ReplaceAllString(text, " ")
	var out []citation
	for _, loc := range docPath.FindAllStringSubmatchIndex(flat, -1) {
		page := flat[loc[2]:loc[3]]
		rest := flat[loc[1]:]
		m := firstName.FindStringSubmatch(rest)
		for m != nil {
			out = append(out, citation{page, strings.TrimSpace(m[1] + m[2])})
			rest = rest[len(m[0]):]
			m = nextName.FindStringSubmatch(rest)
		}
	}
	return out
}

var (
	wrapped   = regexp.MustCompile(`\s*\n\s*(?:(?://|\*|#)(?:\s|$))?\s*`)
	docPath   = regexp.MustCompile(`(?:^|[^\w/.-])docs/([\w-]+\.md)`)
	firstName = regexp.MustCompile(`^(?:,|'s)?\s*(?:see\s+)?(?:"([^"\n]{1,80})"|\*([^*\n]{1,80})\*)`)
	nextName  = regexp.MustCompile(`^\s*(?:,|and|or|,\s*and)\s*(?:"([^"\n]{1,80})"|\*([^*\n]{1,80})\*)`)
	heading   = regexp.MustCompile(`(?m)^#{1,6}\s+(.+?)\s*$`)
)

// sections returns the headings of a Markdown document. A heading with a
// colon ("Acting on a ref: every boundary checked") may be cited by the
// part before it.
func sections(doc string) map[string]bool {
	out := map[string]bool{}
	for _, m := range heading.FindAllStringSubmatch(doc, -1) {
		out[m[1]] = true
		if short, _, ok := strings.Cut(m[1], ": "); ok {
			out[short] = true
		}
	}
	return out
}

func TestCitations(t *testing.T) {
	tests := []struct {
		name, text string
		want       []citation
	}{
		{"quoted", `// see (docs/debugger.md, "The debugger").`, []citation{{"debugger.md", "The debugger"}}},
		{"starred", `docs/widgets.md, *Widgets*, has the rules.`, []citation{{"widgets.md", "Widgets"}}},
		{"the map", `docs/ARCHITECTURE.md, "Where to start"`, []citation{{"ARCHITECTURE.md", "Where to start"}}},
		{"wrapped in a Go comment", "// controls (docs/person.md, \"The person's\n// controls\"): the pause", []citation{{"person.md", "The person's controls"}}},
		{"wrapped in a JSDoc comment", " * (docs/dialogs.md,\n * \"Dialogs\")", []citation{{"dialogs.md", "Dialogs"}}},
		{"two names", "// (docs/dialogs.md,\n// \"Dialogs\" and \"What it shows\").", []citation{{"dialogs.md", "Dialogs"}, {"dialogs.md", "What it shows"}}},
		{"two pages", `(docs/dialogs.md, "Dialogs" and docs/effects.md, "What an action did")`, []citation{{"dialogs.md", "Dialogs"}, {"effects.md", "What an action did"}}},
		{"no comma", `(docs/effects.md "What the app said")`, []citation{{"effects.md", "What the app said"}}},
		{"possessive", `the example of docs/snapshot.md's "Snapshot format"`, []citation{{"snapshot.md", "Snapshot format"}}},
		{"a list", `docs/a.md, "A", "B" and "C"`, []citation{{"a.md", "A"}, {"a.md", "B"}, {"a.md", "C"}}},
		{"no section", `// docs/ARCHITECTURE.md follows one request through both sides.`, nil},
		{"a link", `[docs/ARCHITECTURE.md](docs/ARCHITECTURE.md) follows`, nil},
		{"a quote later in the sentence", `docs/ARCHITECTURE.md follows "one request"`, nil},
		{"another folder's docs", `e2e/docs/x.md, "A"`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := citations(tt.text)
			if !slices.Equal(got, tt.want) {
				t.Errorf("citations = %q, want %q", got, tt.want)
			}
		})
	}
	s := sections("# Map\n\n## Identity\n\n### Acting on a ref: every boundary checked\n\ntext\n")
	for _, name := range []string{"Map", "Identity", "Acting on a ref", "Acting on a ref: every boundary checked"} {
		if !s[name] {
			t.Errorf("sections has no %q: %v", name, s)
		}
	}
	if s["every boundary checked"] || s["text"] {
		t.Errorf("sections has too much: %v", s)
	}
}

// pages returns the sections of each page in docs/, by file name.
func pages(t *testing.T) map[string]map[string]bool {
	t.Helper()
	names, err := filepath.Glob("*.md")
	if err != nil || len(names) < 2 {
		t.Fatalf("docs/ holds %v (%v): the test no longer finds the pages", names, err)
	}
	out := map[string]map[string]bool{}
	for _, name := range names {
		doc, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = sections(string(doc))
	}
	return out
}

// TestCitedSectionsExist reads every .go, .js, .ts and .md file of the
// repository and fails for each page in docs/ that one cites and docs/
// does not hold, and each section that one cites and its page does not
// have.
func TestCitedSectionsExist(t *testing.T) {
	have := pages(t)
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	cited := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(path) {
		case ".go", ".js", ".ts", ".md":
		default:
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		if rel == filepath.Join("docs", "citations_test.go") {
			return nil // its examples cite sections no document has
		}
		for _, c := range citations(string(b)) {
			cited++
			switch sections, ok := have[c.page]; {
			case !ok:
				t.Errorf("%s cites docs/%s, %q: docs/ has no %s", rel, c.page, c.name, c.page)
			case !sections[c.name]:
				t.Errorf("%s cites docs/%s, %q: no such section", rel, c.page, c.name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The code cites the pages in hundreds of places; finding few means
	// the scan no longer recognises the form they take.
	if cited < 100 {
		t.Errorf("found %d citations of sections in docs/, want at least 100", cited)
	}
}

// fileIdent is a file named with an identifier after it, as the documents
// point into the code: host/tabs.go `swapView`, kernel/settle.js's
// `still`. The file may be named by its path's tail (names.js).
var fileIdent = regexp.MustCompile("([\\w./-]+\\.(?:go|js|mjs|json|html|css|ts))(?:'s)?\\s+`([A-Za-z_$][\\w$]*)`")

// testName is a Go test, benchmark or fuzz target named in a document, or
// the start of several names (TestWindows*).
var testName = regexp.MustCompile(`\b((?:Test|Benchmark|Fuzz)[A-Z]\w*)(\*?)`)

// documents are the pages for people that point into the code: every
// page in docs/ and these.
var documents = []string{"README.md", "bench/RESULTS.md"}

// tracked returns the repository's files (relative, slash-separated),
// leaving out node_modules and dot-folders.
func tracked(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != root && (d.Name() == "node_modules" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCitedCodeExists fails for each file and identifier a document names
// where the file has no such identifier (or no file has that name), and
// for each test a document names that no _test.go file declares: a map
// that points at renamed code sends a newcomer nowhere.
func TestCitedCodeExists(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	files := tracked(t, root)
	tests := map[string]bool{}
	declared := regexp.MustCompile(`(?m)^func ((?:Test|Benchmark|Fuzz|Example)\w*)\(`)
	for _, f := range files {
		if !strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range declared.FindAllSubmatch(b, -1) {
			tests[string(m[1])] = true
		}
	}
	cited := 0
	docs, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	all := slices.Clone(documents)
	for _, d := range docs {
		all = append(all, "docs/"+d)
	}
	for _, doc := range all {
		b, err := os.ReadFile(filepath.Join(root, doc))
		if err != nil {
			t.Fatal(err)
		}
		flat := strings.Join(strings.Fields(string(b)), " ")
		for _, m := range fileIdent.FindAllStringSubmatch(flat, -1) {
			cited++
			name, ident := m[1], m[2]
			var candidates []string
			for _, f := range files {
				if f == name || strings.HasSuffix(f, "/"+name) {
					candidates = append(candidates, f)
				}
			}
			if len(candidates) == 0 {
				t.Errorf("%s names %s `%s`: no file %s", doc, name, ident, name)
				continue
			}
			word := regexp.MustCompile(`(^|[^\w$])` + regexp.QuoteMeta(ident) + `($|[^\w$])`)
			found := false
			for _, f := range candidates {
				b, err := os.ReadFile(filepath.Join(root, f))
				if err != nil {
					t.Fatal(err)
				}
				found = found || word.Match(b)
			}
			if !found {
				t.Errorf("%s names %s `%s`: %s has no %s", doc, name, ident, strings.Join(candidates, ", "), ident)
			}
		}
		for _, m := range testName.FindAllStringSubmatch(flat, -1) {
			if m[2] == "*" { // TestWindows*: some test's name begins so
				found := false
				for name := range tests {
					found = found || strings.HasPrefix(name, m[1])
				}
				if !found {
					t.Errorf("%s names %s*: no _test.go file declares a test so named", doc, m[1])
				}
				continue
			}
			if !tests[m[1]] {
				t.Errorf("%s names %s: no _test.go file declares it", doc, m[1])
			}
		}
	}
	// The documents name code in dozens of places; finding few means the
	// scan no longer recognises the form they take.
	if cited < 20 {
		t.Errorf("found %d file and identifier pairs, want at least 20", cited)
	}
}

// TestPackageTableIsWhole fails for each Go package that the table "What
// each package owns" leaves out. A package inside another's cmd/ or
// internal/ folder is the listed package's own (protocol/internal/tsgen).
func TestPackageTableIsWhole(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join(root, "docs", "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(doc), "## What each package owns")
	if !ok {
		t.Fatal(`docs/ARCHITECTURE.md has no "What each package owns"`)
	}
	table, _, _ = strings.Cut(table, "\n## ")
	listed := map[string]bool{}
	row := regexp.MustCompile(`(?m)^\| ([^|]+)\|`)
	for _, m := range row.FindAllStringSubmatch(table, -1) {
		for _, name := range regexp.MustCompile("`([^`]+)`").FindAllStringSubmatch(m[1], -1) {
			listed[strings.TrimSuffix(name[1], "/")] = true
		}
	}
	dirs := map[string]bool{}
	for _, f := range tracked(t, root) {
		if strings.HasSuffix(f, ".go") {
			dirs[filepath.ToSlash(filepath.Dir(f))] = true
		}
	}
	for dir := range dirs {
		if dir == "." || listed[dir] {
			continue
		}
		owned := false
		for parent := range listed {
			rest, under := strings.CutPrefix(dir, parent+"/")
			if under && (strings.HasPrefix(rest, "internal/") || strings.HasPrefix(rest, "cmd/") || rest == "internal" || rest == "cmd") {
				owned = true
			}
		}
		if !owned {
			t.Errorf("package %s is not in docs/ARCHITECTURE.md's table \"What each package owns\"", dir)
		}
	}
}
