package e2e

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/protocol"
)

// elementNamed is the element of snap with role and name, or nil.
func elementNamed(snap protocol.Snapshot, role, name string) *protocol.Element {
	for _, f := range snap.Frames {
		for i := range f.Elements {
			if e := &f.Elements[i]; e.Role == role && e.Name == name {
				return e
			}
		}
	}
	return nil
}

// A control drawn by its style alone is named by the text its ::before
// and ::after show (accname), or by their alternative text; an icon
// font's glyph and a decorative alternative name nothing, and its title
// does: Trac's wiki page expander, an empty span whose ::before draws
// "↹", was a bare [clickable] (issue 34). docs/snapshot.md, "Snapshot
// format".
func TestControlsDrawnByStyleAreNamed(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/trac-wiki.html")
	snap := snapshot(t, tab)
	// Trac's page starts narrow: the expander draws "↔" until clicked.
	expander := mustRef(t, snap, "clickable", "↔")
	if e := elementNamed(snap, "clickable", "↔"); slices.Contains(e.States, "inferred") {
		t.Errorf("a name from generated content is the page's own, not grip's guess: %+v", e)
	}
	res, perr, code := act(t, "click", expander)
	if code != 0 {
		t.Fatalf("click the expander: exit %d %+v", code, perr)
	}
	if got := pageLog(t, tab); !slices.Equal(got, []string{"wide"}) {
		t.Errorf("page log = %v, want [wide]", got)
	}
	// The name follows what it draws now, and the reply says so.
	if !slices.ContainsFunc(res.Changes.Changed, func(e protocol.Element) bool { return e.Ref == expander && e.Name == "↹" }) {
		t.Errorf("the click's reply does not show the expander as [clickable '↹']: %+v", res.Changes)
	}
	// The headings' "¶" links keep their text's name.
	if refOf(snapshot(t, tab), "link", "¶") == "" {
		t.Errorf("the headings' anchors lost their names:\n%s", snap.Text)
	}

	tab = env.OpenTab(t, env.Origin1+"/generated.html")
	snap = snapshot(t, tab)
	for _, want := range []struct{ role, name string }{
		{"clickable", "Full screen"},  // content: "⤢" / "Full screen"
		{"clickable", "Next page"},    // ::after, two strings
		{"clickable", "Collapse all"}, // an icon font's glyph: its title
		{"clickable", "Favourite"},    // a decorative alternative: its title
		{"clickable", "Refresh"},      // attr(data-label)
		{"button", "×"},               // an empty child's ::before
	} {
		if elementNamed(snap, want.role, want.name) == nil {
			t.Errorf("no [%s '%s']:\n%s", want.role, want.name, snap.Text)
		}
	}
	if strings.Contains(snap.Text, "[clickable]") || strings.Contains(snap.Text, "\uf101") {
		t.Errorf("a control stays unnamed, or a glyph is read as its name:\n%s", snap.Text)
	}
}

// Trac's wiki editor, a textarea with no label after the page's heading
// ("Editing WikiStart") and the edit area's own settings (a labelled
// select, a checkbox), is named by the heading, as a person reads it; the
// page's other fields keep their labels. It was a bare [textbox] (issue
// 34). docs/snapshot.md, "Snapshot format".
func TestTracWikiEditorIsNamed(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/trac-wiki-edit.html")
	snap := snapshot(t, tab)
	ed := elementNamed(snap, "textbox", "Editing WikiStart")
	if ed == nil {
		t.Fatalf("the wiki's textarea is not named by the page's heading:\n%s", snap.Text)
	}
	if !slices.Contains(ed.States, "inferred") {
		t.Errorf("a name from the heading before is grip's guess: %+v", ed)
	}
	mustRef(t, snap, "combobox", "Adjust edit area height:")
	mustRef(t, snap, "textbox", "Comment about this change (optional):")
	mustRef(t, snap, "link", "Bold text: **Example**")
	if strings.Contains(snap.Text, "[textbox]") || strings.Contains(snap.Text, "[textbox value=") {
		t.Errorf("a field stays unnamed:\n%s", snap.Text)
	}
	res, perr, code := act(t, "fill", ed.Ref, "= Welcome =\nEdited by grip")
	if code != 0 {
		t.Fatalf("fill the editor: exit %d %+v", code, perr)
	}
	if got := browsertest.Eval[string](t, env, env.TabURL(t, tab), "document.getElementById('text').value"); got != "= Welcome =\nEdited by grip" {
		t.Errorf("the textarea holds %q (reply %+v)", got, res)
	}
}

// A navigation to a page that answers 404 says so, and quotes the error
// page's own title when it has one (Trac's "Invalid ticket number"), for
// navigate and tabs new (whose refusal names the tab it left open); a page
// with no title adds nothing, and a page the policy blocks (a redirect
// there) is never quoted. docs/navigating.md, "Navigating".
func TestNotFoundQuotesThePageTitle(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/home.html")
	const titled = ", titled 'Invalid ticket number – My Project'"
	missing := env.Origin1 + "/missing?to=/trac-404.html"
	perr := refusal(t, "navigate", missing, "--tab", fmt.Sprint(tab))
	if perr.Code != protocol.CodeNavigationFailed || perr.Status != "404" || !strings.HasSuffix(perr.Message, "HTTP 404"+titled) {
		t.Errorf("navigate to Trac's 404: %+v", perr)
	}
	perr = refusal(t, "tabs", "new", missing)
	if perr.Status != "404" || !strings.HasSuffix(perr.Message, "HTTP 404"+titled) || perr.Tab == 0 || !strings.HasPrefix(perr.Message, fmt.Sprintf("tab %d opened", perr.Tab)) {
		t.Errorf("tabs new on Trac's 404: %+v", perr)
	}
	if perr.Tab != 0 {
		env.MustGrip(t, "tabs", "close", fmt.Sprint(perr.Tab))
	}
	// A 404 with no title of its own (Go's plain text) quotes none.
	perr = refusal(t, "navigate", env.Origin1+"/no-such-page.html", "--tab", fmt.Sprint(tab))
	if perr.Status != "404" || !strings.HasSuffix(perr.Message, "HTTP 404") {
		t.Errorf("navigate to an untitled 404: %+v", perr)
	}
	// Redirected to the other origin's 404: quoted while the policy lets
	// agents see it, not once it blocks that site.
	away := env.Origin1 + "/redirect?to=" + url.QueryEscape(env.Origin2+"/missing?to=/trac-404.html")
	perr = refusal(t, "navigate", away, "--tab", fmt.Sprint(tab))
	if !strings.HasSuffix(perr.Message, titled) {
		t.Errorf("navigate through a redirect to an allowed 404: %+v", perr)
	}
	env.MustGrip(t, "navigate", env.Origin1+"/home.html", "--tab", fmt.Sprint(tab))
	setPolicy(t, "block "+hostOf(env.Origin2)+"\n")
	perr = refusal(t, "navigate", away, "--tab", fmt.Sprint(tab))
	if perr.Code != protocol.CodeNavigationFailed || strings.Contains(perr.Message, "Invalid ticket") || strings.Contains(perr.Message, "titled") {
		t.Errorf("a 404 on a blocked site told its title: %+v", perr)
	}
}

// A card renamed under its buttons changes the context of every one of
// its lines: the reply says so in one line, counting them when they are
// all the lines in the old context and naming them when others stay in
// it, instead of a changed line for each (issue 34: Trac's pages flooded
// changed: so); the agent's picture stays true (TestRepliesKeepThePictureTrue
// acts on the same board). docs/snapshot.md, "Snapshot format".
func TestContextChangeSaidOnce(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/board.html")
	snap := snapshot(t, tab)
	if !strings.Contains(snap.Text, "[button 'Edit' in 'Quarterly report']") {
		t.Fatalf("the board's buttons carry no context:\n%s", snap.Text)
	}
	click := func(target string) protocol.ActionResult {
		t.Helper()
		res, perr, code := act(t, "click", target, "--tab", fmt.Sprint(tab))
		if code != 0 {
			t.Fatalf("click %s: exit %d %+v", target, code, perr)
		}
		return res
	}
	// Card 1's title is the only one of its kind: all its lines, counted.
	res := click("button 'Rename' in 'Quarterly report'")
	want := "in 'Quarterly report' → in 'Quarterly report (v2)': all 6 lines"
	text := frames.ActionText("click", res)
	if !strings.Contains(text, want) || strings.Contains(text, "[button 'Edit' in 'Quarterly report (v2)']") {
		t.Errorf("the rename's reply does not say the context change once:\n%s", text)
	}
	if len(res.Changes.Contexts) != 1 || len(res.Changes.Contexts[0].Refs) != 6 || !res.Changes.Contexts[0].All || len(res.Changes.Changed) != 0 {
		t.Errorf("--json changes: %+v", res.Changes)
	}
	// One of two cards titled alike: its lines, named, as the other's stay.
	res = click(refIn(t, tab, "button", "Rename", "Team offsite"))
	text = frames.ActionText("click", res)
	if len(res.Changes.Contexts) != 1 || res.Changes.Contexts[0].All || !strings.Contains(text, "in 'Team offsite' → in 'Team offsite (v2)': @e") {
		t.Errorf("renaming one of two like cards:\n%s\n%+v", text, res.Changes)
	}
	// What the lines would have cost, one by one, as a snapshot shows them.
	var each []string
	for _, f := range snapshot(t, tab).Frames {
		for _, e := range f.Elements {
			if len(res.Changes.Contexts) > 0 && slices.Contains(res.Changes.Contexts[0].Refs, e.Ref) {
				each = append(each, frames.Line(e))
			}
		}
	}
	t.Logf("the rename's reply: %d tokens; its %d lines one by one: %d tokens", frames.Tokens(text), len(each), frames.Tokens(strings.Join(each, "\n")))

	// Card 1 alone with its buttons once the others go: no context.
	click(refIn(t, tab, "button", "Delete", "Team offsite"))
	res = click(refIn(t, tab, "button", "Delete", "Team offsite (v2)"))
	if text := frames.ActionText("click", res); !strings.Contains(text, "in 'Quarterly report (v2)' → no context: all 6 lines") {
		t.Errorf("the last card's lines lost their context unsaid:\n%s", text)
	}
}

// refIn is the ref of the first element of tab's snapshot with role and
// name in context.
func refIn(t *testing.T, tab int, role, name, context string) string {
	t.Helper()
	for _, f := range snapshot(t, tab).Frames {
		for _, e := range f.Elements {
			if e.Role == role && e.Name == name && e.Context == context {
				return e.Ref
			}
		}
	}
	t.Fatalf("no [%s '%s' in '%s']", role, name, context)
	return ""
}

// TestImagesToClickAreNamedByTheirFile: an image with an empty alt and a
// click handler (DokuWiki's edit window size and wrap controls) is named
// by what its file is called, as grip's guess; its click lands.
func TestImagesToClickAreNamedByTheirFile(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/dokuwiki/edit.html")
	snap := snapshot(t, tab)
	for _, name := range []string{"larger", "smaller", "wrap"} {
		e := elementNamed(snap, "clickable", name)
		if e.Ref == "" {
			t.Fatalf("no [clickable '%s']:\n%s", name, snap.Text)
		}
		if !slices.Contains(e.States, "inferred") {
			t.Errorf("a name from a file is grip's guess, marked inferred: %+v", e)
		}
	}
	if res, perr, code := act(t, "click", mustRef(t, snap, "clickable", "wrap")); code != 0 {
		t.Fatalf("click wrap: exit %d %+v %+v", code, perr, res)
	}
	if got := browsertest.Eval[string](t, env, env.TabURL(t, tab), "document.getElementById('wiki__text').getAttribute('wrap') || ''"); got != "off" {
		t.Errorf("the wrap control's click did not land: wrap=%q", got)
	}
}
