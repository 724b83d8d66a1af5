package host

import (
	"context"
	"fmt"

	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
)

// What the host withholds of a blocked page from every reply, whatever
// operation carries it (docs/person.md, "The person's controls"):
// a dialog is judged by the frame that opened it, not by the tab's top
// page, and a wait is judged again when it ends, since the page may have
// gone to a blocked site or taken in a blocked frame while it waited.

// withhold runs on every reply serve sends: a dialog opened by a blocked
// frame, or shown by a blocked tab, goes out with its type only; the
// frame's URL never goes out.
func (h *Host) withhold(res any, err error) (any, error) {
	if h.person == nil {
		return res, err
	}
	p := h.person.policy.Current()
	if perr, ok := err.(*protocol.Error); ok && perr.Dialog != nil {
		c := *perr
		if c.Dialog = withheldDialog(p, perr.Dialog, ""); c.Dialog.Withheld {
			c.Message = frames.DialogLine(c.Dialog)
		}
		err = &c
	}
	switch r := res.(type) {
	case *protocol.ActionResult:
		if r != nil && r.Dialog != nil {
			r.Dialog = withheldDialog(p, r.Dialog, r.Tab.URL)
		}
	case *protocol.Snapshot:
		if r != nil && r.Dialog != nil {
			r.Dialog = withheldDialog(p, r.Dialog, r.Tab.URL)
			r.Text = frames.DialogSnapshotText(r.Tab, r.Dialog)
			r.Tokens = frames.Tokens(r.Text)
		}
	case *protocol.DialogResult:
		if r != nil && r.Dialog != nil {
			r.Dialog = withheldDialog(p, r.Dialog, r.Tab.URL)
		}
	case protocol.TabsResult:
		shown := map[int]string{} // each tab's URL as listed ("" when withheld)
		for _, t := range r.Tabs {
			shown[t.ID] = t.URL
		}
		for i, t := range r.Tabs {
			if !t.Blocked && !t.Others && policy.Inherits(t.URL) {
				// A blank page takes the origin of the document that
				// opened it (host/openers.go).
				if d, ok := openerRule(p, t, shown); ok && d.Rule == policy.Block {
					r.Tabs[i].URL, r.Tabs[i].Title, r.Tabs[i].Blocked = "", "", true
				}
			}
			r.Tabs[i].OpenedBy = nil // the host's to judge by, never an agent's
			t = r.Tabs[i]
			if t.Dialog == nil {
				continue
			}
			if t.Blocked {
				r.Tabs[i].Dialog = nil // a blocked tab shows nothing of itself
				continue
			}
			r.Tabs[i].Dialog = withheldDialog(p, t.Dialog, t.URL)
		}
	}
	return res, err
}

// withheldDialog is d as agents may see it: without its URL, and without
// its message when the frame that opened it — or, for a frame with no
// origin of its own, the tab's page at tabURL — is blocked. A dialog
// whose frame is unknown and whose tab's page is unknown is withheld.
func withheldDialog(p *policy.Policy, d *protocol.Dialog, tabURL string) *protocol.Dialog {
	out := *d
	out.URL = ""
	if dialogRule(p, d, tabURL).Rule == policy.Block {
		out.Message, out.DefaultPrompt, out.Withheld = "", "", true
	}
	return &out
}

// dialogRule is the rule of the frame that opened d: its own origin's, or
// for about:blank and the like the stricter of the tab's page and the
// default; with neither known, block.
func dialogRule(p *policy.Policy, d *protocol.Dialog, tabURL string) policy.Decision {
	if !policy.Inherits(d.URL) {
		return p.Decide(d.URL)
	}
	if tabURL == "" {
		return policy.Decision{Rule: policy.Block, Builtin: "grip's built-in rule: a dialog whose frame is unknown is judged blocked"}
	}
	return p.Decide(tabURL)
}

// dialogDecision is the rule of the dialog tab shows, by the frame that
// opened it: answering a blocked frame's confirm() is refused even in an
// allowed page. ok is false when the tab shows none.
func (h *Host) dialogDecision(ctx context.Context, p *policy.Policy, tab int, tr *tabRules) (policy.Decision, bool) {
	var rep protocol.DialogReply
	if err := callExt(ctx, h, protocol.ExtDialog, protocol.DialogParams{TabID: tab, Action: protocol.DialogShow}, &rep); err != nil || rep.Dialog == nil {
		return policy.Decision{}, false
	}
	if policy.Inherits(rep.Dialog.URL) && tr != nil {
		return tr.strictest(), true // a blank frame's: the strictest of the tab
	}
	return dialogRule(p, rep.Dialog, ""), true
}

// checkWaitEnd judges a wait again when it ends, met or not: a tab that
// went to a blocked site, or (for text) took in a blocked frame, is
// refused, so neither the detail nor met/not met tells of it.
func (h *Host) checkWaitEnd(ctx context.Context, tab int, args protocol.WaitArgs) error {
	if h.person == nil {
		return nil
	}
	p := h.person.policy.Current()
	if p.Trivial() {
		// Every site is open: a page can go to no blocked one (pages
		// cannot open file:// or extension pages), and frames of
		// extension pages are out of a text wait's reach.
		return nil
	}
	tr, err := h.frameRules(ctx, p, tab)
	if err != nil {
		return nil // the tab closed: nothing of it is told
	}
	if tr.top.Rule == policy.Block {
		return h.refuseBlocked(fmt.Sprintf("tab %d", tab), tr.top)
	}
	if args.Text != "" || args.TextGone != "" {
		if id, d, ok := tr.blockedFrameFor(readProbe); ok {
			return protocol.Errorf(protocol.CodePolicy, protocol.BoundaryPolicy,
				"take a snapshot instead: it leaves the blocked frame out",
				"waiting for text in tab %d would look into its frame %d, which is blocked: %s of %s", tab, id, d.Why(), h.person.policy.File())
		}
	}
	return nil
}

// checkScreenshotStart refuses, while the person has paused agents, a
// screenshot that would bring a tab to the front: the worker captures
// the visible tab, so a tab behind another is made active first.
func (h *Host) checkScreenshotStart(ctx context.Context, tab int) error {
	if h.person == nil || !h.person.isPaused() {
		return nil
	}
	active, err := h.resolveTab(ctx, 0)
	if err != nil || active != tab {
		return protocol.Errorf(protocol.CodePaused, protocol.BoundaryUser,
			"take a snapshot: it changes nothing on screen; or wait until the pause is lifted ("+h.person.lift+")",
			"%s: a screenshot of tab %d would bring it to the front", h.pausedWho(ctx), tab)
	}
	return nil
}

// judgeBlankTop judges a tab whose page has no origin of its own
// (about:blank, a popup a page opened and wrote into) by the document that
// opened it, as it was when it did (host/openers.go), failing to the
// stricter rule: such a document has its opener's origin, so a blank
// window a blocked bank page — or a blocked frame inside an allowed page —
// wrote is the bank's, also once the opener moved on or closed. A tab
// opened by a page grip cannot judge is blocked; one nothing opened (the
// person's new tab) keeps the default.
func (h *Host) judgeBlankTop(ctx context.Context, p *policy.Policy, tab int, infos []protocol.FrameInfo, tr *tabRules) {
	if len(infos) == 0 {
		return // also under a trivial policy: an opener of a built-in rule (file://) blocks
	}
	top := -1
	for i, f := range infos {
		if f.FrameID == 0 {
			top = i
		}
	}
	if top < 0 || !policy.Inherits(infos[top].URL) {
		return
	}
	var res protocol.TabsResult
	if err := callExt(ctx, h, protocol.ExtTabs, protocol.TabsParams{}, &res); err != nil {
		return
	}
	var self *protocol.Tab
	urls := map[int]string{}
	for i, t := range res.Tabs {
		urls[t.ID] = t.URL
		if t.ID == tab {
			self = &res.Tabs[i]
		}
	}
	if self == nil {
		return
	}
	d, opened := openerRule(p, *self, urls) // host/openers.go
	if !opened || d.Rule <= tr.top.Rule {
		return
	}
	tr.top = d
	for id := range tr.byFrame {
		if tr.origins[id] == "" && tr.byFrame[id].Rule < d.Rule {
			tr.byFrame[id] = d // frames that take the blank page's origin
		}
	}
}

// blockedFrameFor is a blocked frame a read of kind would look into: for
// a screenshot any; for text, none of the extension pages the built-in
// rule blocks (a password manager's inline frame), which no page script
// of grip's can read, so that a page with one stays open to text waits.
func (tr *tabRules) blockedFrameFor(kind readKind) (int, policy.Decision, bool) {
	best := -1
	for id, d := range tr.byFrame {
		if d.Rule != policy.Block || kind == readProbe && d.Builtin == policy.BuiltinExtensionPages {
			continue
		}
		if best < 0 || id < best {
			best = id
		}
	}
	if best < 0 {
		return 0, policy.Decision{}, false
	}
	return best, tr.byFrame[best], true
}
