package host

import (
	"context"
	"fmt"
	"time"

	"github.com/grip-dev/grip/actlog"
	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
)

// Resize sets the size of the window a tab is in (docs/window-size.md,
// "Window size"): a page laid out for a phone hides what a desktop shows
// (a header's search box behind a menu). It changes the person's screen,
// so it is allowed only in a browser grip launched, or for a window every
// tab of which is the session's own; a window that holds any tab of the
// person's, or of another session, is never resized. It is refused while
// agents are paused, and recorded like an action.
func (h *Host) Resize(ctx context.Context, args protocol.ResizeArgs) (*protocol.ResizeResult, error) {
	if args.Width < protocol.MinWindowWidth || args.Width > protocol.MaxWindowWidth ||
		args.Height < protocol.MinWindowHeight || args.Height > protocol.MaxWindowHeight {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			fmt.Sprintf("give a width of %d to %d and a height of %d to %d CSS pixels, e.g. grip resize 1280 800",
				protocol.MinWindowWidth, protocol.MaxWindowWidth, protocol.MinWindowHeight, protocol.MaxWindowHeight),
			"window size %dx%d", args.Width, args.Height)
	}
	u := h.person
	if u == nil {
		return nil, protocol.Errorf(protocol.CodePolicy, protocol.BoundaryPolicy, "", "this host has no policy that could allow a resize")
	}
	rec := actlog.Entry{Time: time.Now(), Action: protocol.OpResize, Tab: args.Tab, Client: clientOf(ctx), Session: sessionOf(ctx),
		Detail: fmt.Sprintf("to %dx%d", args.Width, args.Height)}
	res, err := h.resize(ctx, args, &rec)
	rec.Outcome = outcomeOf(ctx, err)
	u.record(rec)
	return res, err
}

func (h *Host) resize(ctx context.Context, args protocol.ResizeArgs, rec *actlog.Entry) (*protocol.ResizeResult, error) {
	u := h.person
	if u.isPaused() {
		return nil, h.errPaused(ctx)
	}
	tab, err := h.agentTab(ctx, u.policy.Current(), args.Tab) // not_your_tab for another session's
	if err != nil {
		return nil, err
	}
	rec.Tab = tab
	tab, unlock, err := h.lockTab(ctx, tab)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := h.mayResize(ctx, tab); err != nil {
		return nil, err
	}
	var rep protocol.ResizeReply
	if err := callExt(ctx, h, protocol.ExtResize, protocol.ResizeParams{TabID: tab, Width: args.Width, Height: args.Height}, &rep); err != nil {
		return nil, err
	}
	var info protocol.TabRef
	if err := callExt(ctx, h, protocol.ExtTabInfo, protocol.TabParams{TabID: tab}, &info); err != nil {
		info = protocol.TabRef{ID: tab}
	}
	if p := h.person.policy.Current(); p.Decide(info.URL).Rule == policy.Block {
		info.URL, info.Title = "", ""
	}
	return &protocol.ResizeResult{Tab: info, WindowID: rep.WindowID, Width: rep.Width, Height: rep.Height,
		ViewportWidth: rep.ViewportWidth, ViewportHeight: rep.ViewportHeight}, nil
}

// mayResize refuses a resize of the window tab is in unless grip launched
// the browser or every tab in that window is this session's own.
func (h *Host) mayResize(ctx context.Context, tab int) error {
	if h.info.Launched != nil {
		return nil
	}
	var res protocol.TabsResult
	if err := callExt(ctx, h, protocol.ExtTabs, protocol.TabsParams{}, &res); err != nil {
		return err
	}
	window := -1
	for _, t := range res.Tabs {
		if t.ID == tab {
			window = t.WindowID
		}
	}
	s := sessionOf(ctx)
	for _, t := range res.Tabs {
		if t.WindowID == window && h.person.ownerOf(t.ID) != s {
			return protocol.Errorf(protocol.CodePolicy, protocol.BoundaryPolicy,
				"grip resizes only the windows of a browser grip launch started (grip launch --window-size W,H) or a window that holds only this session's tabs; ask the person to resize their window",
				"tab %d is in a window of the person's: grip never resizes the person's own windows", tab)
		}
	}
	return nil
}
