package host

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/locator"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/refcache"
)

// The read handlers (snapshot, status, screenshot) and the tab a request
// names.

// resolveTab returns tab, or the active tab when tab is 0.
func (h *Host) resolveTab(ctx context.Context, tab int) (int, error) {
	if tab > 0 {
		return tab, nil
	}
	var res protocol.TabsResult
	if err := callExt(ctx, h, protocol.ExtTabs, protocol.TabsParams{Active: true}, &res); err != nil {
		return 0, err
	}
	if len(res.Tabs) == 0 {
		return 0, protocol.Errorf(protocol.CodeNoBrowser, protocol.BoundaryBrowser,
			"open a tab, or name one with --tab (grip tabs lists them)", "the browser has no active tab")
	}
	return res.Tabs[0].ID, nil
}

// lockTab resolves tab (0: the active tab) and waits for its turn; the
// caller runs the operation, then calls unlock.
func (h *Host) lockTab(ctx context.Context, tab int) (resolved int, unlock func(), err error) {
	if resolved, err = h.resolveTab(ctx, tab); err != nil {
		return 0, nil, err
	}
	if unlock, err = h.tabs.lock(ctx, resolved); err != nil {
		return 0, nil, err
	}
	return resolved, unlock, nil
}

func (h *Host) snapshot(ctx context.Context, args protocol.SnapshotArgs) (*protocol.Snapshot, error) {
	mode := args.Mode
	if mode == "" {
		mode = protocol.ModeInteractive
	}
	if mode != protocol.ModeInteractive && mode != protocol.ModeContent {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"use --mode interactive or --mode content", "unknown mode %q", mode)
	}
	if args.Budget < 0 {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "give a positive --budget", "budget %d", args.Budget)
	}
	if args.After != "" {
		if _, err := locator.Parse(args.After); err != nil {
			return nil, err
		}
	}
	tab, unlock, err := h.lockTab(ctx, args.Tab)
	if err != nil {
		return nil, err
	}
	defer unlock()
	var timings *protocol.SnapshotTimings
	if args.Timings {
		timings = &protocol.SnapshotTimings{}
	}
	raw, results, _, err := h.readTab(ctx, tab, mode, false, false, timings)
	if err != nil {
		if d := openDialog(err); d != nil {
			return h.dialogSnapshot(tab, d), nil
		}
		return nil, err
	}
	lap := stopwatch(timings != nil)
	// The trailer names the tab it read, whether the request named it or
	// left it to the default: the default may be another tab by the time
	// the agent reads on (docs/snapshot.md, "Snapshot format").
	snap, err := h.render(tab, raw.Tab, results, frames.Options{Budget: args.Budget, After: args.After, ReadOn: readOnArgs(mode, args.Budget, tab), Since: args.Since})
	if err != nil {
		return nil, h.afterElsewhere(tab, mode, args, err)
	}
	h.snapshotEffects(ctx, tab, snap)
	if raw.Loading && snap.Dialog == nil {
		snap.Loading = true
		if snap.Text != "" && !strings.HasSuffix(snap.Text, "\n") {
			snap.Text += "\n"
		}
		snap.Text += frames.LoadingLine(snap.Tab.URL)
	}
	if timings != nil {
		timings.Render = lap()
		snap.Timings = timings
	}
	if args.TextOnly {
		snap.Frames = nil
	}
	return snap, nil
}

// afterElsewhere is err, a snapshot's refusal of an --after ref it does
// not list, saying where that ref is: gone (stale), of another tab, or an
// element of this page listed in the other mode — a content-mode trailer
// read on in interactive mode (the default) lists no heading or text —
// with the call that reads on from it.
func (h *Host) afterElsewhere(tab int, mode string, args protocol.SnapshotArgs, err error) error {
	loc, lerr := locator.Parse(args.After)
	if lerr != nil || loc.Ref == 0 || protocol.AsError(err).Hint != frames.AfterHint {
		return err
	}
	name := refcache.FormatRef(loc.Ref)
	budget := args.Budget
	if budget == protocol.DefaultBudget {
		budget = 0
	}
	e, rerr := h.refs.Resolve(loc.Ref)
	switch {
	case rerr != nil:
		pe := *protocol.AsError(rerr)
		pe.Message = "reading on after " + pe.Message
		return &pe
	case e.Tab != tab:
		return protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			fmt.Sprintf("read on in its tab (grip snapshot --after %s%s)", name, readOnArgs(mode, budget, e.Tab)),
			"reading on after %s: it is a ref of tab %d, not of tab %d", name, e.Tab, tab)
	}
	other := protocol.ModeContent
	if mode == protocol.ModeContent {
		other = protocol.ModeInteractive
	}
	return protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
		fmt.Sprintf("read on in the mode the trailer named (grip snapshot --after %s%s)", name, readOnArgs(other, budget, tab)),
		"reading on after %s: it is in the %s listing of this page, not the %s one", name, other, mode)
}

// render merges a read's frames and renders them as the agent sees them,
// stamped with the tab's epoch, and keeps its figures for status.
func (h *Host) render(tab int, ref protocol.TabRef, results []frames.FrameResult, opt frames.Options) (*protocol.Snapshot, error) {
	answered, skipped := frames.Merge(results)
	snap, err := frames.Render(ref, answered, skipped, opt)
	if err != nil {
		return nil, err
	}
	snap.Epoch = h.tabs.current(tab)
	elements := 0
	for _, f := range answered {
		elements += len(f.Elements)
	}
	h.mu.Lock()
	h.lastSnap = &protocol.SnapshotInfo{Tab: tab, FramesAnswered: len(answered), FramesSkipped: len(skipped),
		Elements: elements, Tokens: snap.Tokens, Budget: snap.Budget, Omitted: snap.Omitted}
	h.mu.Unlock()
	return &snap, nil
}

func (h *Host) status() protocol.Status {
	live, inactive, next := h.refs.Stats()
	st := protocol.Status{Host: h.info, LiveRefs: live, InactiveRefs: inactive, NextRef: next}
	if err := h.refs.LoadError(); err != nil {
		st.LedgerError = err.Error()
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.lastSnap != nil {
		s := *h.lastSnap
		st.LastSnapshot = &s
	}
	st.LastErrors = append([]string(nil), h.lastErrs...)
	h.person.fillStatus(&st)
	return st
}

func (h *Host) screenshot(ctx context.Context, args protocol.ScreenshotArgs) (*protocol.ScreenshotResult, error) {
	tab, unlock, err := h.lockTab(ctx, args.Tab)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := h.checkScreenshotStart(ctx, tab); err != nil { // host/withhold.go
		return nil, err
	}
	var res protocol.ScreenshotReply
	if err := callExt(ctx, h, protocol.ExtScreenshot, protocol.TabParams{TabID: tab}, &res); err != nil {
		return nil, err
	}
	png, err := base64.StdEncoding.DecodeString(res.Data)
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeInternal, protocol.BoundaryBrowser, "", "screenshot is not base64: %v", err)
	}
	// The page may have gone to a blocked site, or taken in a blocked
	// frame, after the gate's check: the gate judges it again on the
	// result (host/gate.go gateAfter).
	return &protocol.ScreenshotResult{Tab: res.Tab, PNG: png}, nil
}
