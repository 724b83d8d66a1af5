package host

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/refcache"
)

// The central read (docs/ARCHITECTURE.md, "The path of one request"): a
// snapshot, and the read back after every action, take the tab's frames
// through the extension, leave out what the person's policy keeps from
// agents, give each element its ref and keep what the agent was shown.

// readTab takes a full snapshot of a tab through the extension and records
// it in the allocator. The caller holds the tab's lock.
//
// keepSignatures asks the page to keep each element's meaning as the agent
// last saw it: set for the host's own reads after an action, whose result
// the agent does not see, so a rename it never saw still refuses.
//
// settle reads the tab once its page has settled (host/settle.go); the
// reply's Settle says whether it had.
//
// The returned diff is against the tab's previous read: the refs added and
// gone since then, whatever made them go (this read, a navigation event,
// a closed frame).
func (h *Host) readTab(ctx context.Context, tab int, mode string, keepSignatures, settle bool, timings *protocol.SnapshotTimings) (protocol.SnapshotReply, []frames.FrameResult, viewDiff, error) {
	return h.readTabFor(ctx, tab, protocol.SnapshotParams{Mode: mode, KeepSignatures: keepSignatures, Settle: settle}, timings)
}

// readTabFor is readTab with the extension's parameters given whole. With
// AllContexts, the results carry every element's context (for matching a
// target line); what the agent is kept as shown carries only the repeats'.
func (h *Host) readTabFor(ctx context.Context, tab int, params protocol.SnapshotParams, timings *protocol.SnapshotTimings) (protocol.SnapshotReply, []frames.FrameResult, viewDiff, error) {
	mode := params.Mode
	params.TabID = tab
	var raw protocol.SnapshotReply
	lap := stopwatch(timings != nil)
	params.Known = h.walks.known(tab)
	body, err := callExtRaw(ctx, h, protocol.ExtSnapshot, params)
	if err != nil {
		return raw, nil, viewDiff{}, err
	}
	extension := lap()
	if err := decodeSnapshotReply(body, &raw); err != nil {
		return raw, nil, viewDiff{}, protocol.Errorf(protocol.CodeInternal, protocol.BoundaryBrowser, "",
			"the extension's snapshot reply does not decode: %v", err)
	}
	if raw.Dialog != nil {
		// Nothing was read: the refs stay as they were.
		return raw, nil, viewDiff{}, &dialogOpen{tab: raw.Tab, dialog: raw.Dialog}
	}
	// A frame whose page has not changed since a walk the host holds
	// answered "the same" (walks.go); one naming a walk not held is read
	// again whole.
	if !h.walks.fill(tab, &raw) {
		raw = protocol.SnapshotReply{}
		params.Known = nil
		if body, err = callExtRaw(ctx, h, protocol.ExtSnapshot, params); err != nil {
			return raw, nil, viewDiff{}, err
		}
		if err := decodeSnapshotReply(body, &raw); err != nil {
			return raw, nil, viewDiff{}, protocol.Errorf(protocol.CodeInternal, protocol.BoundaryBrowser, "",
				"the extension's snapshot reply does not decode: %v", err)
		}
		if raw.Dialog != nil {
			return raw, nil, viewDiff{}, &dialogOpen{tab: raw.Tab, dialog: raw.Dialog}
		}
		h.walks.fill(tab, &raw)
	}
	h.filterRead(ctx, tab, &raw) // the person's policy: host/controls.go
	decode := lap()
	var obs []refcache.Observed
	// Frames that did not answer this time (busy, loading) keep what they
	// showed: their refs are neither stale nor gone.
	var unread map[string]bool
	for _, f := range raw.Frames {
		if frames.Unread(f.Error) && f.DocumentID != "" {
			if unread == nil {
				unread = map[string]bool{}
			}
			unread[f.DocumentID] = true
		}
	}
	var alive map[refcache.Key]bool
	n := 0
	for _, f := range raw.Frames {
		if f.Error == "" {
			n += len(f.Elements)
		}
	}
	obs = make([]refcache.Observed, 0, n)
	for _, f := range raw.Frames {
		if f.Error != "" {
			continue
		}
		for _, id := range f.Alive {
			if alive == nil {
				alive = map[refcache.Key]bool{}
			}
			alive[refcache.Key{DocumentID: f.DocumentID, FrameID: f.FrameID, LocalID: id}] = true
		}
		for _, e := range f.Elements {
			obs = append(obs, refcache.Observed{
				Key:  refcache.Key{DocumentID: f.DocumentID, FrameID: f.FrameID, LocalID: e.ID},
				Role: e.Role, Name: e.Name,
			})
		}
	}
	refs, _ := h.refs.ReplaceRead(tab, obs, unread, alive)
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
	names := refcache.FormatRefs(refs)
	repeats := frames.Repeats(raw.Frames)
	results := make([]frames.FrameResult, 0, len(raw.Frames))
	read := make([]shown, 0, len(refs))
	urls := make(map[int]string, len(raw.Frames))
	i := 0
	for _, f := range raw.Frames {
		fr := frames.FrameResult{FrameID: f.FrameID, DocumentID: f.DocumentID, URL: f.URL, Err: f.Error}
		if f.Error == "" {
			fr.Elements = make([]protocol.Element, len(f.Elements))
			for j, e := range f.Elements {
				fr.Elements[j] = protocol.Element{Ref: names[i], Role: e.Role, Name: e.Name, Value: e.Value, States: e.States, Href: e.Href}
				if e.Context != "" && repeats.Has(e.Role, e.Name) {
					fr.Elements[j].Context = e.Context
				}
				read = append(read, shown{ref: refs[i], frame: f.FrameID, doc: f.DocumentID, el: fr.Elements[j]})
				if params.AllContexts {
					fr.Elements[j].Context = e.Context
				}
				i++
			}
		}
		results = append(results, fr)
		if f.Error == "" {
			urls[f.FrameID] = f.URL
		}
		if f.FrameID == 0 && f.Error == "" {
			h.tabs.observe(tab, f.DocumentID)
		}
	}
	// In page order, as the snapshot lists them: frames by frameId.
	byFrame := func(a, b shown) int { return cmp.Compare(a.frame, b.frame) }
	if !slices.IsSortedFunc(read, byFrame) {
		slices.SortStableFunc(read, byFrame)
	}
	top := ""
	for _, f := range raw.Frames {
		if f.FrameID == 0 && f.Error == "" {
			top = f.DocumentID
		}
	}
	navigated := h.tabs.swapTop(tab, top)
	diff := h.tabs.swapView(tab, mode, read, urls, unread)
	diff.navigated = navigated
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
			ft := protocol.FrameTiming{FrameID: f.FrameID, Elements: len(f.Elements), Same: f.Same, Patched: f.Base != ""}
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
