package host

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"strings"
	"sync"

	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/locator"
	"github.com/grip-dev/grip/protocol"
)

// callExt is port.call with the host's deadline.
func (h *Host) callExt(ctx context.Context, typ string, params, result any) error {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	return h.port.call(ctx, typ, params, result)
}

// resolveTab returns tab, or the active tab when tab is 0.
func (h *Host) resolveTab(ctx context.Context, tab int) (int, error) {
	if tab > 0 {
		return tab, nil
	}
	var res protocol.TabsResult
	if err := h.callExt(ctx, protocol.ExtTabs, protocol.TabsParams{Active: true}, &res); err != nil {
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
	// The trailer names the tab when the request did: a default tab may
	// be another by the time the agent reads on.
	readOnTab := 0
	if args.Tab != 0 {
		readOnTab = tab
	}
	snap, err := h.render(tab, raw.Tab, results, frames.Options{Budget: args.Budget, After: args.After, ReadOn: readOnArgs(mode, args.Budget, readOnTab), Since: args.Since})
	if err != nil {
		return nil, err
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
	if err := h.callExt(ctx, protocol.ExtScreenshot, protocol.TabParams{TabID: tab}, &res); err != nil {
		return nil, err
	}
	png, err := base64.StdEncoding.DecodeString(res.Data)
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeInternal, protocol.BoundaryBrowser, "", "screenshot is not base64: %v", err)
	}
	// The page may have gone to a blocked site, or taken in a blocked
	// frame, after the gate's check.
	if err := h.checkScreenshotEnd(ctx, tab, res.Tab); err != nil {
		return nil, err
	}
	return &protocol.ScreenshotResult{Tab: res.Tab, PNG: png}, nil
}

// onEvent reacts to the extension's notices: a committed navigation or a
// closed tab makes refs of the documents that are gone stale at once.
func (h *Host) onEvent(ctx context.Context, params json.RawMessage) {
	var ev protocol.Event
	if err := json.Unmarshal(params, &ev); err != nil {
		h.log.Warn("bad event from the extension", "err", err)
		return
	}
	switch ev.Kind {
	case protocol.EventTabRemoved:
		h.refs.InvalidateTab(ev.TabID)
		h.tabs.forget(ev.TabID)
		h.person.tabGone(ev.TabID)
		h.openers.tabRemoved(ev.TabID)
	case protocol.EventTabOpened:
		h.openers.tabOpened(ev.TabID, ev.Opener, ev.URL)
		h.person.openedBy(ev.TabID, ev.Opener)
	case protocol.EventNavigated:
		if ev.FrameID == 0 {
			h.tabs.observe(ev.TabID, ev.DocumentID)
		}
		h.docRefresh.trigger(func() { h.refreshLiveDocuments(ctx) })
	}
}

// coalescer runs a job at most once at a time: a trigger while it runs
// asks for one more run after it, however many triggers came. A page that
// reloads an iframe in a loop thus costs one listing of the browser's
// documents at a time, not one per navigation.
type coalescer struct {
	mu      sync.Mutex
	running bool // a run is in progress; guarded by mu
	again   bool // triggered during the run; guarded by mu
}

func (c *coalescer) trigger(run func()) {
	c.mu.Lock()
	if c.running {
		c.again = true
		c.mu.Unlock()
		return
	}
	c.running = true
	c.mu.Unlock()
	go func() {
		for {
			run()
			c.mu.Lock()
			if !c.again {
				c.running = false
				c.mu.Unlock()
				return
			}
			c.again = false
			c.mu.Unlock()
		}
	}()
}

// refreshLiveDocuments asks the extension which documents are alive and
// makes every ref of any other document stale.
func (h *Host) refreshLiveDocuments(ctx context.Context) {
	var res protocol.DocumentsReply
	if err := h.callExt(ctx, protocol.ExtDocuments, nil, &res); err != nil {
		h.log.Warn("could not list live documents", "err", err)
		return
	}
	live := make(map[string]bool, len(res.Documents))
	for _, d := range res.Documents {
		live[d.DocumentID] = true
	}
	h.refs.InvalidateDocuments(live)
}

// onExtensionRequest answers the extension's own requests (the popup's
// status and "Snapshot this tab").
func (h *Host) onExtensionRequest(ctx context.Context, msg protocol.NativeMessage) {
	var res any
	var err error
	switch msg.Type {
	case protocol.HostStatus:
		res = h.status()
	case protocol.HostSnapshot:
		var args protocol.SnapshotArgs
		if jerr := json.Unmarshal(msg.Params, &args); jerr != nil {
			err = protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "", "%v", jerr)
			break
		}
		res, err = h.snapshot(asPerson(ctx), args)
	default:
		res, err = h.personRequest(ctx, msg) // the popup's switches: host/person.go
	}
	reply := protocol.NativeMessage{ID: msg.ID, Type: protocol.MsgReply}
	if err != nil {
		reply.Error = protocol.AsError(err)
	} else {
		reply.Result = mustJSON(res)
	}
	if serr := h.port.send(reply); serr != nil {
		h.log.Warn("could not answer the extension", "err", serr)
	}
}
