package e2e

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/statedir"
)

// Elements whose role and name repeat carry their context; the others
// none.
func TestRepeatsCarryTheirContext(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/repeats.html")
	snap := snapshot(t, tab)
	for _, want := range []string{
		"[button 'Edit' in 'Meeting notes']", "[button 'Edit' in 'Invoices']",
		"[button 'Delete' in 'Milk']", "[button 'Delete' in 'Eggs']",
		"[button 'Remove' in 'Alice']", "[button 'Remove' in 'Bob']",
		"[button 'Close' in 'Rename']", "[button 'Close' in 'Search']",
		"[button 'Save']",
		// Flat sections: the heading before, without its edit link's text.
		"[link 'edit' in 'Overview' href", "[link 'edit' in 'Details' href",
		"[link 'budget' in 'Overview' href", "[link 'budget' in 'Details' href",
		"[link 'start' in 'Trace' href", "[link 'start' in 'Full text results' href",
		// A card whose buttons come before its one heading (Trac's reports).
		"[button '– Delete' in '{1} Active Tickets']", "[button '– Delete' in '{2} My Tickets']",
		// A header cell names what it holds, not the row's first text
		// (DokuWiki's comparison of two revisions).
		"[link 'grip:notes [2026/12/02 14:54]' in '– created admin' href", "[link 'grip:notes [2026/12/02 14:54]' in '(current) – bananas to blueberries admin' href",
	} {
		if !strings.Contains(snap.Text, want) {
			t.Errorf("the snapshot has no %s:\n%s", want, snap.Text)
		}
	}
	var ctx []string
	for _, f := range snap.Frames {
		for _, e := range f.Elements {
			if e.Name == "Save" && e.Context != "" {
				t.Errorf("a unique element carries a context: %+v", e)
			}
			if e.Name == "Edit" {
				ctx = append(ctx, e.Context)
			}
		}
	}
	if !slices.Equal(ctx, []string{"Meeting notes", "Invoices"}) {
		t.Errorf("--json contexts of the Edit buttons = %q", ctx)
	}
	// What the contexts cost: the same snapshot rendered without them.
	bare := make([]protocol.Frame, len(snap.Frames))
	for i, f := range snap.Frames {
		bare[i] = f
		bare[i].Elements = slices.Clone(f.Elements)
		for j := range bare[i].Elements {
			bare[i].Elements[j].Context = ""
		}
	}
	without, err := frames.Render(snap.Tab, bare, nil, frames.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("tokens of the snapshot: %d with contexts, %d without", snap.Tokens, without.Tokens)
}

// A target written as a snapshot line acts on the one element it names;
// several are refused as ambiguous, listing them; none as not_found; CSS
// stays CSS.
func TestTargetWrittenAsASnapshotLine(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/repeats.html")
	snap := snapshot(t, tab)
	for _, c := range []struct{ target, log string }{
		{"button 'Save'", "save"},
		{"button 'Edit' in 'Invoices'", "edit invoices"},
		{"[button 'Delete' in 'Eggs']", "delete eggs"},
		{"button 'Close' in 'Rename'", "close rename"},
		{"#save", "save"},
	} {
		res, perr, code := act(t, "click", c.target)
		if code != 0 {
			t.Fatalf("click %q: exit %d %+v", c.target, code, perr)
		}
		if res.Tab.ID != tab {
			t.Errorf("click %q acted on tab %d", c.target, res.Tab.ID)
		}
		if log := pageLog(t, tab); len(log) == 0 || log[len(log)-1] != c.log {
			t.Errorf("click %q: the page saw %v, want %q last", c.target, log, c.log)
		}
	}
	before := len(pageLog(t, tab))
	_, perr, code := act(t, "click", "button 'Edit'")
	if code == 0 || perr == nil || perr.Code != protocol.CodeAmbiguous {
		t.Fatalf("click an ambiguous line: exit %d %+v, want ambiguous", code, perr)
	}
	for _, ref := range []string{mustRef(t, snap, "button", "Edit")} {
		if !strings.Contains(perr.Message, ref+": [button 'Edit' in 'Meeting notes']") || !strings.Contains(perr.Message, "in 'Invoices'") {
			t.Errorf("the refusal does not list the candidates (%s): %s", ref, perr.Message)
		}
	}
	_, perr, code = act(t, "click", "button 'Twin'")
	if code == 0 || perr == nil || perr.Code != protocol.CodeAmbiguous {
		t.Errorf("click twins: exit %d %+v, want ambiguous", code, perr)
	}
	_, perr, code = act(t, "click", "button 'Publish'")
	if code == 0 || perr == nil || perr.Code != protocol.CodeNotFound {
		t.Errorf("click a line no element reads: exit %d %+v, want not_found", code, perr)
	} else if !strings.Contains(perr.Message, "/repeats.html") || !strings.Contains(perr.Hint, "--tab") {
		t.Errorf("the not_found refusal does not say which page it looked in, or how to name another tab: %+v", perr)
	}
	if n := len(pageLog(t, tab)); n != before {
		t.Errorf("a refused target acted: the page saw %v", pageLog(t, tab))
	}
	// A unique element named with the context it would have if it
	// repeated (the agent saw it so in another state of the page): its
	// context is checked, not ignored.
	before = len(pageLog(t, tab))
	if _, perr, code := act(t, "click", "button 'Archive' in 'Plans'"); code != 0 {
		t.Errorf("click a unique element by its line with its context: exit %d %+v", code, perr)
	} else if got := pageLog(t, tab); len(got) != before+1 || got[before] != "archive plans" {
		t.Errorf("the page saw %v", got)
	}
	_, perr, code = act(t, "click", "button 'Archive' in 'Invoices'")
	if code == 0 || perr == nil || perr.Code != protocol.CodeNotFound || !strings.Contains(perr.Message, "[button 'Archive' in 'Plans']") {
		t.Errorf("a line with the wrong context: exit %d %+v, want not_found naming the one in 'Plans'", code, perr)
	}
	if got := pageLog(t, tab); len(got) != before+1 {
		t.Errorf("a line with the wrong context acted: %v", got)
	}
	// The text form, as an agent types it.
	r := env.Grip(t.Context(), "click", "button 'Delete' in 'Milk'")
	if r.Code != 0 || !strings.Contains(r.Stdout, "ok: click") {
		t.Errorf("grip click \"button 'Delete' in 'Milk'\": exit %d %s%s", r.Code, r.Stdout, r.Stderr)
	}
}

// Every trailer names the exact command that reads on, with the tab when
// the request named one; an action's reply cut among what appeared reads
// on from the last line it shows, as a snapshot's trailer does.
func TestTrailersNameTheCommandThatReadsOn(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/menu.html")
	r := env.Grip(t.Context(), append([]string{"snapshot", "--budget", "30"}, tabArg(tab)...)...)
	if r.Code != 0 || !strings.Contains(r.Stdout, fmt.Sprintf(" --budget 30 --tab %d)", tab)) {
		t.Errorf("the snapshot's trailer does not name the tab:\n%s%s", r.Stdout, r.Stderr)
	}
	snap := snapshot(t, tab)
	c, err := client.Connect(t.Context(), client.Options{RuntimeDir: statedir.At(env.StateDir).Runtime, Wait: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var res protocol.ActionResult
	if err := c.Call(t.Context(), protocol.OpAct, protocol.ActArgs{Action: "click", Target: mustRef(t, snap, "button", "Actions"), ChangesBudget: 30}, &res); err != nil {
		t.Fatal(err)
	}
	if res.Changes.Omitted == 0 || len(res.Changes.Appeared) == 0 {
		t.Fatalf("the reply was not cut among what appeared: %+v", res.Changes)
	}
	want := fmt.Sprintf("grip snapshot --after %s --tab %d", res.Changes.Appeared[len(res.Changes.Appeared)-1].Ref, tab)
	if res.Changes.More != want {
		t.Errorf("more = %q, want %q", res.Changes.More, want)
	}
	if text := frames.ActionText("ok: click", res); !strings.Contains(text, "more lines ("+want+")") {
		t.Errorf("the text reply's trailer:\n%s", text)
	}
}

// An editor that opens below a toolbar of many buttons: the reply cut
// among the buttons still shows the text field, so the agent can type
// without a snapshot, and reads on from the last button of the run it
// shows (frames.FitChanges).
func TestCutReplyKeepsTheFieldThatOpened(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/editor-open.html?t="+t.Name())
	snap := snapshot(t, tab)
	res, perr, code := act(t, "click", mustRef(t, snap, "button", "New note"), "--tab", fmt.Sprint(tab))
	if code != 0 || perr != nil {
		t.Fatalf("click: exit %d %+v", code, perr)
	}
	c := res.Changes
	if c.Omitted == 0 {
		t.Fatalf("the reply was not cut: %d lines appeared", len(c.Appeared))
	}
	last := c.Appeared[len(c.Appeared)-1]
	if last.Role != "textbox" || last.Name != "Note text" {
		t.Fatalf("the cut reply ends with %s %q, not the note's text field; appeared: %+v", last.Role, last.Name, c.Appeared)
	}
	run := c.Appeared[len(c.Appeared)-2]
	if want := fmt.Sprintf("grip snapshot --after %s --tab %d", run.Ref, tab); c.More != want {
		t.Errorf("more = %q, want %q (after the last button shown)", c.More, want)
	}
	// The read on lists the buttons the reply left out, from the next one.
	r := env.Grip(t.Context(), "snapshot", "--after", run.Ref, "--tab", fmt.Sprint(tab))
	next := strings.TrimPrefix(run.Name, "format ")
	if n, err := strconv.Atoi(next); err != nil || r.Code != 0 || !strings.Contains(r.Stdout, fmt.Sprintf("[button 'format %d']", n+1)) {
		t.Errorf("reading on after %s (%s) does not list the next button:\n%s%s", run.Ref, run.Name, r.Stdout, r.Stderr)
	}
	// The field works from the reply's ref.
	if _, perr, code := act(t, "fill", last.Ref, "milk, eggs", "--tab", fmt.Sprint(tab)); code != 0 || perr != nil {
		t.Errorf("fill %s: exit %d %+v", last.Ref, code, perr)
	}
}

// A trailer names the tab it read also when the command left the tab to
// the session's default, so that it still reads on in that tab after the
// default moved (grip tabs new makes the new tab the default).
func TestTrailerNamesTheDefaultTab(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/menu.html?default") // the session's default tab now
	r := env.Grip(t.Context(), "snapshot", "--budget", "30")
	m := regexp.MustCompile(`\(grip snapshot (--after @e\d+ --budget 30 --tab (\d+))\)`).FindStringSubmatch(r.Stdout)
	if r.Code != 0 || m == nil || m[2] != fmt.Sprint(tab) {
		t.Fatalf("grip snapshot --budget 30 in the default tab %d: its trailer does not name the tab:\n%s%s", tab, r.Stdout, r.Stderr)
	}
	c, err := client.Connect(t.Context(), client.Options{RuntimeDir: statedir.At(env.StateDir).Runtime, Wait: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var res protocol.ActionResult
	if err := c.Call(t.Context(), protocol.OpAct, protocol.ActArgs{Action: "click", Target: "button 'Actions'", ChangesBudget: 30}, &res); err != nil {
		t.Fatal(err)
	}
	if res.Changes.Omitted == 0 || !strings.HasSuffix(res.Changes.More, fmt.Sprintf(" --tab %d", tab)) {
		t.Errorf("a click by line in the default tab %d: the cut reply reads on with %q (omitted %d)", tab, res.Changes.More, res.Changes.Omitted)
	}
	env.OpenTab(t, env.Origin1+"/guest.html?default") // the default tab now
	on := env.Grip(t.Context(), append([]string{"snapshot"}, strings.Fields(m[1])...)...)
	if on.Code != 0 || !strings.Contains(on.Stdout, "menu.html?default") || strings.Contains(on.Stdout, "guest.html") {
		t.Errorf("the trailer's command after the default moved to another tab:\n%s%s", on.Stdout, on.Stderr)
	}
}

// A line a content snapshot printed (a paragraph) names its element also
// after a plain snapshot, whose interactive view leaves it out.
func TestContentLineAfterInteractiveSnapshot(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/menu.html?content-line")
	r := env.Grip(t.Context(), "snapshot", "--mode", "content", "--tab", fmt.Sprint(tab))
	m := regexp.MustCompile(`\[(paragraph '[^']*')\]`).FindStringSubmatch(r.Stdout)
	if r.Code != 0 || m == nil {
		t.Fatalf("grip snapshot --mode content lists no paragraph:\n%s%s", r.Stdout, r.Stderr)
	}
	if r := env.Grip(t.Context(), "snapshot", "--tab", fmt.Sprint(tab)); r.Code != 0 || strings.Contains(r.Stdout, m[1]) {
		t.Fatalf("the plain snapshot (the premise: it leaves the paragraph out):\n%s%s", r.Stdout, r.Stderr)
	}
	read := env.Grip(t.Context(), "read", m[1], "--tab", fmt.Sprint(tab))
	if read.Code != 0 || !strings.Contains(read.Stdout, "Pick what to do with the selected order.") {
		t.Errorf("grip read %q after a plain snapshot: exit %d\n%s%s", m[1], read.Code, read.Stdout, read.Stderr)
	}
	// A heading too, once more after a plain snapshot.
	if r := env.Grip(t.Context(), "snapshot", "--tab", fmt.Sprint(tab)); r.Code != 0 {
		t.Fatalf("plain snapshot: %s%s", r.Stdout, r.Stderr)
	}
	if h := env.Grip(t.Context(), "read", "heading 'Orders'", "--tab", fmt.Sprint(tab)); h.Code != 0 || !strings.Contains(h.Stdout, "Orders") {
		t.Errorf("grip read \"heading 'Orders'\" after a plain snapshot: exit %d\n%s%s", h.Code, h.Stdout, h.Stderr)
	}
}
