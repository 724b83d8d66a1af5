// Package docs holds grip's documents for people; its test keeps the
// code's pointers into docs/ARCHITECTURE.md true.
package docs

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// citations returns the section names text cites after each
// "docs/ARCHITECTURE.md": the forms the code uses are
//
//	docs/ARCHITECTURE.md, "The debugger"
//	docs/ARCHITECTURE.md, *Widgets*
//	docs/ARCHITECTURE.md, "Dialogs" and "What an action did"
//
// with the comment markers of wrapped lines (//, *, #) taken out first, so
// a name may run over two comment lines.
func citations(text string) []string {
	flat := wrapped.ReplaceAllString(text, " ")
	var out []string
	for _, loc := range docPath.FindAllStringIndex(flat, -1) {
		rest := flat[loc[1]:]
		m := firstName.FindStringSubmatch(rest)
		for m != nil {
			out = append(out, strings.TrimSpace(m[1]+m[2]))
			rest = rest[len(m[0]):]
			m = nextName.FindStringSubmatch(rest)
		}
	}
	return out
}

var (
	wrapped   = regexp.MustCompile(`\s*\n\s*(?:(?://|\*|#)(?:\s|$))?\s*`)
	docPath   = regexp.MustCompile(`docs/ARCHITECTURE\.md`)
	firstName = regexp.MustCompile(`^,\s*(?:see\s+)?(?:"([^"\n]{1,80})"|\*([^*\n]{1,80})\*)`)
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
		want       []string
	}{
		{"quoted", `// see (docs/ARCHITECTURE.md, "The debugger").`, []string{"The debugger"}},
		{"starred", `docs/ARCHITECTURE.md, *Widgets*, has the rules.`, []string{"Widgets"}},
		{"wrapped in a Go comment", "// controls (docs/ARCHITECTURE.md, \"The person's\n// controls\"): the pause", []string{"The person's controls"}},
		{"wrapped in a JSDoc comment", " * (docs/ARCHITECTURE.md,\n * \"Dialogs\")", []string{"Dialogs"}},
		{"two names", "// (docs/ARCHITECTURE.md,\n// \"Dialogs\" and \"What an action did\").", []string{"Dialogs", "What an action did"}},
		{"a list", `docs/ARCHITECTURE.md, "A", "B" and "C"`, []string{"A", "B", "C"}},
		{"no section", `// docs/ARCHITECTURE.md follows one request through both sides.`, nil},
		{"a link", `[docs/ARCHITECTURE.md](docs/ARCHITECTURE.md) follows`, nil},
		{"a quote later in the sentence", `docs/ARCHITECTURE.md follows "one request"`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := citations(tt.text)
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
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

// TestCitedSectionsExist reads every .go, .js, .ts and .md file of the
// repository and fails for each section of docs/ARCHITECTURE.md that one
// cites and the document does not have.
func TestCitedSectionsExist(t *testing.T) {
	doc, err := os.ReadFile("ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	have := sections(string(doc))
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
		for _, name := range citations(string(b)) {
			cited++
			if !have[name] {
				t.Errorf("%s cites docs/ARCHITECTURE.md, %q: no such section", rel, name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The code cites the document in dozens of places; finding few means
	// the scan no longer recognises the form they take.
	if cited < 20 {
		t.Errorf("found %d citations of docs/ARCHITECTURE.md sections, want at least 20", cited)
	}
}
