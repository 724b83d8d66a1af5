package host

import (
	"reflect"
	"strings"
	"testing"

	"github.com/grip-dev/grip/protocol"
)

// An opened tab is named once, in its opener's next reply, whether the
// extension's event comes before that reply or after it; a tab it opened
// that closes is named in the opener's next reply after that, once.
func TestOpenerBook(t *testing.T) {
	b := newOpenerBook()
	seen := []protocol.OpenedTab{{Tab: 20, URL: "http://a/", Title: "A"}}

	// The event first, then the action that saw it.
	b.tabOpened(20, 10, "http://a/")
	opened, closed := b.take(10, seen)
	if !reflect.DeepEqual(opened, seen) || len(closed) != 0 {
		t.Fatalf("take = %v %v, want %v and none closed", opened, closed, seen)
	}
	// The action first, then a late event: not named again.
	b.tabOpened(21, 10, "http://b/")
	opened, _ = b.take(10, []protocol.OpenedTab{{Tab: 21, URL: "http://b/", Title: "B"}})
	b.tabOpened(21, 10, "http://b/")
	if again, _ := b.take(10, nil); len(opened) != 1 || len(again) != 0 {
		t.Fatalf("late event named tab 21 again: %v then %v", opened, again)
	}
	// Opened later by the page (a timer): named by the next reply.
	b.tabOpened(22, 10, "http://c/")
	if opened, _ = b.take(10, nil); len(opened) != 1 || opened[0].Tab != 22 {
		t.Fatalf("take = %v, want tab 22", opened)
	}
	// A popup closes itself: its opener's next reply says so, once.
	b.tabRemoved(20)
	if _, closed = b.take(10, nil); !reflect.DeepEqual(closed, []int{20}) {
		t.Fatalf("closed = %v, want [20]", closed)
	}
	if _, closed = b.take(10, nil); len(closed) != 0 {
		t.Fatalf("closed named twice: %v", closed)
	}
	// Another tab's reply is not given them.
	b.tabOpened(30, 11, "http://d/")
	if opened, closed = b.take(10, nil); len(opened)+len(closed) != 0 {
		t.Fatalf("tab 10 was given tab 11's news: %v %v", opened, closed)
	}
	// Opened and closed before any reply: it is said closed.
	b.tabRemoved(30)
	opened, closed = b.take(11, nil)
	if len(opened) != 0 || !reflect.DeepEqual(closed, []int{30}) {
		t.Fatalf("take = %v %v, want only closed [30]", opened, closed)
	}
}

// A hover, click, double click or right click by events that changed
// nothing the reply knows of says to do it again with the real pointer,
// naming the CLI's verb and the MCP tool's parameters; one that did
// anything the reply knows of (a line, a request it started, a window
// asked for, a download …), one done with the real pointer, one on a
// field, a choice or a canvas, and one read before the page settled do
// not (docs/effects.md, "An action that did nothing").
func TestUntrustedHint(t *testing.T) {
	yes := true
	quiet := func() *protocol.ActionResult {
		return &protocol.ActionResult{OK: true, Changes: protocol.Changes{Added: []string{}, Gone: []string{}}, Settled: &yes}
	}
	for action, want := range map[string]string{
		protocol.ActHover:      "hover again with trusted (grip hover --trusted; MCP trusted: true)",
		protocol.ActClick:      "nothing changed; if the page acts only on the real pointer, click again with trusted (grip click --trusted; MCP trusted: true)",
		protocol.ActDblClick:   "double-click again with trusted (grip dblclick --trusted; MCP doubleClick: true, trusted: true)",
		protocol.ActRightClick: `right-click again with trusted (grip rightclick --trusted; MCP button: "right", trusted: true)`,
	} {
		if got := untrustedHint(protocol.ActArgs{Action: action}, "button", false, quiet()); !strings.Contains(got, want) {
			t.Errorf("%s by events that changed nothing: hint %q, want it to say %q", action, got, want)
		}
		if got := untrustedHint(protocol.ActArgs{Action: action, Trusted: true}, "button", false, quiet()); got != "" {
			t.Errorf("trusted %s: hint %q, want none", action, got)
		}
	}
	for _, action := range []string{protocol.ActFocus, protocol.ActPress, protocol.ActType, protocol.ActCheck, protocol.ActScroll} {
		if got := untrustedHint(protocol.ActArgs{Action: action}, "button", false, quiet()); got != "" {
			t.Errorf("%s: hint %q, want none", action, got)
		}
	}
	click := protocol.ActArgs{Action: protocol.ActClick}
	for _, role := range []string{"textbox", "searchbox", "combobox", "listbox", "checkbox", "radio", "switch", "option", "tab", "canvas"} {
		if got := untrustedHint(click, role, false, quiet()); got != "" {
			t.Errorf("a click on a %s: hint %q, want none", role, got)
		}
	}
	if got := untrustedHint(click, "", false, quiet()); got == "" {
		t.Errorf("a click on a CSS target that changed nothing: no hint")
	}
	if got := untrustedHint(click, "link", true, quiet()); got != "" {
		t.Errorf("a click that moved the tab's URL (#section): hint %q", got)
	}
	// The page changed what it shows, though no line did (a picker opened
	// by a class): a press it answered gets no hint; a hover keeps its
	// note, which is about CSS :hover, not the page's own handlers.
	restyled := quiet()
	restyled.PageChanged = true
	for _, action := range []string{protocol.ActClick, protocol.ActDblClick, protocol.ActRightClick} {
		if got := untrustedHint(protocol.ActArgs{Action: action}, "button", false, restyled); got != "" {
			t.Errorf("%s the page answered by a change no line shows: hint %q, want none", action, got)
		}
	}
	if got := untrustedHint(protocol.ActArgs{Action: protocol.ActHover}, "button", false, restyled); got == "" {
		t.Errorf("a hover whose page changed no line: no hint")
	}
	no := false
	for what, change := range map[string]func(*protocol.ActionResult){
		"a line added":   func(r *protocol.ActionResult) { r.Changes.Added = []string{"@e9"} },
		"a line gone":    func(r *protocol.ActionResult) { r.Changes.Gone = []string{"@e3"} },
		"a line changed": func(r *protocol.ActionResult) { r.Changes.Changed = []protocol.Element{{Ref: "@e3", Role: "button"}} },
		"a line appeared": func(r *protocol.ActionResult) {
			r.Changes.Appeared = []protocol.Element{{Ref: "@e9", Role: "menuitem"}}
		},
		"a context renamed":     func(r *protocol.ActionResult) { r.Changes.Contexts = []protocol.ContextChange{{From: "a", To: "b"}} },
		"a new page":            func(r *protocol.ActionResult) { r.Changes.Navigated = true },
		"a dialog":              func(r *protocol.ActionResult) { r.Dialog = &protocol.Dialog{Type: "alert"} },
		"a tab opened":          func(r *protocol.ActionResult) { r.Opened = []protocol.OpenedTab{{Tab: 9}} },
		"a tab closed":          func(r *protocol.ActionResult) { r.Closed = []int{9} },
		"a window blocked":      func(r *protocol.ActionResult) { r.Blocked = []string{"http://x/"} },
		"a navigation loading":  func(r *protocol.ActionResult) { r.Loading = "http://x/slow" },
		"something said":        func(r *protocol.ActionResult) { r.Said = []protocol.Said{{Role: "status", Text: "Saved"}} },
		"a download":            func(r *protocol.ActionResult) { r.Download = &protocol.Download{Filename: "a.zip"} },
		"a request it started":  func(r *protocol.ActionResult) { r.Requests = 1 },
		"a page still changing": func(r *protocol.ActionResult) { r.Settled = &no },
		"no settling waited":    func(r *protocol.ActionResult) { r.Settled = nil },
	} {
		for _, action := range []string{protocol.ActClick, protocol.ActHover} {
			res := quiet()
			change(res)
			if got := untrustedHint(protocol.ActArgs{Action: action}, "button", false, res); got != "" {
				t.Errorf("%s with %s: hint %q, want none", action, what, got)
			}
		}
	}
}
