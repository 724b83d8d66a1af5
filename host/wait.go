package host

import (
	"context"
	"time"

	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/refcache"
)

// defaultWait is how long a wait lasts when the agent gives no timeout.
const defaultWait = 10 * time.Second

// wait answers OpWait. The condition is watched where it happens, not
// polled from here: the page's kernel re-checks text and elements after
// each batch of DOM changes (a MutationObserver), the worker follows URL
// changes through the browser's events, and nothing runs while nothing
// changes. The host makes one request that ends when the condition holds
// or the time is up.
func (h *Host) wait(ctx context.Context, args protocol.WaitArgs) (*protocol.ActionResult, error) {
	conds := 0
	for _, set := range []bool{args.Text != "", args.TextGone != "", args.Gone != "", args.URL != "", args.MS > 0, args.Download} {
		if set {
			conds++
		}
	}
	if conds != 1 {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"give exactly one of --text, --text-gone, --gone, --url, --ms, --download", "%d wait conditions given", conds)
	}
	timeout := time.Duration(args.TimeoutMS) * time.Millisecond
	if timeout <= 0 {
		timeout = defaultWait
	}
	if args.Download {
		return h.waitDownload(ctx, args, timeout) // host/downloads.go
	}
	if args.MS > 0 {
		select {
		case <-time.After(time.Duration(args.MS) * time.Millisecond):
			return &protocol.ActionResult{OK: true, Changes: protocol.Changes{Added: []string{}, Gone: []string{}}}, nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	params := protocol.WaitParams{Text: args.Text, TextGone: args.TextGone, URL: args.URL, TimeoutMS: int(timeout.Milliseconds())}
	tab := args.Tab
	if args.Gone != "" {
		ref, err := refcache.ParseRef(args.Gone)
		if err != nil {
			return nil, err
		}
		entry, err := h.refs.Resolve(ref)
		if err != nil {
			// Another session's element, gone or not, is not this
			// session's to learn about (host/sessions.go foreignRef).
			if ferr := h.foreignRef(ctx, ref, err); ferr != err {
				return nil, ferr
			}
			// Already stale or unknown: it is gone.
			return &protocol.ActionResult{OK: true, Detail: args.Gone + " is gone", Changes: protocol.Changes{Added: []string{}, Gone: []string{args.Gone}}}, nil
		}
		tab, params.DocumentID, params.LocalID = entry.Tab, entry.Key.DocumentID, entry.Key.LocalID
	}
	tab, err := h.resolveTab(ctx, tab)
	if err != nil {
		return nil, err
	}
	params.TabID = tab
	// The extension answers by the timeout; the host's own deadline allows
	// for the round trip on top.
	cctx, cancel := context.WithTimeout(ctx, timeout+callTimeout)
	defer cancel()
	var res protocol.WaitReply
	if err := extCall(cctx, h.port, protocol.ExtWait, params, &res); err != nil {
		return nil, err
	}
	// Met or not, a tab that went to a blocked site meanwhile tells
	// nothing (host/withhold.go).
	if err := h.checkWaitEnd(ctx, tab, args); err != nil {
		return nil, err
	}
	if !res.Met {
		return nil, protocol.Errorf(protocol.CodeTimeout, protocol.BoundaryTask,
			"raise --timeout, or take a snapshot to see what the page shows", "condition not met within %s", timeout)
	}
	detail := res.Detail
	if args.Gone != "" {
		detail = args.Gone + " is gone"
	}
	var info protocol.TabRef
	_ = callExt(ctx, h, protocol.ExtTabInfo, protocol.TabParams{TabID: tab}, &info)
	out := &protocol.ActionResult{OK: true, Tab: info, Detail: detail, Changes: protocol.Changes{URL: info.URL, Title: info.Title, Added: []string{}, Gone: []string{}}}
	h.maskResult(out) // the page may have gone to a blocked site meanwhile
	return out, nil
}
