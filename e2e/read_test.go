package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/protocol"
)

// grip read (docs/reading.md, "Reading one element"): one element's
// whole text, which a snapshot's line cuts, in parts within the budget.

// sentences is the text read.html and readframe.html write into their
// paragraphs.
func sentences(n int, format string) string {
	s := make([]string, n)
	for i := range s {
		s[i] = fmt.Sprintf(format, i+1)
	}
	return strings.Join(s, " ")
}

var longParagraph = sentences(120, "Sentence %d of the long paragraph says a little more.")

// readJSON runs grip read --json; it returns the result, or the refusal.
func readJSON(t *testing.T, args ...string) (protocol.ReadResult, *protocol.Error) {
	t.Helper()
	var out struct {
		protocol.ReadResult
		Error *protocol.Error `json:"error"`
	}
	code := env.GripJSON(t, &out, append([]string{"read"}, args...)...)
	if (code == 0) != (out.Error == nil) {
		t.Fatalf("grip read %v: exit %d, error %+v", args, code, out.Error)
	}
	return out.ReadResult, out.Error
}

// openRead opens read.html with its frame on the other origin and takes a
// content snapshot once the frame's paragraph is in it.
func openRead(t *testing.T) (int, protocol.Snapshot) {
	t.Helper()
	tab := env.OpenTab(t, env.Origin1+"/read.html?frame="+env.Origin2)
	deadline := time.Now().Add(10 * time.Second)
	for {
		snap := snapshot(t, tab, "--mode", "content")
		if strings.Contains(snap.Text, "Frame sentence 1 ") {
			return tab, snap
		}
		if time.Now().After(deadline) {
			t.Fatalf("the frame never loaded:\n%s", snap.Text)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// refStarting is the ref of the element whose name starts with prefix.
func refStarting(t *testing.T, snap protocol.Snapshot, role, prefix string) string {
	t.Helper()
	for _, f := range snap.Frames {
		for _, e := range f.Elements {
			if e.Role == role && strings.HasPrefix(e.Name, prefix) {
				return e.Ref
			}
		}
	}
	t.Fatalf("no [%s '%s…'] in the snapshot:\n%s", role, prefix, snap.Text)
	return ""
}

// A long paragraph the snapshot cuts is read whole, and in parts by
// following each part's trailer; the parts put together are the
// paragraph.
func TestReadLongParagraphWholeAndInParts(t *testing.T) {
	browsertest.Need(t, env)
	_, snap := openRead(t)
	if strings.Contains(snap.Text, "Sentence 120 ") {
		t.Fatalf("the snapshot did not cut the paragraph:\n%s", snap.Text)
	}
	long := refStarting(t, snap, "paragraph", "Sentence 1 of")

	whole, perr := readJSON(t, long)
	if perr != nil {
		t.Fatal(perr)
	}
	if whole.Content != longParagraph || whole.Total != len(longParagraph) || whole.Omitted != 0 || whole.More != "" {
		t.Fatalf("the whole read: total %d omitted %d more %q\ncontent %q", whole.Total, whole.Omitted, whole.More, whole.Content)
	}
	if !strings.Contains(whole.Text, "| Sentence 1 of the long paragraph") || !strings.Contains(whole.Text, "Sentence 120 of the long paragraph says a little more.\n") ||
		!strings.Contains(whole.Text, long+": [paragraph 'Sentence 1 of") {
		t.Errorf("the plain text:\n%s", whole.Text)
	}

	// In parts of 200 tokens, as an agent follows the trailers.
	var got strings.Builder
	from, parts := 0, 0
	for {
		args := []string{long, "--budget", "200"}
		if from > 0 {
			args = append(args, "--from", fmt.Sprint(from))
		}
		r := env.Grip(t.Context(), append([]string{"read"}, args...)...)
		if r.Code != 0 {
			t.Fatalf("grip read %v: exit %d %s", args, r.Code, r.Stderr)
		}
		part, perr := readJSON(t, args...)
		if perr != nil {
			t.Fatal(perr)
		}
		if part.Text != r.Stdout {
			t.Errorf("--json's text differs from the plain output:\n%s\n---\n%s", part.Text, r.Stdout)
		}
		if part.Tokens > 200 {
			t.Errorf("a part of %d tokens over a budget of 200", part.Tokens)
		}
		got.WriteString(part.Content)
		parts++
		if part.Omitted == 0 {
			break
		}
		want := fmt.Sprintf("more characters (grip read %s --budget 200 --from %d)\n", long, part.Next)
		if !strings.HasSuffix(r.Stdout, want) {
			t.Fatalf("the trailer does not say how to read on (%s):\n%s", want, r.Stdout)
		}
		if parts > 50 {
			t.Fatal("reading on never ends")
		}
		from = part.Next
	}
	if got.String() != longParagraph || parts < 3 {
		t.Errorf("%d parts put together:\n%q\nwant\n%q", parts, got.String(), longParagraph)
	}

	// A target written as the snapshot line reads it.
	byLine, perr := readJSON(t, "heading 'Terms of sale'", "--tab", fmt.Sprint(snap.Tab.ID))
	if perr != nil || byLine.Content != "Terms of sale" {
		t.Errorf("read by line: %+v %+v", byLine, perr)
	}
}

// An element's text keeps its structure — paragraphs, table cells,
// preformatted lines, a shadow root's text — and leaves out what a
// snapshot leaves out.
func TestReadKeepsTheTextsShape(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openRead(t)
	res, perr := readJSON(t, "article 'Delivery'", "--tab", fmt.Sprint(tab))
	if perr != nil {
		t.Fatalf("read the article: %+v\n%s", perr, snap.Text)
	}
	want := "Delivery\n\nWe ship within two days.\n\nReturns are free.\n\nParcel | 4.90\nCourier | 9.90\n\nline one\n  line two\n\nFrom the shadow root."
	if res.Content != want {
		t.Errorf("the article reads\n%q\nwant\n%q", res.Content, want)
	}
	for _, hidden := range []string{"HIDDEN-ATTR", "ARIA-HIDDEN", "NOT-RENDERED", "SCRIPT-TEXT"} {
		if strings.Contains(res.Text, hidden) {
			t.Errorf("the read shows %s:\n%s", hidden, res.Text)
		}
	}
}

// An element of a cross-origin frame is read in its own document; once
// the person's policy blocks that frame's origin, the same ref is refused
// and nothing of the frame is shown.
func TestReadCrossOriginFrameAndBlockedFrame(t *testing.T) {
	browsertest.Need(t, env)
	_, snap := openRead(t)
	far := refStarting(t, snap, "paragraph", "Frame sentence 1 ")
	res, perr := readJSON(t, far)
	if perr != nil {
		t.Fatal(perr)
	}
	if want := sentences(40, "Frame sentence %d is on another origin."); res.Content != want {
		t.Errorf("the frame's paragraph reads %q", res.Content)
	}

	setPolicy(t, "block "+hostOf(env.Origin2)+"\n")
	perr = refusal(t, "read", far)
	wantPolicyRefusal(t, perr, `rule "block `+hostOf(env.Origin2)+`" (line 1)`)
	if strings.Contains(perr.Message+perr.Hint, "Frame sentence") || strings.Contains(perr.Message, env.Origin2) {
		t.Errorf("the refusal tells of the blocked frame: %+v", perr)
	}
	// The top frame is still read.
	if _, perr := readJSON(t, refStarting(t, snap, "paragraph", "Sentence 1 of")); perr != nil {
		t.Errorf("the allowed top frame: %+v", perr)
	}
}

// A ref whose element went is refused stale_ref, and one whose element
// now means something else meaning_changed, as an action's would be;
// nothing is read.
func TestReadStaleAndChangedRefs(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openRead(t)
	title := mustRef(t, snap, "heading", "Terms of sale")
	long := refStarting(t, snap, "paragraph", "Sentence 1 of")
	pageEval(t, tab, "document.getElementById('long').remove()")
	if perr := refusal(t, "read", long); perr.Code != protocol.CodeStaleRef {
		t.Errorf("read a removed element: %+v, want stale_ref", perr)
	}
	pageEval(t, tab, "document.getElementById('title').textContent = 'Cancel my account'")
	perr := refusal(t, "read", title)
	if perr.Code != protocol.CodeMeaningChanged || !strings.Contains(perr.Message, "Cancel my account") {
		t.Errorf("read a renamed heading: %+v, want meaning_changed saying what it says now", perr)
	}
	if perr := refusal(t, "read", "#title"); perr.Code != protocol.CodeInvalidLocator {
		t.Errorf("read a CSS selector: %+v, want invalid_locator", perr)
	}
}

// A password field's value is never read: alone, the read says what the
// field is; inside a form, the field is left out and counted.
func TestReadNeverShowsAPassword(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openRead(t)
	pw := mustRef(t, snap, "textbox", "Password")
	res, perr := readJSON(t, pw)
	if perr != nil {
		t.Fatal(perr)
	}
	if !res.Secret || res.Content != "" || strings.Contains(res.Text, "hunter2") || !strings.Contains(res.Text, "grip never reads") {
		t.Errorf("read a password field: %+v", res)
	}
	// Typed into, and read as part of its form.
	if _, perr, code := act(t, "type", pw, "MORE"); code != 0 {
		t.Fatalf("type into the password: %+v", perr)
	}
	form, perr := readJSON(t, "form 'Sign in'", "--tab", fmt.Sprint(tab))
	if perr != nil {
		t.Fatalf("read the form: %+v", perr)
	}
	if strings.Contains(form.Text, "hunter2") || strings.Contains(form.Text, "MORE") || form.Secrets != 1 || !strings.Contains(form.Content, "User ada") {
		t.Errorf("read the form:\n%s%+v", form.Text, form)
	}
}

// Another session's tab is not read (not_your_tab); while the person has
// paused agents, reads go on.
func TestReadOwnershipAndPause(t *testing.T) {
	browsertest.Need(t, env)
	tab := openSessionTab(t, "reader-a", env.Origin1+"/read.html")
	var snap protocol.Snapshot
	if code := gripAs(t, "reader-a", &snap, "snapshot", "--tab", fmt.Sprint(tab), "--mode", "content"); code != 0 {
		t.Fatalf("snapshot as reader-a: exit %d", code)
	}
	title := mustRef(t, snap, "heading", "Terms of sale")
	if perr := refusalAs(t, "reader-b", "read", title); perr.Code != protocol.CodeNotYourTab || perr.Boundary != protocol.BoundarySession {
		t.Errorf("reader-b reads reader-a's ref: %+v, want not_your_tab", perr)
	}
	if perr := refusalAs(t, "reader-b", "read", "heading 'Terms of sale'", "--tab", fmt.Sprint(tab)); perr.Code != protocol.CodeNotYourTab {
		t.Errorf("reader-b reads reader-a's tab by line: %+v, want not_your_tab", perr)
	}

	t.Cleanup(func() { unpause(t) })
	var st protocol.PersonState
	if code := env.GripJSON(t, &st, "pause"); code != 0 || !st.Paused {
		t.Fatalf("grip pause: exit %d %+v", code, st)
	}
	var res protocol.ReadResult
	if code := gripAs(t, "reader-a", &res, "read", title); code != 0 || res.Content != "Terms of sale" {
		t.Errorf("a read while paused: exit %d %+v", code, res)
	}
	// Actions the pause refuses are recorded with their targets, the tab
	// they would have landed on and a navigation's URL (without its query).
	if perr := refusalAs(t, "reader-a", "click", "#title"); perr.Code != protocol.CodePaused {
		t.Errorf("a click while paused: %+v", perr)
	}
	if perr := refusalAs(t, "reader-a", "navigate", env.Origin1+"/home.html?token=s3cret"); perr.Code != protocol.CodePaused {
		t.Errorf("a navigate while paused: %+v", perr)
	}
	var lg protocol.LogResult
	if code := env.GripJSON(t, &lg, "log", "--all", "--tab", fmt.Sprint(tab), "--limit", "2"); code != 0 || len(lg.Entries) != 2 {
		t.Fatalf("grip log: exit %d %+v", code, lg)
	}
	if e := lg.Entries[0]; e.Action != "click" || e.Target != "#title" || e.Outcome != "paused" {
		t.Errorf("the paused click is recorded as %+v", e)
	}
	if e := lg.Entries[1]; e.Action != "navigate" || e.Detail != "to "+env.Origin1+"/home.html?token=***" || strings.Contains(e.Detail, "s3cret") {
		t.Errorf("the paused navigate is recorded as %+v", e)
	}
}

// browser_read through an MCP client: a cut read's last line names the
// call that reads on, and following it reads the rest.
func TestMCPRead(t *testing.T) {
	browsertest.Need(t, env)
	_, snap := openRead(t)
	long := refStarting(t, snap, "paragraph", "Sentence 1 of")
	m := startMCP(t)
	first := m.must("browser_snapshot", map[string]any{"ref": strings.TrimPrefix(long, "@"), "budget": 300})
	lines := strings.Split(strings.TrimSuffix(first, "\n"), "\n")
	last := lines[len(lines)-1]
	var next int
	if _, err := fmt.Sscanf(last[strings.Index(last, "(browser_snapshot"):], "(browser_snapshot ref="+long+" from=%d budget=300)", &next); err != nil || next == 0 {
		t.Fatalf("the last line does not name the call that reads on: %q (%v)", last, err)
	}
	rest := m.must("browser_snapshot", map[string]any{"ref": long, "from": next})
	if !strings.Contains(rest, "Sentence 120 of the long paragraph says a little more.") || strings.Contains(rest, "more characters") {
		t.Errorf("the rest:\n%s", rest)
	}
	if text, isErr := m.call("browser_snapshot", map[string]any{"ref": mustRef(t, snap, "textbox", "Password")}); isErr || strings.Contains(text, "hunter2") {
		t.Errorf("browser_snapshot ref of the password: %v %s", isErr, text)
	}
}
