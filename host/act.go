package host

import (
	"context"
	"fmt"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/locator"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/refcache"
)

// actTarget is where an element action lands, decided at the host before
// anything reaches the browser.
type actTarget struct {
	tab   int
	ref   string
	entry *refcache.Entry
	chain []string
}

func (h *Host) act(ctx context.Context, args protocol.ActArgs) (*protocol.ActionResult, error) {
	spec, ok := protocol.LookupAction(args.Action)
	if !ok {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"see grip --help for the actions", "unknown action %q", args.Action)
	}
	if !spec.InPage() {
		return h.tabAction(ctx, spec, args)
	}
	if args.Target == "" && spec.Target == protocol.TargetRequired {
		return nil, protocol.Errorf(protocol.CodeInvalidLocator, protocol.BoundaryPayload,
			"name the element with a ref from a snapshot, e.g. @e3", "%s needs a target element", args.Action)
	}
	var key string
	var modifiers []string
	if args.Action == protocol.ActPress {
		var err error
		if key, modifiers, err = parseKey(args.Text); err != nil {
			return nil, err
		}
	}
	// An upload's files are read now: one missing or unreadable is refused
	// before anything reaches the browser.
	var up *upload
	if spec.Files {
		var err error
		if up, err = h.readUpload(args.Files); err != nil {
			return nil, err
		}
	} else if len(args.Files) > 0 {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "", "%s takes no files", args.Action)
	}
	// Refuse a bad locator or an unknown/stale ref here, before the browser.
	t := actTarget{tab: args.Tab}
	if args.Target != "" {
		loc, err := locator.Parse(args.Target)
		if err != nil {
			return nil, err
		}
		if loc.Ref != 0 {
			e, err := h.refs.Resolve(loc.Ref)
			if err != nil {
				return nil, err
			}
			if args.Tab != 0 && args.Tab != e.Tab {
				return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
					"leave out --tab when acting on a ref", "%s belongs to tab %d, not tab %d", args.Target, e.Tab, args.Tab)
			}
			t.tab, t.ref, t.entry = e.Tab, args.Target, &e
		} else {
			t.chain = loc.Chain
		}
	}
	drop, err := h.resolveDrop(spec, args, t)
	if err != nil {
		return nil, err
	}
	tab, unlock, err := h.lockTab(ctx, t.tab)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := h.checkEpoch(tab, args.Epoch); err != nil {
		return nil, err
	}
	if t.entry != nil {
		// The ref may have gone stale while we waited for the tab.
		if _, err := h.refs.Resolve(t.entry.Ref); err != nil {
			return nil, err
		}
	}
	params := protocol.ActParams{
		TabID: tab, Action: args.Action, Text: args.Text, Key: key, Modifiers: modifiers,
		Trusted: args.Trusted && spec.Trusted,
	}
	if t.entry != nil {
		params.DocumentID, params.FrameID, params.LocalID = t.entry.Key.DocumentID, t.entry.Key.FrameID, t.entry.Key.LocalID
	} else if len(t.chain) > 0 {
		params.Chain = t.chain
	}
	if err := drop.fill(h, &params); err != nil {
		return nil, err
	}
	if up != nil {
		if err := h.sendUpload(ctx, up); err != nil {
			return nil, err
		}
		params.Upload = &up.spec
	}
	var res protocol.ActReply
	if err := h.callAct(ctx, params, up, &res); err != nil {
		return nil, h.refineActError(err, t)
	}
	effects := res.ActEffects
	if params.Trusted {
		fx, err := h.trustedInput(ctx, tab, args, res, key, modifiers)
		if err != nil {
			return nil, h.refineActError(err, t)
		}
		effects = fx
	}
	return h.finishAction(ctx, tab, res.Detail, args, effects)
}

// refineActError names the ref in the page's refusal, so the agent sees
// which of its handles failed.
func (h *Host) refineActError(err error, t actTarget) error {
	perr := protocol.AsError(err)
	if t.ref == "" {
		return perr
	}
	c := *perr
	c.Message = t.ref + ": " + c.Message
	if c.Hint == "" && (c.Code == protocol.CodeStaleRef || c.Code == protocol.CodeMeaningChanged || c.Code == protocol.CodeDocumentChanged) {
		c.Hint = "take a new snapshot with grip snapshot and use the ref it gives"
	}
	return &c
}

func (h *Host) checkEpoch(tab int, epoch uint64) error {
	if epoch == 0 {
		return nil
	}
	if cur := h.tabs.current(tab); cur > epoch {
		return protocol.Errorf(protocol.CodeEpochSuperseded, protocol.BoundaryTask,
			"take a new snapshot and act on what it shows", "epoch %d is older than tab %d's current epoch %d (the page changed)", epoch, tab, cur)
	}
	return nil
}

// tabAction runs navigate/back/forward/reload and the tab operations.
func (h *Host) tabAction(ctx context.Context, spec protocol.Action, args protocol.ActArgs) (*protocol.ActionResult, error) {
	if spec.Ext == protocol.ExtDialog {
		return h.answerDialog(ctx, spec, args)
	}
	if spec.Name == protocol.ActNavigate && args.Text == "" {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "give a URL", "navigate needs a URL")
	}
	if spec.Name == protocol.ActTabNew {
		var info protocol.Tab
		if err := h.callExt(ctx, spec.Ext, protocol.TabParams{URL: args.Text}, &info); err != nil {
			return nil, err
		}
		unlock, err := h.tabs.lock(ctx, info.ID)
		if err != nil {
			return nil, err
		}
		defer unlock()
		return h.afterAction(ctx, info.ID, fmt.Sprintf("opened tab %d", info.ID), args)
	}
	tab, unlock, err := h.lockTab(ctx, args.Tab)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := h.checkEpoch(tab, args.Epoch); err != nil {
		return nil, err
	}
	var info tabReply
	if err := h.callExt(ctx, spec.Ext, protocol.TabParams{TabID: tab, URL: args.Text}, &info); err != nil {
		return nil, err
	}
	if info.Dialog != nil {
		// The page asks before it lets go (beforeunload): nothing happens
		// until the dialog is answered.
		return h.finishAction(ctx, tab, "", args, protocol.ActEffects{Dialog: info.Dialog})
	}
	if spec.Name == protocol.ActTabClose {
		h.refs.InvalidateTab(tab)
		gone := h.tabs.forget(tab)
		return &protocol.ActionResult{OK: true, Tab: info.TabRef, Detail: fmt.Sprintf("closed tab %d", tab),
			Changes: protocol.Changes{Added: []string{}, Gone: formatRefs(gone)}}, nil
	}
	return h.finishAction(ctx, tab, "", args, protocol.ActEffects{})
}

// tabReply is what the extension answers a tab operation: the tab, and the
// dialog that stopped it (a page that asks before it is left).
type tabReply struct {
	protocol.TabRef
	Dialog *protocol.Dialog `json:"dialog,omitempty"`
}

// afterAction reads the tab again so the reply can say what changed (refs
// added and gone, url, title), and includes the snapshot when asked. A
// page in the middle of navigating may not answer at once; we retry a few
// times and otherwise report the action without changes.
func (h *Host) afterAction(ctx context.Context, tab int, detail string, args protocol.ActArgs) (*protocol.ActionResult, error) {
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
		raw, results, diff, err := h.readTab(ctx, tab, mode, !args.Snapshot, nil)
		if err != nil {
			if d := openDialog(err); d != nil {
				// The page is stopped behind a dialog: the reply names it.
				res.Tab, res.Dialog = d.tab, d.dialog
				res.Changes.URL, res.Changes.Title = d.tab.URL, d.tab.Title
				return res, nil
			}
			if protocol.AsError(err).Code == protocol.CodeTimeout {
				break // a page blocked (e.g. by a dialog) will not answer a retry either
			}
			continue
		}
		res.Tab = raw.Tab
		res.Changes = protocol.Changes{URL: raw.Tab.URL, Title: raw.Tab.Title, Added: formatRefs(diff.added), Gone: formatRefs(diff.gone)}
		res.Changes.Changed, res.Changes.Appeared, res.Changes.Omitted = frames.FitChanges(diff.changed, diff.appeared, budget)
		if args.Snapshot {
			if snap, err := h.render(tab, raw.Tab, results, frames.Options{Budget: args.Budget}); err == nil {
				res.Snapshot = snap
			}
		}
		return res, nil
	}
	var info protocol.TabRef
	if err := h.callExt(ctx, protocol.ExtTabInfo, protocol.TabParams{TabID: tab}, &info); err == nil {
		res.Tab = info
		res.Changes.URL, res.Changes.Title = info.URL, info.Title
	}
	return res, nil
}

func formatRefs(refs []uint64) []string {
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = refcache.FormatRef(r)
	}
	return out
}

// trustedCommands builds real mouse and keyboard input at the point the
// page-side checks computed, with cdproto's types.
func trustedCommands(action string, x, y float64, text, key string, modifiers []string) ([]protocol.CDPCommand, error) {
	mouse := func(t input.DispatchMouseEventType, clicks int64) protocol.CDPCommand {
		p := input.DispatchMouseEventParams{Type: t, X: x, Y: y}
		if t != input.DispatchMouseEventTypeMouseMoved {
			p.Button = input.MouseButtonLeft
			p.ClickCount = clicks
			if t == input.DispatchMouseEventTypeMousePressed {
				p.Buttons = 1
			}
		}
		return protocol.CDPCommand{Method: input.CommandDispatchMouseEvent, Params: p}
	}
	click := func(n int64) []protocol.CDPCommand {
		return []protocol.CDPCommand{mouse(input.DispatchMouseEventTypeMousePressed, n), mouse(input.DispatchMouseEventTypeMouseReleased, n)}
	}
	move := mouse(input.DispatchMouseEventTypeMouseMoved, 0)
	switch action {
	case protocol.ActHover:
		return []protocol.CDPCommand{move}, nil
	case protocol.ActClick, protocol.ActCheck, protocol.ActUncheck:
		return append([]protocol.CDPCommand{move}, click(1)...), nil
	case protocol.ActDblClick:
		return append(append([]protocol.CDPCommand{move}, click(1)...), click(2)...), nil
	case protocol.ActType, protocol.ActFill:
		if text == "" && action == protocol.ActFill {
			return keyCommands("Delete", nil), nil // the page selected everything: delete it
		}
		return []protocol.CDPCommand{{Method: input.CommandInsertText, Params: input.InsertTextParams{Text: text}}}, nil
	case protocol.ActPress:
		return keyCommands(key, modifiers), nil
	}
	return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "", "no trusted form of %s", action)
}
