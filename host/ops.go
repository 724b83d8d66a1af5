package host

import (
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/locator"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/refcache"
)

// dispatch runs one agent request.
func (h *Host) dispatch(ctx context.Context, req protocol.Request) (any, error) {
	if res, ok, err := h.serveDevtools(ctx, req); ok {
		return res, err
	}
	switch req.Op {
	case protocol.OpHello:
		return h.info, nil
	case protocol.OpStatus:
		return h.status(), nil
	case protocol.OpTabs:
		var res protocol.TabsResult
		if err := h.callExt(ctx, protocol.ExtTabs, protocol.TabsParams{}, &res); err != nil {
			return nil, err
		}
		if res.Tabs == nil {
			res.Tabs = []protocol.Tab{}
		}
		return res, nil
	case protocol.OpSnapshot:
		var args protocol.SnapshotArgs
		if err := decodeArgs(req.Args, &args); err != nil {
			return nil, err
		}
		return h.snapshot(ctx, args)
	case protocol.OpAct:
		var args protocol.ActArgs
		if err := decodeArgs(req.Args, &args); err != nil {
			return nil, err
		}
		return h.actWithDownload(ctx, args)
	case protocol.OpWait:
		var args protocol.WaitArgs
		if err := decodeArgs(req.Args, &args); err != nil {
			return nil, err
		}
		return h.wait(ctx, args)
	case protocol.OpDownloads:
		var args protocol.DownloadsArgs
		if err := decodeArgs(req.Args, &args); err != nil {
			return nil, err
		}
		return h.listDownloads(ctx, args)
	case protocol.OpScreenshot:
		var args protocol.ScreenshotArgs
		if err := decodeArgs(req.Args, &args); err != nil {
			return nil, err
		}
		return h.screenshot(ctx, args)
	case protocol.OpDialog:
		var args protocol.DialogArgs
		if err := decodeArgs(req.Args, &args); err != nil {
			return nil, err
		}
		return h.showDialog(ctx, args)
	}
	return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
		"see grip --help for the operations", "unknown operation %q", req.Op)
}

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

// readTab takes a full snapshot of a tab through the extension and records
// it in the allocator. The caller holds the tab's lock.
//
// keepSignatures asks the page to keep each element's meaning as the agent
// last saw it: set for the host's own reads after an action, whose result
// the agent does not see, so a rename it never saw still refuses.
//
// The returned diff is against the tab's previous read: the refs added and
// gone since then, whatever made them go (this read, a navigation event,
// a closed frame).
func (h *Host) readTab(ctx context.Context, tab int, mode string, keepSignatures bool, timings *protocol.SnapshotTimings) (protocol.SnapshotReply, []frames.FrameResult, viewDiff, error) {
	var raw protocol.SnapshotReply
	lap := stopwatch(timings != nil)
	var body json.RawMessage
	if err := h.callExt(ctx, protocol.ExtSnapshot, protocol.SnapshotParams{TabID: tab, Mode: mode, KeepSignatures: keepSignatures}, &body); err != nil {
		return raw, nil, viewDiff{}, err
	}
	extension := lap()
	if err := json.Unmarshal(body, &raw); err != nil {
		return raw, nil, viewDiff{}, protocol.Errorf(protocol.CodeInternal, protocol.BoundaryBrowser, "",
			"the extension's snapshot reply does not decode: %v", err)
	}
	if raw.Dialog != nil {
		// Nothing was read: the refs stay as they were.
		return raw, nil, viewDiff{}, &dialogOpen{tab: raw.Tab, dialog: raw.Dialog}
	}
	h.filterRead(ctx, tab, &raw) // the person's policy: host/guard.go
	decode := lap()
	var obs []refcache.Observed
	for _, f := range raw.Frames {
		if f.Error != "" {
			continue
		}
		for _, e := range f.Elements {
			obs = append(obs, refcache.Observed{
				Key:  refcache.Key{DocumentID: f.DocumentID, FrameID: f.FrameID, LocalID: e.ID},
				Role: e.Role, Name: e.Name,
			})
		}
	}
	refs, _ := h.refs.Replace(tab, obs)
	if withheld := countZeros(refs); withheld > 0 {
		// The ledger could not reserve numbers for new elements (a full
		// or read-only disk): refuse the read rather than hand out a ref
		// that a later host could hand out again.
		err := h.refs.Save()
		h.noteError(fmt.Errorf("ledger: %d new elements got no ref: %w", withheld, err))
		if errors.Is(err, refcache.ErrTabFull) {
			return raw, nil, viewDiff{}, protocol.Errorf(protocol.CodeTooLarge, protocol.BoundaryHost,
				"the page has more elements than grip keeps refs for; act with CSS locators, or reload the tab",
				"%d new elements got no ref: %v", withheld, err)
		}
		return raw, nil, viewDiff{}, protocol.Errorf(protocol.CodeInternal, protocol.BoundaryHost,
			"free space in or make writable "+h.cfg.Dirs.Ledger+", then take the snapshot again; grip status shows the last errors",
			"the ledger cannot record new refs, so %d new elements got none: %v", withheld, err)
	}
	results := make([]frames.FrameResult, 0, len(raw.Frames))
	read := make([]shown, 0, len(refs))
	i := 0
	for _, f := range raw.Frames {
		fr := frames.FrameResult{FrameID: f.FrameID, DocumentID: f.DocumentID, URL: f.URL, Err: f.Error}
		if f.Error == "" {
			fr.Elements = make([]protocol.Element, len(f.Elements))
			for j, e := range f.Elements {
				fr.Elements[j] = protocol.Element{Ref: refcache.FormatRef(refs[i]), Role: e.Role, Name: e.Name, Value: e.Value, States: e.States, Href: e.Href}
				read = append(read, shown{ref: refs[i], frame: f.FrameID, el: fr.Elements[j]})
				i++
			}
		}
		results = append(results, fr)
		if f.FrameID == 0 && f.Error == "" {
			h.tabs.observe(tab, f.DocumentID)
		}
	}
	// In page order, as the snapshot lists them: frames by frameId.
	slices.SortStableFunc(read, func(a, b shown) int { return cmp.Compare(a.frame, b.frame) })
	diff := h.tabs.swapView(tab, mode, read)
	refsMS := lap()
	if err := h.refs.Save(); err != nil {
		h.noteError(fmt.Errorf("ledger: save failed, refs stay valid in memory: %w", err))
	}
	if timings != nil {
		*timings = protocol.SnapshotTimings{Extension: extension, Decode: decode, Refs: refsMS, Ledger: lap(), Bytes: len(body),
			Frames: make([]protocol.FrameTiming, 0, len(raw.Frames))}
		if raw.Timing != nil {
			timings.Inject, timings.Worker = raw.Timing.InjectMS, raw.Timing.TotalMS
		}
		for _, f := range raw.Frames {
			ft := protocol.FrameTiming{FrameID: f.FrameID, Elements: len(f.Elements)}
			if f.Stats != nil {
				ft.Nodes, ft.WalkMS = f.Stats.Nodes, f.Stats.MS
			}
			timings.Frames = append(timings.Frames, ft)
		}
	}
	return raw, results, diff, nil
}

// stopwatch returns a lap timer: each call gives the milliseconds since the
// previous one. Off, it reads no clock and answers 0.
func stopwatch(on bool) func() float64 {
	if !on {
		return func() float64 { return 0 }
	}
	t := time.Now()
	return func() float64 {
		now := time.Now()
		d := float64(now.Sub(t).Microseconds()) / 1000
		t = now
		return d
	}
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
	raw, results, _, err := h.readTab(ctx, tab, mode, false, timings)
	if err != nil {
		if d := openDialog(err); d != nil {
			return h.dialogSnapshot(tab, d), nil
		}
		return nil, err
	}
	lap := stopwatch(timings != nil)
	snap, err := h.render(tab, raw.Tab, results, frames.Options{Budget: args.Budget, After: args.After})
	if err != nil {
		return nil, err
	}
	h.snapshotEffects(ctx, tab, snap)
	if timings != nil {
		timings.Render = lap()
		snap.Timings = timings
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
	h.user.fillStatus(&st)
	return st
}

func (h *Host) screenshot(ctx context.Context, args protocol.ScreenshotArgs) (*protocol.ScreenshotResult, error) {
	tab, unlock, err := h.lockTab(ctx, args.Tab)
	if err != nil {
		return nil, err
	}
	defer unlock()
	var res protocol.ScreenshotReply
	if err := h.callExt(ctx, protocol.ExtScreenshot, protocol.TabParams{TabID: tab}, &res); err != nil {
		return nil, err
	}
	png, err := base64.StdEncoding.DecodeString(res.Data)
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeInternal, protocol.BoundaryBrowser, "", "screenshot is not base64: %v", err)
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
		h.user.share(ev.TabID, false)
		h.openers.tabRemoved(ev.TabID)
	case protocol.EventTabOpened:
		h.openers.tabOpened(ev.TabID, ev.Opener, ev.URL)
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
		res, err = h.snapshot(ctx, args)
	default:
		res, err = h.userRequest(ctx, msg) // the popup's switches: host/user.go
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

// countZeros counts the elements the allocator could give no ref.
func countZeros(refs []uint64) int {
	n := 0
	for _, r := range refs {
		if r == 0 {
			n++
		}
	}
	return n
}
