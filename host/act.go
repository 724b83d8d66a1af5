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

// elementActions need a target element; the others act on a tab.
var elementActions = map[string]bool{
	protocol.ActClick: true, protocol.ActDblClick: true, protocol.ActHover: true, protocol.ActFocus: true,
	protocol.ActType: true, protocol.ActFill: true, protocol.ActSelect: true, protocol.ActCheck: true,
	protocol.ActUncheck: true,
}

// optionalTarget actions take an element or act on the page.
var optionalTarget = map[string]bool{protocol.ActPress: true, protocol.ActScroll: true}

// tabActions act on a whole tab through the extension.
var tabActions = map[string]string{
	protocol.ActNavigate: "navigate", protocol.ActBack: "back", protocol.ActForward: "forward",
	protocol.ActReload: "reload", protocol.ActTabNew: "tab_new", protocol.ActTabClose: "tab_close",
	protocol.ActTabSelect: "tab_select",
}

// actTarget is where an element action lands, decided at the host before
// anything reaches the browser.
type actTarget struct {
	tab   int
	ref   string
	entry *refcache.Entry
	chain []string
}

func (h *Host) act(ctx context.Context, args protocol.ActArgs) (*protocol.ActionResult, error) {
	if ext, ok := tabActions[args.Action]; ok {
		return h.tabAction(ctx, ext, args)
	}
	if !elementActions[args.Action] && !optionalTarget[args.Action] {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"see grip --help for the actions", "unknown action %q", args.Action)
	}
	if args.Target == "" && elementActions[args.Action] {
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
	params := map[string]any{
		"tabId": tab, "action": args.Action, "text": args.Text, "key": key, "modifiers": modifiers,
		"trusted": args.Trusted && trustedCapable(args.Action),
	}
	if t.entry != nil {
		params["documentId"] = t.entry.Key.DocumentID
		params["frameId"] = t.entry.Key.FrameID
		params["localId"] = t.entry.Key.LocalID
	} else if len(t.chain) > 0 {
		params["chain"] = t.chain
	}
	var res struct {
		OK     bool   `json:"ok"`
		Detail string `json:"detail"`
		Point  *struct {
			X float64 `json:"x"`
			Y float64 `json:"y"`
		} `json:"point"`
	}
	if err := h.callExt(ctx, "act", params, &res); err != nil {
		return nil, h.refineActError(err, t)
	}
	if params["trusted"] == true {
		if res.Point == nil {
			return nil, protocol.Errorf(protocol.CodeInternal, protocol.BoundaryBrowser, "", "the page gave no action point for trusted input")
		}
		cmds, err := trustedCommands(args.Action, res.Point.X, res.Point.Y, args.Text, key, modifiers)
		if err != nil {
			return nil, err
		}
		if err := h.callExt(ctx, "cdp", map[string]any{"tabId": tab, "commands": cmds}, nil); err != nil {
			return nil, err
		}
	}
	return h.afterAction(ctx, tab, res.Detail, args)
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
func (h *Host) tabAction(ctx context.Context, ext string, args protocol.ActArgs) (*protocol.ActionResult, error) {
	if (ext == "navigate") && args.Text == "" {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "give a URL", "navigate needs a URL")
	}
	if ext == "tab_new" {
		var info protocol.Tab
		if err := h.callExt(ctx, ext, map[string]any{"url": args.Text}, &info); err != nil {
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
	var info protocol.TabRef
	if err := h.callExt(ctx, ext, map[string]any{"tabId": tab, "url": args.Text}, &info); err != nil {
		return nil, err
	}
	if ext == "tab_close" {
		h.refs.InvalidateTab(tab)
		gone := h.tabs.forget(tab)
		return &protocol.ActionResult{OK: true, Tab: info, Detail: fmt.Sprintf("closed tab %d", tab),
			Changes: protocol.Changes{Added: []string{}, Gone: formatRefs(gone)}}, nil
	}
	return h.afterAction(ctx, tab, "", args)
}

// afterAction reads the tab again so the reply can say what changed (refs
// added and gone, url, title), and includes the snapshot when asked. A
// page in the middle of navigating may not answer at once; we retry a few
// times and otherwise report the action without changes.
func (h *Host) afterAction(ctx context.Context, tab int, detail string, args protocol.ActArgs) (*protocol.ActionResult, error) {
	res := &protocol.ActionResult{OK: true, Detail: detail, Changes: protocol.Changes{Added: []string{}, Gone: []string{}}}
	mode := args.Mode
	if mode == "" {
		mode = protocol.ModeInteractive
	}
	for attempt := 0; attempt < 4; attempt++ {
		if attempt > 0 {
			select {
			case <-time.After(time.Duration(attempt) * 250 * time.Millisecond):
			case <-ctx.Done():
				return res, nil
			}
		}
		raw, results, diff, err := h.readTab(ctx, tab, mode, !args.Snapshot)
		if err != nil {
			if protocol.AsError(err).Code == protocol.CodeTimeout {
				break // a page blocked (e.g. by a dialog) will not answer a retry either
			}
			continue
		}
		res.Tab = raw.Tab
		res.Changes = protocol.Changes{URL: raw.Tab.URL, Title: raw.Tab.Title, Added: formatRefs(diff.Added), Gone: formatRefs(diff.Gone)}
		if args.Snapshot {
			answered, skipped := frames.Merge(results)
			snap, err := frames.Render(raw.Tab, answered, skipped, frames.Options{Budget: args.Budget})
			if err == nil {
				snap.Epoch = h.tabs.current(tab)
				res.Snapshot = &snap
			}
		}
		return res, nil
	}
	var info protocol.TabRef
	if err := h.callExt(ctx, "tab_info", map[string]any{"tabId": tab}, &info); err == nil {
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

// trustedCapable says which actions have a real-input form; the others
// (focus, select, scroll) stay synthetic even in trusted mode.
func trustedCapable(action string) bool {
	switch action {
	case protocol.ActClick, protocol.ActDblClick, protocol.ActHover, protocol.ActType, protocol.ActFill,
		protocol.ActCheck, protocol.ActUncheck, protocol.ActPress:
		return true
	}
	return false
}

// cdpCommand is one Chrome DevTools Protocol call the extension passes to
// chrome.debugger.sendCommand.
type cdpCommand struct {
	Method string `json:"method"`
	Params any    `json:"params"`
}

// trustedCommands builds real mouse and keyboard input at the point the
// page-side checks computed, with cdproto's types.
func trustedCommands(action string, x, y float64, text, key string, modifiers []string) ([]cdpCommand, error) {
	mouse := func(t input.DispatchMouseEventType, clicks int64) cdpCommand {
		p := input.DispatchMouseEventParams{Type: t, X: x, Y: y}
		if t != input.DispatchMouseEventTypeMouseMoved {
			p.Button = input.MouseButtonLeft
			p.ClickCount = clicks
			if t == input.DispatchMouseEventTypeMousePressed {
				p.Buttons = 1
			}
		}
		return cdpCommand{Method: input.CommandDispatchMouseEvent, Params: p}
	}
	click := func(n int64) []cdpCommand {
		return []cdpCommand{mouse(input.DispatchMouseEventTypeMousePressed, n), mouse(input.DispatchMouseEventTypeMouseReleased, n)}
	}
	move := mouse(input.DispatchMouseEventTypeMouseMoved, 0)
	switch action {
	case protocol.ActHover:
		return []cdpCommand{move}, nil
	case protocol.ActClick, protocol.ActCheck, protocol.ActUncheck:
		return append([]cdpCommand{move}, click(1)...), nil
	case protocol.ActDblClick:
		return append(append([]cdpCommand{move}, click(1)...), click(2)...), nil
	case protocol.ActType, protocol.ActFill:
		return []cdpCommand{{Method: input.CommandInsertText, Params: input.InsertTextParams{Text: text}}}, nil
	case protocol.ActPress:
		return keyCommands(key, modifiers), nil
	}
	return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "", "no trusted form of %s", action)
}
