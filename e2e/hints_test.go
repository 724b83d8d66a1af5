package e2e

import (
	"regexp"
	"strings"
	"testing"

	"github.com/grip-dev/grip/internal/browsertest"
)

// Refusals that point the right way, over MCP as an agent reads them: a
// read-only text field says it is one, that typing will not work and what
// the page says of why (a lock); a read-only picker's field says to pick;
// a bare role word lists that role's elements with their refs; an --after
// ref from the other mode's listing says which mode reads on from it.
func TestRefusalsPointTheRightWay(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/locked.html")
	m := startMCP(t)
	snap := m.must("browser_snapshot", map[string]any{"tab": tab})
	refOf := func(line string) string {
		t.Helper()
		r := regexp.MustCompile(`(@e[0-9]+): \[` + line).FindStringSubmatch(snap)
		if r == nil {
			t.Fatalf("no line [%s in:\n%s", line, snap)
		}
		return r[1]
	}
	locked, arrival := refOf(`textbox[^\]]*value='====== Notes`), refOf(`textbox 'Arrival'`)

	text, isErr := m.call("browser_type", map[string]any{"ref": locked, "text": "admin overwrite"})
	if !isErr || !strings.Contains(text, "read-only text field: typing into it will not work") ||
		!strings.Contains(text, "the page says 'Currently locked by: alice") || strings.Contains(text, "pick from") {
		t.Errorf("typing into the locked textarea: %s", text)
	}
	text, isErr = m.call("browser_type", map[string]any{"ref": arrival, "text": "2026-12-24"})
	if !isErr || !strings.Contains(text, "read-only") || !strings.Contains(text, "pick from what the page opens") {
		t.Errorf("typing into the date picker's field: %s", text)
	}

	// A bare role word: the page's textboxes, with their refs.
	text, isErr = m.call("browser_type", map[string]any{"ref": "textbox", "text": "x", "tab": tab})
	note := refOf(`textbox 'Note'`)
	if !isErr || !strings.Contains(text, "the [textbox] elements: ") || !strings.Contains(text, locked+": [textbox") ||
		!strings.Contains(text, note+": [textbox 'Note']") || !strings.Contains(text, "act on one by its ref") || strings.Contains(text, `"button 'textbox'"`) {
		t.Errorf("typing into %q: %s", "textbox", text)
	}

	// A heading's ref, from a content snapshot, given to an interactive one.
	content := m.must("browser_snapshot", map[string]any{"tab": tab, "mode": "content"})
	heading := regexp.MustCompile(`(@e[0-9]+): \[heading 'Booking'`).FindStringSubmatch(content)
	if heading == nil {
		t.Fatalf("no heading Booking in the content snapshot:\n%s", content)
	}
	text, isErr = m.call("browser_snapshot", map[string]any{"tab": tab, "after": heading[1]})
	if !isErr || !strings.Contains(text, "in the content listing of this page, not the interactive one") ||
		!strings.Contains(text, "(browser_snapshot after="+heading[1]+" mode=content tab=") {
		t.Errorf("an interactive snapshot after a content-mode ref: %s", text)
	}
	if got := m.must("browser_snapshot", map[string]any{"tab": tab, "after": heading[1], "mode": "content"}); !strings.Contains(got, "[textbox 'Arrival'") {
		t.Errorf("reading on in content mode:\n%s", got)
	}
}
