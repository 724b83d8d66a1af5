package e2e

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/internal/browsertest"
)

// type's reply on a long value shows its end, where the caret is (what
// the agent just typed), not its start; a fill the page changed shows
// where it changed; each cut side is marked, the length said, and the
// detail stays within a few dozen tokens.
func TestTypeReplyShowsTheEndOfALongValue(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openRead(t)
	notes := mustRef(t, snap, "textbox", "Notes")
	start := strings.Repeat("The first part of the notes goes on. ", 10)
	if _, perr, code := act(t, "fill", notes, start); code != 0 {
		t.Fatalf("fill: %+v", perr)
	}
	res, perr, code := act(t, "type", notes, " And that is all I had to say.")
	if code != 0 {
		t.Fatalf("type: %+v", perr)
	}
	want := fmt.Sprintf(" And that is all I had to say.' (%d characters)", len(start)+30)
	if !strings.HasPrefix(res.Detail, "value is now '…") || !strings.HasSuffix(res.Detail, want) {
		t.Errorf("type's detail = %q, want the end of the value (…%s)", res.Detail, want)
	}
	if got := browsertest.Eval[string](t, env, env.TabURL(t, tab), "document.getElementById('notes').value"); got != start+" And that is all I had to say." {
		t.Fatalf("the textarea holds %q", got)
	}
	quoted := regexp.MustCompile(`'(.*)'`).FindStringSubmatch(res.Detail)
	if quoted == nil || len([]rune(quoted[1])) > 80 || frames.Cost(res.Detail) > 40 {
		t.Errorf("the detail is long: %d tokens, %q", frames.Cost(res.Detail), res.Detail)
	}
	// The plain reply says it too: the only line that tells what was typed
	// past the start a snapshot's line shows.
	r := env.Grip(t.Context(), "type", notes, " PS.")
	if r.Code != 0 || !strings.Contains(r.Stdout, "I had to say. PS.' (") {
		t.Errorf("the plain reply:\n%s%s", r.Stdout, r.Stderr)
	}

	// A fill the page changed: the part around the first change.
	code2 := mustRef(t, snap, "textbox", "Code")
	long := strings.Repeat("A", 150) + "-" + strings.Repeat("B", 150)
	res, perr, code = act(t, "fill", code2, long)
	if code != 0 {
		t.Fatalf("fill the code: %+v", perr)
	}
	if !strings.HasPrefix(res.Detail, "the page changed the value to '…"+strings.Repeat("A", 20)+"BBB") || !strings.HasSuffix(res.Detail, "…' (300 characters)") {
		t.Errorf("the changed fill's detail = %q, want the part around where the page changed it", res.Detail)
	}

	// An editor's reply, likewise, shows the end of its text.
	body := mustRef(t, snap, "textbox", "Body")
	if _, perr, code := act(t, "fill", body, strings.Repeat("Editor text. ", 20)); code != 0 {
		t.Fatalf("fill the editor: %+v", perr)
	}
	res, perr, code = act(t, "type", body, " THE END")
	if code != 0 {
		t.Fatalf("type into the editor: %+v", perr)
	}
	if !strings.HasPrefix(res.Detail, "text is now '…") || !strings.Contains(res.Detail, "THE END' (") {
		t.Errorf("the editor's detail = %q, want its end", res.Detail)
	}
	// A short value is said whole, once.
	short := mustRef(t, snap, "textbox", "User")
	r = env.Grip(t.Context(), "fill", short, "Grace")
	if r.Code != 0 || strings.Count(r.Stdout, "Grace") != 1 {
		t.Errorf("a short fill says its value %d times:\n%s", strings.Count(r.Stdout, "Grace"), r.Stdout)
	}
}
