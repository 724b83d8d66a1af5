package editors_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/internal/browsertest"
)

// A tab in the background draws no frames: typing lines into an editor
// there waits a task after each line break instead, and ends with the
// text in the editor's model.
func TestEditorsTakeLinesInBackgroundTab(t *testing.T) {
	for _, e := range []struct{ name, path, line, doc, want string }{
		{"Tiptap", "/tiptap.html", "[textbox 'Write a comment…'", "JSON.stringify(editor.state.doc.content.content.map((n) => n.textContent))", `["one","two","","three"]`},
		{"Monaco", "/monaco.html", "[textbox 'Query'", "JSON.stringify(editor.getValue().split('\\n'))", `["one","two","","three"]`},
	} {
		t.Run(e.name, func(t *testing.T) {
			a := newAgent(t)
			box := ref(t, a.open(e.path, e.line), e.line)
			front := newAgent(t)
			front.open("/codemirror6.html", "[textbox 'Script'")
			// An agent's own tab is kept drawing in the background (focus
			// emulation and a screencast: docs/sessions.md, "Sessions"),
			// so it may read visible; either way the lines must arrive.
			t.Logf("the editor's background tab reads %s", observe[string](a, "document.visibilityState"))
			a.must("fill", "--tab", fmt.Sprint(a.tab), box, "one\ntwo")
			a.must("type", "--tab", fmt.Sprint(a.tab), box, "\n\nthree")
			eventually(a, e.doc, e.want)
		})
	}
}

// BenchmarkTypeIntoEditor measures what typing into an editor costs per
// character through the CLI, with and without line breaks (after each,
// the page draws a frame before the next key): ms/char.
func BenchmarkTypeIntoEditor(b *testing.B) {
	browsertest.Need(b, env)
	for _, c := range []struct {
		name string
		text string
	}{
		{"no-breaks", strings.Repeat("abcdefghij", 6)},
		{"break-every-10", strings.Repeat("abcdefghi\n", 6)},
	} {
		b.Run(c.name, func(b *testing.B) {
			tab := env.OpenTab(b, env.Origin1+"/tiptap.html")
			var box string
			for i := 0; box == ""; i++ {
				snap := env.MustGrip(b, "snapshot", "--tab", fmt.Sprint(tab))
				for _, l := range strings.Split(snap, "\n") {
					if m := refLine.FindStringSubmatch(l); m != nil && strings.HasPrefix(m[2], "[textbox 'Write a comment…'") {
						box = m[1]
					}
				}
				if i == 100 {
					b.Fatal("the editor never loaded")
				}
				time.Sleep(100 * time.Millisecond)
			}
			b.ResetTimer()
			for range b.N {
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				r := env.Grip(ctx, "type", "--tab", fmt.Sprint(tab), box, c.text)
				cancel()
				if r.Code != 0 {
					b.Fatalf("type: exit %d %s %s", r.Code, r.Stdout, r.Stderr)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N*len(c.text)), "ms/char")
		})
	}
}
