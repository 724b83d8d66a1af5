package walk

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/protocol"
)

func str(s string) *string { return &s }

// page is a snapshot of a small app: a form, links in and out of it, and
// the controls a person leaves alone.
func app() protocol.Snapshot {
	return protocol.Snapshot{Tab: protocol.TabRef{ID: 7, URL: "http://app.test/"}, Frames: []protocol.Frame{{Elements: []protocol.Element{
		{Ref: "@e1", Role: "link", Name: "Home", Href: "http://app.test/"},
		{Ref: "@e2", Role: "link", Name: "Elsewhere", Href: "https://other.example/"},
		{Ref: "@e3", Role: "button", Name: "Log out"},
		{Ref: "@e4", Role: "button", Name: "Delete project"},
		{Ref: "@e5", Role: "button", Name: "Archive everything"},
		{Ref: "@e6", Role: "textbox", Name: "Email address", Value: str("")},
		{Ref: "@e7", Role: "checkbox", Name: "Remember me"},
		{Ref: "@e8", Role: "combobox", Name: "Country", Value: str("France")},
		{Ref: "@e9", Role: "option", Name: "France"},
		{Ref: "@e10", Role: "option", Name: "Peru"},
		{Ref: "@e11", Role: "button", Name: "Save", States: []string{"disabled"}},
		{Ref: "@e12", Role: "button", Name: "Sign in"},
	}}}}
}

func walkOf(seed uint64, n int) []string {
	c := NewChooser(seed, "http://app.test/start", []string{"archive"})
	var steps []string
	for range n {
		steps = append(steps, c.Next(app(), nil).Command())
	}
	return steps
}

// The same seed on the same page makes the same walk; another seed
// another one.
func TestChooserReplays(t *testing.T) {
	a, b := walkOf(42, 50), walkOf(42, 50)
	if strings.Join(a, "\n") != strings.Join(b, "\n") {
		t.Fatalf("seed 42 walked two ways:\n%v\n%v", a, b)
	}
	if strings.Join(a, "\n") == strings.Join(walkOf(43, 50), "\n") {
		t.Fatal("seeds 42 and 43 made the same walk")
	}
}

// The walk leaves alone what a person would: logging out, destroying,
// what --avoid names, links off the app, disabled controls; and it uses
// every kind of step the snapshot offers.
func TestChooserAvoidsAndCovers(t *testing.T) {
	kinds := map[string]int{}
	for _, cmd := range walkOf(1, 3000) {
		for _, ref := range []string{"@e2 ", "@e3 ", "@e4 ", "@e5 ", "@e11 "} {
			if strings.Contains(cmd+" ", " "+ref) {
				t.Fatalf("the walk took %q", cmd)
			}
		}
		kinds[strings.Fields(cmd)[1]]++
	}
	for _, k := range []string{"click", "fill", "type", "select", "check", "press", "scroll", "find", "back", "hover", "focus"} {
		if kinds[k] == 0 {
			t.Errorf("3000 steps had no %s: %v", k, kinds)
		}
	}
}

// A field is filled with what a person would type there; a select with
// one of its options.
func TestChooserText(t *testing.T) {
	c := NewChooser(5, "http://app.test/", nil)
	email := regexp.MustCompile(`^\S+@\S+\.\S+$`)
	for range 500 {
		a := c.Next(app(), nil)
		switch {
		case a.Ref == "@e6" && (a.Act == protocol.ActFill || a.Act == protocol.ActType) && !email.MatchString(a.Text):
			t.Fatalf("the email field got %q", a.Text)
		case a.Act == protocol.ActSelect && a.Text != "France" && a.Text != "Peru":
			t.Fatalf("select chose %q, not an option", a.Text)
		}
	}
}

// Gone refs are tried again, for their refusal.
func TestChooserTriesGoneRefs(t *testing.T) {
	c := NewChooser(9, "http://app.test/", nil)
	old := []protocol.Element{{Ref: "@e99", Role: "button", Name: "Next"}}
	for range 200 {
		if a := c.Next(app(), old); a.Ref == "@e99" {
			if !a.Stale || a.Act != protocol.ActClick {
				t.Fatalf("gone ref tried as %+v", a)
			}
			return
		}
	}
	t.Fatal("200 steps never tried the gone ref")
}

func ok() *protocol.ActionResult {
	return &protocol.ActionResult{OK: true, Tab: protocol.TabRef{ID: 7}}
}

func refusal(code protocol.Code, msg, hint string) error {
	return fmt.Errorf("act: %w", &protocol.Error{Code: code, Message: msg, Hint: hint})
}

func wantViolations(t *testing.T, name string, vs []Violation, inv int, want bool) {
	t.Helper()
	if want && (len(vs) == 0 || vs[0].Invariant != inv) {
		t.Errorf("%s: planted violation of invariant %d not caught: %v", name, inv, vs)
	}
	if !want && len(vs) > 0 {
		t.Errorf("%s: a kept promise reported: %v", name, vs)
	}
}

// Invariant 4 catches each kind of bad reply planted, and passes good ones.
func TestCheckReply(t *testing.T) {
	for _, c := range []struct {
		name string
		res  *protocol.ActionResult
		err  error
		bad  bool
	}{
		{"ok", ok(), nil, false},
		{"a refusal with a next step", nil, refusal(protocol.CodeNotActionable, "@e3: covered by [dialog 'Cookies']", "dismiss the dialog first"), false},
		{"internal", nil, refusal(protocol.CodeInternal, "something broke", "try again"), true},
		{"a code the contract lacks", nil, refusal("oops", "no", "try"), true},
		{"no next step", nil, refusal(protocol.CodeNotActionable, "element is not editable", ""), true},
		{"no message", nil, refusal(protocol.CodeTimeout, "", "wait"), true},
		{"the browser's raw message", nil, refusal(protocol.CodeNoBrowser, "Error: No tab with id: 12.", "grip tabs"), true},
		{"a script's raw message", nil, refusal(protocol.CodeNotActionable, "TypeError: Cannot read properties of null (reading 'x')", "retry"), true},
		{"not a grip error", nil, errors.New("EOF"), true},
		{"an empty reply", nil, nil, true},
		{"no tab", &protocol.ActionResult{OK: true}, nil, true},
	} {
		wantViolations(t, c.name, CheckReply(c.res, c.err), InvReply, c.bad)
	}
}

// Invariant 1 holds grip's answer on a ref to the observer's word on its
// node.
func TestCheckRef(t *testing.T) {
	click := Action{Act: protocol.ActClick, Ref: "@e3"}
	stale := refusal(protocol.CodeStaleRef, "@e3 is gone", "grip snapshot")
	for _, c := range []struct {
		name string
		o    Outcome
		bad  bool
	}{
		{"connected, accepted", Outcome{Action: click, Res: ok(), Bound: true, Pre: Connected, Post: Connected}, false},
		{"disconnected, stale", Outcome{Action: click, Err: stale, Bound: true, Pre: Disconnected, Post: Disconnected}, false},
		{"connected, called stale", Outcome{Action: click, Err: stale, Bound: true, Pre: Connected, Post: Connected}, true},
		{"disconnected, accepted", Outcome{Action: click, Res: ok(), Bound: true, Pre: Disconnected, Post: Disconnected}, true},
		{"disconnected, refused as covered", Outcome{Action: click, Err: refusal(protocol.CodeNotActionable, "covered", "scroll"), Bound: true, Pre: Disconnected, Post: Disconnected}, true},
		{"removed by the action itself", Outcome{Action: click, Res: ok(), Bound: true, Pre: Connected, Post: Disconnected}, false},
		{"out of the observer's reach", Outcome{Action: click, Err: stale, Bound: true, Pre: Unknown, Post: Unknown}, false},
		{"a node the observer never saw", Outcome{Action: click, Err: stale}, false},
	} {
		wantViolations(t, c.name, CheckRef(c.o), InvRefs, c.bad)
	}
}

// Invariant 3: the action's event on the ref's element, and a click once.
func TestCheckLanded(t *testing.T) {
	click := Action{Act: protocol.ActClick, Ref: "@e3"}
	ev := func(t string, id int, within bool) Landing {
		return Landing{Event: Event{Type: t, Doc: "d", ID: id}, Within: within, Node: fmt.Sprint("node ", id)}
	}
	on := func(id int, within bool) Landing { return ev("click", id, within) }
	press := func(id int) Landing { return ev("mousedown", id, true) }
	already := ok()
	already.Detail = "already checked"
	for _, c := range []struct {
		name string
		o    Outcome
		bad  bool
	}{
		{"once, on it", Outcome{Action: click, Res: ok(), Bound: true, Landed: []Landing{on(4, true)}}, false},
		{"a label's click and its input's", Outcome{Action: click, Res: ok(), Bound: true, Landed: []Landing{on(4, true), on(5, true)}}, false},
		{"no click at all", Outcome{Action: click, Res: ok(), Bound: true}, true},
		{"on another element", Outcome{Action: click, Res: ok(), Bound: true, Landed: []Landing{on(9, false)}}, true},
		{"in a document the click navigated away from", Outcome{Action: click, Res: ok(), Bound: true, Landed: []Landing{{Event: Event{Type: "mousedown", Doc: "d", ID: 3}, OutOfReach: true}}}, false},
		{"twice", Outcome{Action: click, Res: ok(), Bound: true, Landed: []Landing{on(4, true), on(4, true)}}, true},
		{"a press and its click", Outcome{Action: click, Res: ok(), Bound: true, Landed: []Landing{press(4), on(4, true)}}, false},
		{"a press that removed the option (no click follows)", Outcome{Action: click, Res: ok(), Bound: true, Landed: []Landing{press(4)}}, false},
		{"pressed twice", Outcome{Action: click, Res: ok(), Bound: true, Landed: []Landing{press(4), press(4), on(4, true)}}, true},
		{"already checked", Outcome{Action: Action{Act: protocol.ActCheck, Ref: "@e7"}, Res: already}, false},
		{"a fill of a text field that dispatched no input", Outcome{Action: Action{Act: protocol.ActFill, Ref: "@e6"}, Res: ok(), Bound: true, Field: true}, true},
		{"a fill of an editor's own model", Outcome{Action: Action{Act: protocol.ActFill, Ref: "@e6"}, Res: ok(), Bound: true}, false},
		{"a hover on what is under the pointer", Outcome{Action: Action{Act: protocol.ActHover, Ref: "@e7"}, Res: ok()}, false},
		{"refused", Outcome{Action: click, Err: refusal(protocol.CodeStaleRef, "gone", "snapshot")}, false},
	} {
		wantViolations(t, c.name, CheckLanded(c.o), InvLanded, c.bad)
	}
}

// Invariant 2: the picture before plus the reply is the page after.
func TestCheckPicture(t *testing.T) {
	before := app()
	after := app()
	after.Frames[0].Elements[6].States = []string{"checked"}
	after.Frames[0].Elements = append(after.Frames[0].Elements, protocol.Element{Ref: "@e13", Role: "button", Name: "Continue"})
	told := ok()
	told.Changes = protocol.Changes{Added: []string{"@e13"},
		Changed:  []protocol.Element{after.Frames[0].Elements[6]},
		Appeared: []protocol.Element{{Ref: "@e13", Role: "button", Name: "Continue"}}}
	wantViolations(t, "a true reply", CheckPicture(before, told, nil, after), InvPicture, false)
	missed := ok()
	missed.Changes = protocol.Changes{Changed: told.Changes.Changed}
	wantViolations(t, "a reply that left out what appeared", CheckPicture(before, missed, nil, after), InvPicture, true)
	yes := true
	missed.Settled = &yes
	if vs := CheckPicture(before, missed, nil, after); len(vs) == 0 || !strings.Contains(vs[0].What, "settled") {
		t.Errorf("a settled reply's miss does not say so: %v", vs)
	}
	// A page that was changing, or a reply that said it was, is not
	// held to the picture.
	no := false
	for _, r := range []*protocol.ActionResult{{Settled: &no}, {Live: true}, {Loading: "http://app.test/next"}} {
		if Settling(r, time.Minute) {
			t.Errorf("Settling(%+v) holds a moving page to its picture", r)
		}
	}
	if Settling(ok(), 10*time.Millisecond) || !Settling(ok(), time.Minute) {
		t.Error("Settling does not go by how long the page was quiet")
	}
}

// Invariant 5: nothing of the blocked frame in a reply.
func TestCheckBlocked(t *testing.T) {
	m := []string{"walk-blocked-1-2", "127.0.0.2:4000"}
	wantViolations(t, "clean", CheckBlocked(`@e1: [button 'Save']`, m), InvBlocked, false)
	wantViolations(t, "the blocked frame's button", CheckBlocked(`@e9: [button 'walk-blocked-1-2 button']`, m), InvBlocked, true)
	wantViolations(t, "the blocked frame's URL", CheckBlocked(`opened: http://127.0.0.2:4000/`, m), InvBlocked, true)
}

// Invariant 6: memory that keeps growing over the walk.
func TestCheckBounded(t *testing.T) {
	const mib = 1 << 20
	flat := []Memory{{0, 30 * mib, 4 * mib}, {20, 40 * mib, 6 * mib}, {40, 45 * mib, 7 * mib}, {60, 44 * mib, 8 * mib}}
	wantViolations(t, "flat", CheckBounded(flat), InvBounded, false)
	host := append(flat[:3:3], Memory{60, 400 * mib, 8 * mib})
	wantViolations(t, "the host grew", CheckBounded(host), InvBounded, true)
	worker := append(flat[:3:3], Memory{60, 44 * mib, 90 * mib})
	wantViolations(t, "the worker grew", CheckBounded(worker), InvBounded, true)
}

// A command line as a person would paste it.
func TestCommand(t *testing.T) {
	for _, c := range []struct {
		a    Action
		want string
	}{
		{Action{Act: protocol.ActFill, Ref: "@e4", Text: "O'Brien"}, `grip fill @e4 'O'\''Brien'`},
		{Action{Act: protocol.ActScroll, Up: true}, "grip scroll --up"},
		{Action{Act: protocol.ActPress, Text: "Enter"}, "grip press Enter"},
	} {
		if got, want := c.a.Command(), c.want; got != want {
			t.Errorf("Command() = %s, want %s", got, want)
		}
	}
}

// Invariant 1 for every held ref: one listed whose element is gone names
// another element now.
func TestCheckHeld(t *testing.T) {
	for _, c := range []struct {
		name  string
		alive map[string]Alive
		bad   bool
	}{
		{"connected", map[string]Alive{"@e1": Connected}, false},
		{"out of the observer's reach", map[string]Alive{"@e1": Unknown}, false},
		{"listed while its element is gone", map[string]Alive{"@e1": Connected, "@e2": Disconnected}, true},
	} {
		wantViolations(t, c.name, CheckHeld([]string{"@e1", "@e2"}, c.alive), InvRefs, c.bad)
	}
}

// Invariant 7 holds grip to what it promises to quote (Owed), both ways:
// what it owes must be in the reply's said, and what a region only came
// on the page with must not be.
func TestCheckSaid(t *testing.T) {
	said := func(ss ...protocol.Said) *protocol.ActionResult { return &protocol.ActionResult{OK: true, Said: ss} }
	status := func(text string) protocol.Said { return protocol.Said{Role: "status", Text: text} }
	changed := Region{Text: "saved.", Was: "saving…"}
	alert := Region{Text: "wrong password, try again", Alert: true, Born: true, Came: "wrong password, try again", Content: "wrong password, try again"}
	// DokuWiki's media manager: each closed node of the namespace tree is
	// given aria-live as the page sets up, with its name in it.
	tree := Region{Text: "wiki", Born: true, Loaded: true, Came: "wiki", Content: "wiki"}
	for _, c := range []struct {
		name    string
		regions []Region
		res     *protocol.ActionResult
		bad     bool
	}{
		{"an alert said, cut short", []Region{alert}, said(protocol.Said{Role: "alert", Text: "Wrong  password, try…"}), false},
		{"an alert that came left out", []Region{alert}, said(), true},
		{"a status that changed left out", []Region{changed}, said(protocol.Said{Role: "alert", Text: "Wrong password"}), true},
		{"a status that changed said", []Region{changed}, said(status("Saved.")), false},
		{"DokuWiki's draft__status filled, left out", []Region{{Text: "draft autosaved on 2026/12/02 14:58"}}, said(), true},
		{"a region whose node changed but not its text", []Region{{Text: "wiki", Was: "wiki"}}, said(), false},
		{"a region put on the page with its text", []Region{{Text: "3 results", Born: true, Came: "3 results", Content: "3 results"}}, said(), false},
		{"a region put on the page empty, then filled", []Region{{Text: "3 results", Born: true, Content: "3 results", Changed: true}}, said(), true},
		{"a status in a page the action loaded", []Region{{Text: "ready", Born: true, Loaded: true, Content: "ready", Changed: true}}, said(), false},
		{"an alert in a page the action loaded", []Region{{Text: "successful update.", Alert: true, Born: true, Loaded: true}}, said(), true},
		{"a clock", []Region{{Text: "14:58:03", Was: "14:58:02", Ticks: 9}}, said(), false},
		{"a reply as full as it may be", []Region{changed}, said(status("a"), status("b"), status("c"), status("d"), status("e"), status("f")), false},
		// The other way: a quote of what the page drew.
		{"the tree's node quoted as said", []Region{tree}, said(protocol.Said{Role: "live", Text: "wiki"}), true},
		{"an inserted region's text quoted", []Region{{Text: "3 results", Born: true, Came: "3 results", Content: "3 results"}}, said(status("3 results")), true},
		{"a region that changed after it came, quoted", []Region{{Text: "ready", Born: true, Loaded: true, Content: "ready", Changed: true}}, said(status("Ready")), false},
		{"a drawn text that a changed region also says", []Region{tree, {Text: "wiki", Was: ""}}, said(status("wiki")), false},
		{"a flash quoted beside a drawn region", []Region{tree}, said(protocol.Said{Role: "flash", Text: "wiki"}), false},
	} {
		wantViolations(t, c.name, CheckSaid(c.regions, c.res), InvSaid, c.bad)
	}
}

// A walk passes on its picture and said shares only where told to: every
// other invariant's violation fails it whatever the target.
func TestPassedJudgesPicturesAsAShare(t *testing.T) {
	sum := func(judged, wrong, other int) Summary {
		var s Summary
		s.Checked[InvPicture] = judged
		s.ByInv[InvPicture] = wrong
		s.ByInv[InvRefs] = other
		s.Violations = wrong + other
		return s
	}
	for _, c := range []struct {
		s      Summary
		target float64
		want   bool
	}{
		{sum(40, 0, 0), 100, true},
		{sum(40, 1, 0), 100, false},
		{sum(40, 1, 0), 95, true},  // 97.5%
		{sum(40, 3, 0), 95, false}, // 92.5%
		{sum(40, 0, 1), 95, false}, // a ref refused while its element was there
		{sum(0, 0, 0), 95, true},
	} {
		if got := Passed(c.s, c.target); got != c.want {
			t.Errorf("Passed(%d judged, %d wrong, %d other; %v%%) = %v, want %v", c.s.Checked[InvPicture], c.s.ByInv[InvPicture], c.s.ByInv[InvRefs], c.target, got, c.want)
		}
	}
}

func TestPassedJudgesSaidsAsAShare(t *testing.T) {
	var s Summary
	s.Checked[InvSaid] = 50
	s.ByInv[InvSaid] = 2 // 96%
	s.Violations = 2
	if !Passed(s, 95) || Passed(s, 100) {
		t.Errorf("2 of 50 saids missed: Passed(95) = %v, Passed(100) = %v; want true, false", Passed(s, 95), Passed(s, 100))
	}
	s.ByInv[InvSaid], s.Violations = 3, 3 // 94%
	if Passed(s, 95) {
		t.Error("3 of 50 saids missed passed a target of 95%")
	}
}
