package host

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
)

// Downloads (docs/files.md, "Files in and out"): the worker keeps
// no list of its own. chrome.downloads records every download of the
// profile; the worker adds the tab that started each and waits for one to
// finish on chrome.downloads' events. The host asks it after each action
// which download the action started, and keeps where `grip wait
// --download` looks next.

// downloadCursors are the sessions' cursors: each session's waits see
// the downloads since its own first action, and one session's wait does
// not move another's past a download it has not seen.
type downloadCursors struct {
	mu sync.Mutex
	m  map[string]*downloadCursor // guarded by mu; by session
	// claimed are the downloads a session's action reply named or its
	// wait returned: that session's, which another's wait passes over (a
	// tab the person shares is every session's, its downloads are not).
	// Guarded by mu; at most maxClaims.
	claimed map[int]string
}

// maxClaims bounds the downloads whose session is kept.
const maxClaims = 4096

// claim makes download id session s's.
func (c *downloadCursors) claim(id int, s string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.claimed == nil || len(c.claimed) >= maxClaims {
		c.claimed = map[int]string{} // the oldest matter least
	}
	if _, ok := c.claimed[id]; !ok {
		c.claimed[id] = s
	}
}

// othersClaim reports whether another session than s claimed download id.
func (c *downloadCursors) othersClaim(id int, s string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	o, ok := c.claimed[id]
	return ok && o != s
}

// of is session s's cursor, made on first use.
func (c *downloadCursors) of(s string) *downloadCursor {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]*downloadCursor{}
	}
	cur := c.m[s]
	if cur == nil {
		cur = &downloadCursor{}
		c.m[s] = cur
	}
	return cur
}

// downloadCursor is where a session's next `grip wait --download` starts
// looking: at downloads that started since its first action (a person's
// earlier downloads in the same browser are not the agent's), after the
// last one a wait returned, oldest first.
type downloadCursor struct {
	mu      sync.Mutex
	since   time.Time // guarded by mu; zero until the first action
	afterID int       // guarded by mu; the last download a wait returned
}

// acted notes that an action starts now.
func (c *downloadCursor) acted(now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.since.IsZero() {
		c.since = now
	}
}

// window is where a wait starting now looks: since (now, before any
// action) and after which download id.
func (c *downloadCursor) window(now time.Time) (since time.Time, afterID int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.since.IsZero() {
		return now, c.afterID
	}
	return c.since, c.afterID
}

// returned moves the window past d, which a wait returned.
func (c *downloadCursor) returned(d protocol.Download) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if d.ID > c.afterID {
		c.afterID = d.ID
	}
	if t, err := time.Parse(time.RFC3339Nano, d.Started); err == nil && t.After(c.since) {
		c.since = t
	}
}

// downloadJudge returns whether agents may learn of a download under the
// person's policy (docs/files.md, "Files in and out"): not when the
// strictest rule of its final URL, the URL it was asked for, its
// referrer, the pages that started it (the tab's and the frame's, as they
// were then) and the tab's page now is block. A data: or blob: export has
// no origin of its own and is judged by those pages; one whose creator is
// not known at all is blocked (policy.Decide fails closed). Never from
// another session's tab and, in the shared mode, only from a tab shared
// with them. The tabs' pages are read once, when a download names a tab.
func (h *Host) downloadJudge(ctx context.Context) func(d protocol.Download) bool {
	u := h.person
	if u == nil {
		return func(protocol.Download) bool { return true }
	}
	p := u.policy.Current()
	var tabURLs map[int]string
	return func(d protocol.Download) bool {
		judged := false
		for _, raw := range append([]string{d.URL, d.SourceURL, d.Referrer}, d.Pages...) {
			if raw == "" || policy.Inherits(raw) {
				continue // its creator's: the pages and the tab
			}
			if p.Decide(raw).Rule == policy.Block {
				return false
			}
			judged = true
		}
		if d.Tab != 0 {
			if tabURLs == nil {
				tabURLs = map[int]string{}
				var res protocol.TabsResult
				if err := callExt(ctx, h, protocol.ExtTabs, protocol.TabsParams{}, &res); err == nil {
					for _, t := range res.Tabs {
						tabURLs[t.ID] = t.URL
					}
				}
			}
			if url, ok := tabURLs[d.Tab]; ok && !policy.Inherits(url) {
				if p.Decide(url).Rule == policy.Block {
					return false
				}
				judged = true
			}
		}
		if !judged && !p.Trivial() {
			return false // nothing tells where it came from
		}
		if d.Tab == 0 {
			return p.Tabs != policy.TabsShared
		}
		return u.mayLearnOf(p, sessionOf(ctx), d.Tab)
	}
}

// hiddenDownloadAt reports whether path is a download agents may not learn of
// (downloadJudge): an upload of it is refused as a file that does not
// exist, so that an agent learns neither the file nor its name. ok is
// false when the browser could not be asked.
func (h *Host) hiddenDownloadAt(ctx context.Context, path string) (hidden, ok bool) {
	if h.person == nil {
		return false, true
	}
	var got protocol.DownloadsReply
	if err := callExt(ctx, h, protocol.ExtDownloads, protocol.DownloadsParams{Path: path, Limit: 1000}, &got); err != nil {
		return false, false
	}
	visible := h.downloadJudge(ctx)
	for _, d := range got.Downloads {
		if d.Path == path && !visible(d) {
			return true, true
		}
	}
	return false, true
}

// forAgents is d without what only the host judges by.
func forAgents(d protocol.Download) protocol.Download {
	d.SourceURL, d.Referrer, d.Pages = "", "", nil
	return d
}

// unixMS is t in Unix milliseconds, as chrome.downloads' times compare.
func unixMS(t time.Time) float64 { return float64(t.UnixMilli()) }

// addDownload names in an action's reply a download it started: one that
// Chrome created, in the action's tab or in no known tab, between the
// action's start and the end of its reply. A download that starts later (a
// slow server) is not named; `grip wait --download` finds it.
func (h *Host) addDownload(ctx context.Context, a *action, res *protocol.ActionResult) {
	if res.Tab.ID == 0 {
		return
	}
	var got protocol.DownloadsReply
	// Oldest first: the first download the action started.
	if err := callExt(ctx, h, protocol.ExtDownloads, protocol.DownloadsParams{Since: unixMS(a.started), TabID: res.Tab.ID, Limit: 1, Oldest: true}, &got); err != nil {
		h.log.Warn("could not list downloads after an action", "err", err)
		return
	}
	if len(got.Downloads) > 0 && h.downloadJudge(ctx)(got.Downloads[0]) {
		d := forAgents(got.Downloads[0])
		res.Download = &d
		h.downloads.claim(d.ID, sessionOf(ctx))
	}
}

// waitDownload waits for the next download to finish: the worker waits on
// chrome.downloads' events, the host only sets the window and the
// deadline.
func (h *Host) waitDownload(ctx context.Context, args protocol.WaitArgs, timeout time.Duration) (*protocol.ActionResult, error) {
	deadline := time.Now().Add(timeout)
	visible := h.downloadJudge(ctx)
	session := sessionOf(ctx)
	cursor := h.downloads.of(session)
	var d protocol.Download
	for {
		since, after := cursor.window(time.Now())
		left := time.Until(deadline)
		if left < time.Millisecond {
			left = time.Millisecond
		}
		// The worker keeps its own deadline; ours only covers a worker
		// that went away.
		cctx, cancel := context.WithTimeout(ctx, left+callTimeout)
		params := protocol.DownloadWaitParams{Since: unixMS(since), AfterID: after, TabID: args.Tab, TimeoutMS: int(left.Milliseconds())}
		d = protocol.Download{} // decoding keeps fields the next reply leaves out
		err := extCall(cctx, h.port, protocol.ExtDownloadWait, params, &d)
		cancel()
		if err != nil {
			return nil, err
		}
		cursor.returned(d)
		if visible(d) && !h.downloads.othersClaim(d.ID, session) {
			h.downloads.claim(d.ID, session)
			d = forAgents(d)
			break
		}
		// One agents may not see (a blocked site, a tab not shared): the
		// next one, in what time is left.
	}
	if d.State == protocol.DownloadInterrupted {
		return nil, downloadFailed(d)
	}
	res := &protocol.ActionResult{OK: true, Download: &d, Changes: protocol.Changes{Added: []string{}, Gone: []string{}}}
	if d.Tab != 0 {
		var info protocol.TabRef
		if err := callExt(ctx, h, protocol.ExtTabInfo, protocol.TabParams{TabID: d.Tab}, &info); err == nil {
			res.Tab = info
		}
	}
	return res, nil
}

// downloadFailed is the refusal for an interrupted download, with
// Chrome's reason and what to do about it.
func downloadFailed(d protocol.Download) error {
	name := d.Filename
	if name == "" {
		name = d.URL
	}
	hint := "retry the action that started it"
	switch {
	case strings.HasPrefix(d.Error, "FILE_NO_SPACE"):
		hint = "free space on the disk, then retry the action that started it"
	case strings.HasPrefix(d.Error, "FILE_"):
		hint = "check that the browser's download folder exists and is writable, then retry"
	case strings.HasPrefix(d.Error, "SERVER_UNAUTHORIZED"), strings.HasPrefix(d.Error, "SERVER_FORBIDDEN"):
		hint = "the site refused the file: check that the browser is logged in, then retry"
	case strings.HasPrefix(d.Error, "USER_"):
		hint = "the download was cancelled in the browser; start it again"
	case strings.HasPrefix(d.Error, "NETWORK_"), strings.HasPrefix(d.Error, "SERVER_"):
		hint = "the transfer failed on the way; retry the action that started it"
	}
	reason := d.Error
	if reason == "" {
		reason = "no reason given"
	}
	return protocol.Errorf(protocol.CodeDownloadFailed, protocol.BoundaryBrowser, hint,
		"download %d (%s) was interrupted: %s", d.ID, name, reason)
}

// listDownloads answers `grip downloads`: the profile's downloads, newest
// first.
func (h *Host) listDownloads(ctx context.Context, args protocol.DownloadsArgs) (*protocol.DownloadsResult, error) {
	if args.Limit < 0 {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "give a positive --limit", "limit %d", args.Limit)
	}
	limit := args.Limit
	if limit == 0 {
		limit = 20
	}
	var got protocol.DownloadsReply
	if err := callExt(ctx, h, protocol.ExtDownloads, protocol.DownloadsParams{Limit: limit, TabID: args.Tab}, &got); err != nil {
		return nil, err
	}
	list := make([]protocol.Download, 0, len(got.Downloads))
	visible := h.downloadJudge(ctx)
	for _, d := range got.Downloads {
		if visible(d) {
			list = append(list, forAgents(d))
		}
	}
	return &protocol.DownloadsResult{Downloads: list}, nil
}
