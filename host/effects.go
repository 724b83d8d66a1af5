package host

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
)

// What an action did besides acting on its element, as the reply tells it
// (docs/effects.md, "What an action did"): the extension watches each
// action (a dialog, a navigation, tabs opened, windows blocked, its tab
// closing) and the host adds what it learnt between replies from the
// extension's events: tabs a page opened later, and tabs it opened that
// have closed since.

// openerBook remembers which tab opened which and what each opener's next
// reply must name.
type openerBook struct {
	mu       sync.Mutex
	opener   map[int]int                  // guarded by mu; tab → the tab whose page opened it
	opened   map[int][]protocol.OpenedTab // guarded by mu; opener → tabs opened since its last reply
	closed   map[int][]int                // guarded by mu; opener → its tabs that closed since its last reply
	reported map[int]bool                 // guarded by mu; tabs some reply already named as opened
}

func newOpenerBook() *openerBook {
	return &openerBook{opener: map[int]int{}, opened: map[int][]protocol.OpenedTab{}, closed: map[int][]int{}, reported: map[int]bool{}}
}

// tabOpened records a tab a page opened (the extension's tab_opened).
func (b *openerBook) tabOpened(tab, opener int, url string) {
	if tab <= 0 || opener <= 0 {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.opener[tab] = opener
	if !b.reported[tab] {
		b.opened[opener] = append(b.opened[opener], protocol.OpenedTab{Tab: tab, URL: url})
	}
}

// tabRemoved records a closed tab: its opener's next reply names it.
func (b *openerBook) tabRemoved(tab int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if o, ok := b.opener[tab]; ok {
		b.closed[o] = append(b.closed[o], tab)
		b.opened[o] = slices.DeleteFunc(b.opened[o], func(t protocol.OpenedTab) bool { return t.Tab == tab })
	}
	delete(b.opener, tab)
	delete(b.reported, tab)
	delete(b.opened, tab)
	delete(b.closed, tab)
}

// take returns what tab's reply names: the tabs it opened (those the
// action saw, with their titles, then any the extension reported since the
// last reply) and its tabs that closed, and forgets them.
func (b *openerBook) take(tab int, seen []protocol.OpenedTab) ([]protocol.OpenedTab, []int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var opened []protocol.OpenedTab
	have := map[int]bool{}
	for _, t := range append(slices.Clone(seen), b.opened[tab]...) {
		if t.Tab <= 0 || have[t.Tab] {
			continue
		}
		have[t.Tab] = true
		b.reported[t.Tab] = true
		if _, known := b.opener[t.Tab]; !known {
			b.opener[t.Tab] = tab
		}
		opened = append(opened, t)
	}
	closed := b.closed[tab]
	delete(b.opened, tab)
	delete(b.closed, tab)
	return opened, closed
}

// finishAction ends an action on tab: the read of what changed (or, when
// the action closed the tab, the reply that says so), then what else the
// action did.
//
// since is when the action began: what the app said from then on goes in
// the reply (docs/effects.md, "What the app said").
func (h *Host) finishAction(ctx context.Context, tab int, detail string, args protocol.ActArgs, fx protocol.ActEffects, settle bool, since time.Time) (*protocol.ActionResult, error) {
	if fx.Closed {
		h.refs.InvalidateTab(tab)
		gone := h.tabs.forget(tab)
		h.openers.tabRemoved(tab)
		if detail == "" {
			detail = "the page closed its tab"
		}
		res := &protocol.ActionResult{OK: true, Tab: protocol.TabRef{ID: tab}, Detail: detail,
			Changes: protocol.Changes{Added: []string{}, Gone: formatRefs(gone)}, Closed: []int{tab}, Opened: fx.Opened, Blocked: fx.Blocked}
		return res, nil
	}
	res, err := h.afterAction(ctx, tab, detail, args, settle, since)
	if err != nil {
		return nil, err
	}
	h.addEffects(ctx, tab, res, fx)
	return res, nil
}

// An action by events that did nothing (docs/effects.md, "An action that
// did nothing"): a page may act only on trusted input — a handler that
// returns unless event.isTrusted (qBittorrent's context submenus), a menu
// that opens on CSS :hover, which follows only the real pointer — and a
// reply that says only "Clicked @e180" leaves the agent thinking it
// worked. The reply of a hover or a press by events that changed nothing
// it knows of says what to try next.

// hoverChangedNothing is what a hover by events that changed nothing
// adds: a menu opened by the style of :hover (a menu bar's dropdowns)
// follows only the real pointer, which no event moves.
const hoverChangedNothing = "nothing changed; a menu that opens on CSS :hover needs the real pointer: hover again with trusted (grip hover --trusted; MCP trusted: true)"

// changedNothingHints are the notes of the actions whose reply says, when
// done by events they changed nothing, to do them again with the real
// pointer: the CLI's verb and --trusted, the MCP tool's parameters.
var changedNothingHints = map[string]string{
	protocol.ActHover:      hoverChangedNothing,
	protocol.ActClick:      "nothing changed; if the page acts only on the real pointer, click again with trusted (grip click --trusted; MCP trusted: true)",
	protocol.ActDblClick:   "nothing changed; if the page acts only on the real pointer, double-click again with trusted (grip dblclick --trusted; MCP doubleClick: true, trusted: true)",
	protocol.ActRightClick: `nothing changed; if the page acts only on the real pointer, right-click again with trusted (grip rightclick --trusted; MCP button: "right", trusted: true)`,
}

// unseenChangeRoles are the roles of elements a press on which may do
// what no reply shows, so that one that changed nothing is no sign the
// page wanted the real pointer: a field takes the focus, a select opens
// the browser's own list; the radio, option, tab or menu choice already
// chosen stays so, as does a checkbox a page keeps; a canvas draws. A
// change of checked, selected or value shows among the changed lines.
var unseenChangeRoles = map[string]bool{
	"textbox": true, "searchbox": true, "combobox": true, "spinbutton": true, "listbox": true, "slider": true,
	"checkbox": true, "radio": true, "switch": true, "option": true, "tab": true, "menuitemradio": true, "menuitemcheckbox": true,
	"canvas": true,
}

// untrustedHint is the note an action's reply adds when the action was
// done by events, its target is not one of unseenChangeRoles (role: as
// the agent's view holds it; "" when unknown, for a CSS target) and it
// did nothing the reply knows of (changedNothing), nor moved the tab's
// URL (moved: a link to #section changes no line); "" otherwise.
func untrustedHint(args protocol.ActArgs, role string, moved bool, res *protocol.ActionResult) string {
	hint := changedNothingHints[args.Action]
	if hint == "" || args.Trusted || unseenChangeRoles[role] || moved || !changedNothing(res) {
		return ""
	}
	// A press the page answered by changing what it shows, though no line
	// did (DokuWiki's toolbar opening a picker by a class), was not one it
	// ignored for being untrusted. A hover's note stays: the page's own
	// mouseover changes say nothing of a menu that CSS :hover opens.
	if res.PageChanged && args.Action != protocol.ActHover {
		return ""
	}
	return hint
}

// changedNothing says an action's reply has nothing to tell of the page:
// it was read once the page had settled, and there is no line added, gone
// or changed, no new page, tab, window asked for or dialog, no navigation
// still loading, nothing said, no download and no request the action
// started (answered, it may have changed nothing the page shows: a save).
func changedNothing(res *protocol.ActionResult) bool {
	c := res.Changes
	return len(c.Added) == 0 && len(c.Gone) == 0 && len(c.Changed) == 0 && len(c.Appeared) == 0 && len(c.Contexts) == 0 &&
		!c.Navigated && res.Dialog == nil && len(res.Opened) == 0 && len(res.Closed) == 0 && len(res.Blocked) == 0 &&
		res.Loading == "" && len(res.Said) == 0 && res.Download == nil && res.Requests == 0 &&
		res.Settled != nil && *res.Settled
}

// hintUntrusted adds untrustedHint's note to the reply of action a,
// once all it did is in it (its download too); urlBefore is the tab's top
// URL at the read before it.
func (h *Host) hintUntrusted(a *action, res *protocol.ActionResult, urlBefore string) {
	if changedNothingHints[a.args.Action] == "" || a.args.Trusted {
		return
	}
	var role string
	if e := a.target.entry; e != nil {
		if el, _, _, ok := h.tabs.seen(a.target.tab, e.Ref, 0); ok {
			role = el.Role
		}
	}
	moved := urlBefore != h.tabs.topURL(a.target.tab)
	if note := untrustedHint(a.args, role, moved, res); note != "" {
		res.Detail = joinDetail(res.Detail, note)
	}
}

// addEffects puts into an action's reply what the extension saw it do and
// what the host learnt since tab's last reply.
func (h *Host) addEffects(ctx context.Context, tab int, res *protocol.ActionResult, fx protocol.ActEffects) {
	if res.Dialog == nil && fx.Dialog != nil {
		res.Dialog = fx.Dialog
	}
	res.Opened, res.Closed = h.openers.take(tab, fx.Opened)
	for i, t := range res.Opened {
		if t.Title != "" {
			continue
		}
		// Opened later, reported by an event: name it as it is now.
		var info protocol.TabRef
		if err := callExt(ctx, h, protocol.ExtTabInfo, protocol.TabParams{TabID: t.Tab}, &info); err == nil {
			res.Opened[i].URL, res.Opened[i].Title = info.URL, info.Title
		}
	}
	h.shareOpened(ctx, res.Opened)
	res.Blocked = fx.Blocked
	if fx.Navigation != nil && fx.Navigation.Loading && res.Dialog == nil {
		res.Loading = fx.Navigation.URL
	}
	h.maskEffects(ctx, &res.Opened, &res.Blocked, &res.Loading)
}

// shareOpened makes the tabs and popups a page opened on an agent's action
// its session's own, as a tab it opens itself is (host/sessions.go); the
// extension puts them in the session's tab group.
func (h *Host) shareOpened(ctx context.Context, opened []protocol.OpenedTab) {
	if h.person == nil {
		return
	}
	for _, t := range opened {
		h.person.own(t.Tab, sessionOf(ctx), false)
		tellExtension(ctx, h, protocol.ExtShareTab, protocol.TabParams{TabID: t.Tab, Session: sessionOf(ctx)})
	}
}

// maskEffects leaves the URL and title of blocked sites out of what a
// reply says an action opened, asked for or is loading, as the policy
// leaves them out of the tab list (host/controls.go). A blank window is
// judged by the document that opened it (host/openers.go).
func (h *Host) maskEffects(ctx context.Context, opened *[]protocol.OpenedTab, blocked *[]string, loading *string) {
	if h.person == nil {
		return
	}
	p := h.person.policy.Current()
	isBlocked := func(u string) bool { _, b := p.BlockedOwn(u); return b }
	var tabs map[int]protocol.Tab // read once, for a blank window
	for i, o := range *opened {
		blank := policy.Inherits(o.URL) && !p.Trivial()
		if blank && tabs == nil {
			tabs = map[int]protocol.Tab{}
			var res protocol.TabsResult
			if err := callExt(ctx, h, protocol.ExtTabs, protocol.TabsParams{}, &res); err == nil {
				for _, t := range res.Tabs {
					tabs[t.ID] = t
				}
			}
		}
		if blank {
			t, known := tabs[o.Tab]
			if !known {
				t = protocol.Tab{ID: o.Tab, Opener: -1} // closed, or not told: judged blocked
			}
			if d, ok := openerRule(p, t, nil); ok && d.Rule == policy.Block {
				(*opened)[i].URL, (*opened)[i].Title = "", "(blocked by the policy)"
			}
			continue
		}
		if isBlocked(o.URL) {
			(*opened)[i].URL, (*opened)[i].Title = "", "(blocked by the policy)"
		}
	}
	for i, u := range *blocked {
		if isBlocked(u) {
			(*blocked)[i] = "a page the policy blocks"
		}
	}
	if isBlocked(*loading) {
		*loading = "a page the policy blocks"
	}
}

// dialogOpen is readTab's error for a tab that shows a JavaScript dialog:
// nothing could be read, and the reply carries the dialog instead.
type dialogOpen struct {
	tab    protocol.TabRef
	dialog *protocol.Dialog
}

func (d *dialogOpen) Error() string { return "dialog open: " + d.dialog.Type + " " + d.dialog.Message }

// openDialog returns the dialog err reports, or nil.
func openDialog(err error) *dialogOpen {
	var d *dialogOpen
	if errors.As(err, &d) {
		return d
	}
	return nil
}

// snapshotEffects adds to a snapshot of tab the tabs its page opened and
// closed since its last reply, after the elements.
func (h *Host) snapshotEffects(ctx context.Context, tab int, snap *protocol.Snapshot) {
	snap.Opened, snap.Closed = h.openers.take(tab, nil)
	h.shareOpened(ctx, snap.Opened)
	var none []string
	var loading string
	h.maskEffects(ctx, &snap.Opened, &none, &loading)
	lines := frames.EffectLines(snap.Opened, snap.Closed, nil, "")
	if len(lines) == 0 {
		return
	}
	text := strings.Join(lines, "\n") + "\n"
	snap.Text += text
	snap.Tokens += frames.Tokens(text)
}

// afterAction reads the tab again, once its page has settled when settle
// is set, so the reply can say what changed (refs
// added and gone, url, title), and includes the snapshot when asked. A
// page in the middle of navigating may not answer at once; we retry a few
// times and otherwise report the action without changes.
func (h *Host) afterAction(ctx context.Context, tab int, detail string, args protocol.ActArgs, settle bool, since time.Time) (*protocol.ActionResult, error) {
	res := &protocol.ActionResult{OK: true, Detail: detail, Changes: protocol.Changes{Added: []string{}, Gone: []string{}}}
	// Read in the mode of the agent's last view, so that what is added,
	// gone and changed compares like with like.
	mode := args.Mode
	if mode == "" {
		mode = h.tabs.lastMode(tab)
	}
	if mode == "" {
		mode = protocol.ModeInteractive
	}
	budget := args.ChangesBudget
	if budget <= 0 {
		budget = protocol.DefaultChangesBudget
	}
	for attempt := 0; attempt < 4; attempt++ {
		if attempt > 0 {
			select {
			case <-time.After(time.Duration(attempt) * 250 * time.Millisecond):
			case <-ctx.Done():
				return res, nil
			}
		}
		raw, results, diff, err := h.readTabFor(ctx, tab, protocol.SnapshotParams{Mode: mode, KeepSignatures: !args.Snapshot, Settle: settle, SaidSince: since.UnixMilli()}, nil)
		if err != nil {
			if d := openDialog(err); d != nil {
				// The page is stopped behind a dialog: the reply names it.
				res.Tab, res.Dialog = d.tab, d.dialog
				res.Changes.URL, res.Changes.Title = d.tab.URL, d.tab.Title
				return res, nil
			}
			pe := protocol.AsError(err)
			if pe.Code == protocol.CodeTimeout {
				break // a page blocked (e.g. by a dialog) will not answer a retry either
			}
			if pe.Code == protocol.CodeNavigationFailed {
				// The action took the tab to a page that did not load: it
				// shows the browser's error page, which no retry reads.
				res.Detail = joinDetail(res.Detail, pe.Message)
				break
			}
			continue
		}
		res.Tab = raw.Tab
		for _, f := range raw.Frames {
			if f.FrameID == 0 && f.Error == frames.ReasonBlocked {
				// The action took the tab to a site the person blocks (a
				// redirect, a link): nothing of it was read, and the reply
				// says so at once.
				res.Detail = joinDetail(res.Detail, fmt.Sprintf("tab %d is now on a site the person's policy blocks: nothing of it is read; close the tab, or navigate it elsewhere", tab))
			}
		}
		res.Said = saidOf(raw, results)
		tellSettled(res, raw.Settle)
		if raw.Loading {
			// The page is usable but not done loading (an image or a poll
			// the server holds): the reply says so (masked if blocked).
			res.Loading = raw.Tab.URL
		}
		res.Changes = protocol.Changes{URL: raw.Tab.URL, Title: raw.Tab.Title, Added: formatRefs(diff.added), Gone: formatRefs(diff.gone), Navigated: diff.navigated,
			Contexts: diff.contexts}
		var after string
		res.Changes.Changed, res.Changes.Appeared, res.Changes.Skipped, res.Changes.Omitted, res.Changes.AsBefore, after = frames.FitChangesFresh(diff.changed, diff.appeared, diff.asBefore, budget-frames.ContextsCost(diff.contexts))
		if res.Changes.Omitted > 0 {
			res.Changes.More = readOnCommand(after, mode, tab)
		}
		if args.Snapshot {
			if snap, err := h.render(tab, raw.Tab, results, frames.Options{Budget: args.Budget}); err == nil {
				res.Snapshot = snap
			}
		}
		return res, nil
	}
	var info protocol.TabRef
	if err := callExt(ctx, h, protocol.ExtTabInfo, protocol.TabParams{TabID: tab}, &info); err == nil {
		res.Tab = info
		res.Changes.URL, res.Changes.Title = info.URL, info.Title
	}
	return res, nil
}

// readOnCommand is the command that reads on where an action's reply cut
// its lines (docs/snapshot.md, "Snapshot format"): after the last
// element of the unbroken run that appeared (frames.FitChanges), when the
// cut fell among those (they are in page order), else from the start; in
// the mode of the agent's view, and naming the tab it read (also when the
// request left it to the default) — the same form as a snapshot's trailer.
func readOnCommand(after string, mode string, tab int) string {
	cmd := "grip snapshot"
	if after != "" {
		cmd += " --after " + after
	}
	return cmd + readOnArgs(mode, 0, tab)
}

// readOnArgs are the arguments that make grip snapshot read the same view:
// its mode and budget when not the default, and the tab (0: none).
func readOnArgs(mode string, budget, tab int) string {
	var s string
	if mode == protocol.ModeContent {
		s += " --mode content"
	}
	if budget > 0 {
		s += " --budget " + strconv.Itoa(budget)
	}
	if tab > 0 {
		s += " --tab " + strconv.Itoa(tab)
	}
	return s
}

// saidOf gathers what each frame said (protocol.ExtFrame.Said), in frame
// order, a field's local id made its ref (results are raw's frames with
// their refs, in the same order); the same text twice is said once.
func saidOf(raw protocol.SnapshotReply, results []frames.FrameResult) []protocol.Said {
	var out []protocol.Said
	seen := map[string]bool{}
	for i, f := range raw.Frames {
		for _, s := range f.Said {
			if s.Text == "" || seen[s.Text] {
				continue
			}
			seen[s.Text] = true
			said := protocol.Said{Role: s.Role, Text: s.Text}
			if s.ID != 0 && i < len(results) {
				for j, e := range f.Elements {
					if e.ID == s.ID && j < len(results[i].Elements) {
						said.Ref = results[i].Elements[j].Ref
						break
					}
				}
			}
			out = append(out, said)
		}
	}
	return out
}

// joinDetail adds a note to an action's detail.
func joinDetail(detail, note string) string {
	if detail == "" {
		return note
	}
	return detail + "; " + note
}
