package host

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/grip-dev/grip/actlog"
	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/locator"
	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/refcache"
)

// serve runs one agent request behind the person's controls
// (docs/ARCHITECTURE.md, "The person's controls"), then dispatch:
//
//   - pause, resume, log and policy are answered here;
//   - reads (tabs, snapshot, wait, screenshot) follow the policy: a
//     blocked tab is refused and listed without its URL or title, in the
//     shared mode a tab not shared is invisible, and the default tab is
//     one agents may use; downloads from a blocked site or, in the shared
//     mode, a tab not shared are left out (host/downloads.go);
//   - actions are refused while paused, refused or put to the person
//     according to the rule of the frame they land in, and recorded;
//   - any operation this function does not know is treated as an
//     action: a new one must be placed here to be served while paused.
func (h *Host) serve(ctx context.Context, req protocol.Request) (any, error) {
	u := h.user
	if u == nil {
		return h.dispatch(ctx, req)
	}
	if res, ok, err := h.serveDevtools(ctx, req); ok {
		return res, err
	}
	switch req.Op {
	case protocol.OpHello, protocol.OpStatus:
		return h.dispatch(ctx, req)
	case protocol.OpPause:
		st := u.setPaused(true)
		u.record(actlog.Entry{Action: protocol.OpPause, Outcome: "ok", Client: clientOf(ctx)})
		h.log.Info("paused at an agent client's request", "client", clientOf(ctx))
		h.tellExtension(ctx, protocol.ExtPaused, protocol.PausedParams{Paused: true})
		return st, nil
	case protocol.OpResume:
		return h.resume(ctx)
	case protocol.OpLog:
		var args protocol.LogArgs
		if err := decodeArgs(req.Args, &args); err != nil {
			return nil, err
		}
		res := protocol.LogResult{Entries: u.logEntries(actlog.Query{Tab: args.Tab, Limit: args.Limit})}
		if u.log != nil {
			res.File = u.log.Path()
		}
		return res, nil
	case protocol.OpPolicy:
		var args protocol.PolicyArgs
		if err := decodeArgs(req.Args, &args); err != nil {
			return nil, err
		}
		return u.policyResult(args), nil
	case protocol.OpTabs:
		res, err := h.dispatch(ctx, req)
		if err != nil {
			return nil, err
		}
		tabs, ok := res.(protocol.TabsResult)
		if !ok {
			return nil, protocol.Errorf(protocol.CodeInternal, protocol.BoundaryHost, "", "the tab list is a %T, which the policy cannot filter", res)
		}
		return h.filterTabs(tabs), nil
	case protocol.OpSnapshot:
		var args protocol.SnapshotArgs
		if err := decodeArgs(req.Args, &args); err != nil {
			return nil, err
		}
		tab, err := h.guardRead(ctx, args.Tab, readSnapshot)
		if err != nil {
			return nil, err
		}
		args.Tab = tab
		return h.dispatchWith(ctx, req, args)
	case protocol.OpWait:
		var args protocol.WaitArgs
		if err := decodeArgs(req.Args, &args); err != nil {
			return nil, err
		}
		if args.MS > 0 && args.Text == "" && args.Gone == "" && args.URL == "" {
			return h.dispatch(ctx, req) // only time passes
		}
		if args.Download {
			return h.guardDownloadWait(ctx, req, args)
		}
		tab, kind := args.Tab, readInfo
		if args.Text != "" {
			kind = readProbe
		}
		if args.Gone != "" {
			if ref, err := refcache.ParseRef(args.Gone); err == nil {
				if e, err := h.refs.Resolve(ref); err == nil {
					tab = e.Tab
				} else {
					return h.dispatch(ctx, req) // gone already: no page is read
				}
			}
		}
		tab, err := h.guardRead(ctx, tab, kind)
		if err != nil {
			return nil, err
		}
		args.Tab = tab
		res, err := h.dispatchWith(ctx, req, args)
		if r, ok := res.(*protocol.ActionResult); ok && r != nil {
			h.maskResult(r) // the page may have gone to a blocked site meanwhile
		}
		return res, err
	case protocol.OpScreenshot:
		var args protocol.ScreenshotArgs
		if err := decodeArgs(req.Args, &args); err != nil {
			return nil, err
		}
		tab, err := h.guardRead(ctx, args.Tab, readScreenshot)
		if err != nil {
			return nil, err
		}
		args.Tab = tab
		res, err := h.dispatchWith(ctx, req, args)
		if r, ok := res.(*protocol.ScreenshotResult); ok && r != nil {
			// The page may have gone to a blocked site after the check.
			if d := u.policy.Current().Decide(r.Tab.URL); d.Rule == policy.Block {
				return nil, h.refuseBlocked(fmt.Sprintf("tab %d", r.Tab.ID), d)
			}
		}
		return res, err
	case protocol.OpDialog:
		// A tab's dialog is read like its URL: no frame's content.
		var args protocol.DialogArgs
		if err := decodeArgs(req.Args, &args); err != nil {
			return nil, err
		}
		tab, err := h.guardRead(ctx, args.Tab, readInfo)
		if err != nil {
			return nil, err
		}
		args.Tab = tab
		return h.dispatchWith(ctx, req, args)
	case protocol.OpAct:
		return h.guardAct(ctx, req)
	case protocol.OpDownloads:
		return h.dispatch(ctx, req) // a read of no page; the list leaves out what agents may not see
	}
	return h.guardOther(ctx, req)
}

// dispatchWith runs req with args re-encoded (the guard filled in the
// tab it checked, so the operation cannot land on another).
func (h *Host) dispatchWith(ctx context.Context, req protocol.Request, args any) (any, error) {
	raw, err := protocol.Marshal(args)
	if err != nil {
		return nil, err
	}
	req.Args = raw
	return h.dispatch(ctx, req)
}

// readKind says what a read looks at, which decides what a blocked frame
// inside an allowed page means for it.
type readKind int

const (
	readSnapshot   readKind = iota // blocked frames are left out of the text
	readInfo                       // the tab's URL or one element: no frame's content
	readProbe                      // searches every frame's text: refused with a blocked frame
	readScreenshot                 // shows every frame's pixels: refused with a blocked frame
)

// guardRead checks that agents may read tab (0: the default tab) and
// returns it.
func (h *Host) guardRead(ctx context.Context, tab int, kind readKind) (int, error) {
	p := h.user.policy.Current()
	tab, err := h.agentTab(ctx, p, tab)
	if err != nil {
		return 0, err
	}
	if p.Trivial() && kind != readScreenshot {
		// Every site is open; extension pages, the one built-in rule,
		// cannot be scripted and readTab leaves them out regardless.
		return tab, nil
	}
	tr, err := h.frameRules(ctx, p, tab)
	if err != nil {
		if p.Trivial() {
			return tab, nil
		}
		return 0, err
	}
	if tr.top.Rule == policy.Block {
		return 0, h.refuseBlocked(fmt.Sprintf("tab %d", tab), tr.top)
	}
	if kind == readProbe || kind == readScreenshot {
		if id, d, ok := tr.blockedFrame(); ok {
			what := "waiting for text"
			if kind == readScreenshot {
				what = "a screenshot"
			}
			return 0, protocol.Errorf(protocol.CodePolicy, protocol.BoundaryPolicy,
				"take a snapshot instead: it leaves the blocked frame out",
				"%s of tab %d would look into its frame %d, which is blocked: %s of %s", what, tab, id, d.Why(), h.user.policy.File())
		}
	}
	return tab, nil
}

// agentTab returns the tab an agent's request is for: tab when agents
// may see it, else for 0 the active tab, or in the shared mode the active
// tab if it is shared, else the tab most recently shared or opened by an
// agent.
func (h *Host) agentTab(ctx context.Context, p *policy.Policy, tab int) (int, error) {
	u := h.user
	if tab > 0 {
		if !u.visible(p, tab) {
			return 0, protocol.Errorf(protocol.CodePolicy, protocol.BoundaryPolicy,
				"use a tab the person shared from the grip popup (\"Let agents use this tab\") or one you opened with grip tabs new; grip tabs lists them",
				"tab %d is not shared with agents (or does not exist): tabs = shared in %s", tab, u.policy.File())
		}
		return tab, nil
	}
	active, err := h.resolveTab(ctx, 0)
	if p.Tabs != policy.TabsShared {
		return active, err
	}
	if err == nil && u.visible(p, active) {
		return active, nil
	}
	var res protocol.TabsResult
	if err := h.callExt(ctx, protocol.ExtTabs, protocol.TabsParams{}, &res); err != nil {
		return 0, err
	}
	exists := map[int]bool{}
	for _, t := range res.Tabs {
		exists[t.ID] = true
	}
	for _, id := range u.latestShared() {
		if exists[id] {
			return id, nil
		}
	}
	return 0, protocol.Errorf(protocol.CodePolicy, protocol.BoundaryPolicy,
		"ask the person to share a tab from the grip popup (\"Let agents use this tab\"), or open one with grip tabs new URL",
		"no tab is shared with agents: tabs = shared in %s", u.policy.File())
}

// refuseBlocked is the refusal of anything on a blocked origin. where
// names the place as the agent knows it — "tab 5", "frame 3 of tab 5",
// or an origin the agent gave — never a blocked page's own URL, which
// grip keeps from agents.
func (h *Host) refuseBlocked(where string, d policy.Decision) error {
	return protocol.Errorf(protocol.CodePolicy, protocol.BoundaryPolicy,
		"the person keeps agents out of this site: leave it, and do not try to reach it another way; they can change the rule in that file (grip policy URL says which rule a URL falls under)",
		"%s is blocked: %s of %s", where, d.Why(), h.user.policy.File())
}

// guardAct runs OpAct behind the pause, the policy and the person's
// confirmation, and records it.
func (h *Host) guardAct(ctx context.Context, req protocol.Request) (any, error) {
	var args protocol.ActArgs
	if err := decodeArgs(req.Args, &args); err != nil {
		return nil, err
	}
	spec, known := protocol.LookupAction(args.Action)
	if !known {
		return h.dispatch(ctx, req) // act refuses it
	}
	rec := actlog.Entry{Time: time.Now(), Action: args.Action, Tab: args.Tab, Client: clientOf(ctx), Detail: actDetail(spec, args)}
	res, err := h.guardedAct(ctx, req, spec, &args, &rec)
	rec.Outcome = "ok"
	if err != nil {
		rec.Outcome = string(protocol.AsError(err).Code)
	} else if r, ok := res.(*protocol.ActionResult); ok && r != nil {
		if rec.Tab == 0 {
			rec.Tab = r.Tab.ID
		}
		if rec.Origin == "" {
			rec.Origin = originOf(r.Tab.URL)
		}
		h.maskResult(r)
	}
	h.user.record(rec)
	if err == nil && rec.Tab > 0 {
		h.tellExtension(ctx, protocol.ExtActed, protocol.ActedParams{TabID: rec.Tab, Action: args.Action})
	}
	return res, err
}

func (h *Host) guardedAct(ctx context.Context, req protocol.Request, spec protocol.Action, args *protocol.ActArgs, rec *actlog.Entry) (any, error) {
	u := h.user
	if u.isPaused() {
		return nil, errPaused()
	}
	var entry *refcache.Entry
	var chain []string
	tab := args.Tab
	if args.Target != "" {
		rec.Target = args.Target
		loc, err := locator.Parse(args.Target)
		if err != nil {
			return h.dispatch(ctx, req) // act refuses it, before the browser
		}
		if loc.Ref != 0 {
			e, err := h.refs.Resolve(loc.Ref)
			if err != nil {
				return h.dispatch(ctx, req) // unknown or stale: refused before the browser
			}
			entry, tab = &e, e.Tab
			if line, ok := h.tabs.shownLine(e.Tab, loc.Ref); ok {
				rec.Target = line
			}
		} else {
			chain = loc.Chain
		}
	}
	p := u.policy.Current()
	if spec.Name != protocol.ActTabNew {
		var err error
		if tab, err = h.agentTab(ctx, p, tab); err != nil {
			return nil, err
		}
		rec.Tab = tab
		if entry == nil {
			args.Tab = tab // the action lands on the tab checked here
		}
	}
	// decide returns the rule the action falls under, the origin it
	// lands on, and how to name the place to the agent.
	decide := func(p *policy.Policy) (policy.Decision, string, string, error) {
		if spec.Name == protocol.ActTabNew {
			return p.Decide(args.Text), originOf(args.Text), nameURL(args.Text), nil
		}
		d, origin, where := policy.Decision{Rule: policy.Act}, "", fmt.Sprintf("tab %d", tab)
		tr, err := h.frameRules(ctx, p, tab)
		switch {
		case err != nil && !p.Trivial():
			return d, "", "", err
		case err == nil:
			rec.Origin = tr.topOrigin
			var frame int
			d, origin, frame = tr.ruleFor(spec, *args, entry, chain)
			if frame != 0 {
				where = fmt.Sprintf("frame %d of tab %d", frame, tab)
			}
			if entry == nil && args.Epoch == 0 && tr.topDoc != "" && (!p.Trivial() || d.Rule != policy.Act) {
				// Pin the page the rule was decided on: if it navigates
				// before the action lands, the action is refused.
				args.Epoch = h.tabs.observe(tab, tr.topDoc)
			}
		}
		if spec.Name == protocol.ActNavigate {
			if nd := p.Decide(args.Text); nd.Rule > d.Rule {
				d, origin, where = nd, originOf(args.Text), nameURL(args.Text)
			}
		}
		return d, origin, where, nil
	}
	d, origin, where, err := decide(p)
	if err != nil {
		return nil, err
	}
	if err := h.applyRule(ctx, p, d, origin, where, args.Action, rec); err != nil {
		return nil, err
	}
	if d.Rule == policy.Confirm {
		// The person may have paused, or edited the policy, while the
		// question was open.
		if u.isPaused() {
			return nil, errPaused()
		}
		if p2 := u.policy.Current(); p2 != p {
			d2, origin2, where2, err := decide(p2)
			if err != nil {
				return nil, err
			}
			if d2.Rule != policy.Confirm {
				if err := h.applyRule(ctx, p2, d2, origin2, where2, args.Action, rec); err != nil {
					return nil, err
				}
			}
		}
	}
	res, err := h.dispatchWith(ctx, req, *args)
	if err == nil && spec.Name == protocol.ActTabNew {
		if r, ok := res.(*protocol.ActionResult); ok && r != nil && r.Tab.ID > 0 {
			// A tab an agent opened is one it may use in the shared mode.
			u.share(r.Tab.ID, true)
			rec.Tab = r.Tab.ID
			h.tellExtension(ctx, protocol.ExtShareTab, protocol.TabParams{TabID: r.Tab.ID})
		}
	}
	return res, err
}

// applyRule refuses what the rule refuses and asks the person what the
// rule puts to them. origin is where the action lands, where how to name
// it to the agent if it is blocked.
func (h *Host) applyRule(ctx context.Context, p *policy.Policy, d policy.Decision, origin, where, action string, rec *actlog.Entry) error {
	if origin == "" {
		origin = "this page"
	}
	switch d.Rule {
	case policy.Block:
		rec.Rule = d.Why()
		if p.Decide(rec.Origin).Rule == policy.Block {
			rec.Origin = "" // the record is readable by agents (grip log); the rule says enough
		}
		return h.refuseBlocked(where, d)
	case policy.Read:
		rec.Rule = d.Why()
		return protocol.Errorf(protocol.CodePolicy, protocol.BoundaryPolicy,
			"agents may read this site but not act on it: ask the person to take this step, or to change the rule in that file",
			"%s on %s is refused: the site is read-only for agents: %s of %s", action, origin, d.Why(), h.user.policy.File())
	case policy.Confirm:
		rec.Rule = d.Why()
		if err := h.askPerson(ctx, p, protocol.ConfirmParams{TabID: rec.Tab, Origin: origin, Action: action,
			Target: rec.Target, Detail: rec.Detail, Client: rec.Client, Rule: d.Why()}); err != nil {
			return err
		}
		rec.Confirmed = true
	}
	return nil
}

// askPerson puts a question to the person in the browser (a notification
// with Allow and Deny, and the popup) and waits for the answer, at most
// the policy's confirm-timeout.
func (h *Host) askPerson(ctx context.Context, p *policy.Policy, cp protocol.ConfirmParams) error {
	timeout := p.ConfirmTimeout
	cp.ID = randomID()
	cp.TimeoutMS = int(timeout / time.Millisecond)
	// The extension answers TimedOut itself at the timeout; the extra
	// seconds only cover a worker that cannot.
	cctx, cancel := context.WithTimeout(ctx, timeout+5*time.Second)
	defer cancel()
	var rep protocol.ConfirmReply
	err := h.port.call(cctx, protocol.ExtConfirm, cp, &rep)
	what := cp.Action
	if cp.Target != "" {
		what += " " + cp.Target
	}
	switch {
	case err == nil && rep.Allowed:
		return nil
	case err == nil && rep.TimedOut, err != nil && cctx.Err() == context.DeadlineExceeded && ctx.Err() == nil:
		return protocol.Errorf(protocol.CodeNotConfirmed, protocol.BoundaryUser,
			"ask the person to watch for grip's question in the browser (a notification, and the grip popup), then try once more",
			"the person did not answer within %s whether to allow %s", timeout, what)
	case err != nil && ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		return protocol.Errorf(protocol.CodeNotConfirmed, protocol.BoundaryUser,
			"this needs the person's Allow in the browser; try again when the extension is connected",
			"could not ask the person whether to allow %s: %s", what, protocol.AsError(err).Message)
	}
	return protocol.Errorf(protocol.CodeNotConfirmed, protocol.BoundaryUser,
		"the person said no: do not try this again or another way; ask them what they want instead",
		"the person denied %s", what)
}

func errPaused() error {
	return protocol.Errorf(protocol.CodePaused, protocol.BoundaryUser,
		"wait until the person resumes (the grip popup, or they run grip resume); do not retry in a loop",
		"the person paused grip: every action is refused until they resume")
}

// resume lifts the pause once the person allows it in the browser: the
// pause is theirs, and an agent that could lift it alone would make it
// worthless.
func (h *Host) resume(ctx context.Context) (any, error) {
	u := h.user
	if !u.isPaused() {
		return u.state(), nil
	}
	rec := actlog.Entry{Action: protocol.OpResume, Client: clientOf(ctx)}
	err := h.askPerson(ctx, u.policy.Current(), protocol.ConfirmParams{Action: protocol.OpResume, Client: rec.Client,
		Detail: "lift the pause: agents may act again"})
	rec.Outcome, rec.Confirmed = "ok", err == nil
	if err != nil {
		rec.Outcome = string(protocol.AsError(err).Code)
	}
	u.record(rec)
	if err != nil {
		return nil, err
	}
	st := u.setPaused(false)
	h.tellExtension(ctx, protocol.ExtPaused, protocol.PausedParams{Paused: false})
	return st, nil
}

// guardOther serves an operation serve does not know as an action on the
// tab it names (or the active one).
func (h *Host) guardOther(ctx context.Context, req protocol.Request) (any, error) {
	u := h.user
	if u.isPaused() {
		return nil, errPaused()
	}
	p := u.policy.Current()
	if p.Trivial() {
		return h.dispatch(ctx, req)
	}
	var named struct {
		Tab int `json:"tab"`
	}
	_ = decodeArgs(req.Args, &named)
	tab, err := h.agentTab(ctx, p, named.Tab)
	if err != nil {
		return nil, err
	}
	tr, err := h.frameRules(ctx, p, tab)
	if err != nil {
		return nil, err
	}
	rec := actlog.Entry{Time: time.Now(), Action: req.Op, Tab: tab, Origin: tr.topOrigin, Client: clientOf(ctx)}
	if err := h.applyRule(ctx, p, tr.strictest(), tr.topOrigin, fmt.Sprintf("tab %d", tab), req.Op, &rec); err != nil {
		return nil, err
	}
	return h.dispatch(ctx, req)
}

// actDetail is what the record may say about an action beyond its verb
// and target: never typed text, option values or a URL's path.
func actDetail(spec protocol.Action, args protocol.ActArgs) string {
	switch spec.Name {
	case protocol.ActPress:
		if key, mods, err := parseKey(args.Text); err == nil {
			if len(mods) > 0 || len([]rune(key)) > 1 {
				return strings.Join(append(mods, key), "+")
			}
			return "a character key"
		}
	case protocol.ActScroll:
		if args.Text == "up" {
			return "up"
		}
	case protocol.ActNavigate, protocol.ActTabNew:
		if o := originOf(args.Text); o != "" {
			return "to " + o
		}
	case protocol.ActTabClose, protocol.ActTabSelect:
		if args.Tab > 0 {
			return fmt.Sprintf("tab %d", args.Tab)
		}
	case protocol.ActUpload:
		return uploadDetail(args.Files)
	}
	return ""
}

// nameURL names a URL an agent gave by its origin, or "the page" for one
// with none of its own (about:blank).
func nameURL(rawURL string) string {
	if o := originOf(rawURL); o != "" {
		return o
	}
	return "the page"
}

// originOf is rawURL's origin, "" when it has none of its own.
func originOf(rawURL string) string {
	if o, ok := policy.ParseOrigin(rawURL); ok {
		return o.String()
	}
	return ""
}

// maskResult leaves the URL and title of a blocked page out of an action's
// reply (an action that navigated there, a tab listing).
func (h *Host) maskResult(r *protocol.ActionResult) {
	p := h.user.policy.Current()
	if p.Decide(r.Tab.URL).Rule == policy.Block || p.Decide(r.Changes.URL).Rule == policy.Block {
		r.Tab.URL, r.Tab.Title = "", ""
		r.Changes.URL, r.Changes.Title = "", ""
	}
}

// filterTabs lists blocked tabs without URL or title and, in the shared
// mode, leaves out the tabs agents may not use.
func (h *Host) filterTabs(res protocol.TabsResult) protocol.TabsResult {
	p := h.user.policy.Current()
	out := protocol.TabsResult{Tabs: []protocol.Tab{}}
	for _, t := range res.Tabs {
		if !h.user.visible(p, t.ID) {
			continue
		}
		if p.Decide(t.URL).Rule == policy.Block {
			t.URL, t.Title, t.Blocked = "", "", true
		}
		out.Tabs = append(out.Tabs, t)
	}
	return out
}

// filterRead takes out of a snapshot reply what agents may not read: every
// frame of a tab they may not see or whose page is blocked (and the tab's
// URL and title), and each frame whose own origin is blocked. It runs in
// readTab before any ref is given, so blocked content never gets refs.
func (h *Host) filterRead(ctx context.Context, tab int, raw *protocol.SnapshotReply) {
	if h.user == nil {
		return
	}
	p := h.user.policy.Current()
	infos := make([]protocol.FrameInfo, 0, len(raw.Frames))
	needTree := false
	for _, f := range raw.Frames {
		infos = append(infos, protocol.FrameInfo{FrameID: f.FrameID, ParentFrameID: -2, DocumentID: f.DocumentID, URL: f.URL})
		if f.FrameID != 0 && len(f.Elements) > 0 && policy.Inherits(f.URL) {
			needTree = true
		}
	}
	if needTree && !p.Trivial() {
		// A frame with no origin of its own (about:blank, srcdoc) takes
		// its parent's: learn the parents.
		var fr protocol.FramesReply
		if err := h.callExt(ctx, protocol.ExtFrames, protocol.TabParams{TabID: tab}, &fr); err == nil {
			parents := map[string]int{}
			for _, f := range fr.Frames {
				parents[fmt.Sprint(f.FrameID, "/", f.DocumentID)] = f.ParentFrameID
			}
			for i := range infos {
				if par, ok := parents[fmt.Sprint(infos[i].FrameID, "/", infos[i].DocumentID)]; ok {
					infos[i].ParentFrameID = par
				}
			}
		}
	}
	tr := rulesOf(p, infos)
	all := !h.user.visible(p, tab) || tr.top.Rule == policy.Block
	for i, f := range raw.Frames {
		if all || tr.byFrame[f.FrameID].Rule == policy.Block {
			raw.Frames[i] = protocol.ExtFrame{FrameID: f.FrameID, DocumentID: f.DocumentID, Error: frames.ReasonBlocked}
		}
	}
	if all {
		raw.Tab.URL, raw.Tab.Title = "", ""
	}
}

// tabRules are the rules of every frame of one tab.
type tabRules struct {
	top       policy.Decision
	topOrigin string
	topDoc    string
	byFrame   map[int]policy.Decision
	origins   map[int]string // each frame's origin, or its parent's
	byDoc     map[string]int // frame of each document
}

// frameRules asks the extension for tab's frames and decides each one's
// rule.
func (h *Host) frameRules(ctx context.Context, p *policy.Policy, tab int) (*tabRules, error) {
	var fr protocol.FramesReply
	if err := h.callExt(ctx, protocol.ExtFrames, protocol.TabParams{TabID: tab}, &fr); err != nil {
		return nil, err
	}
	return rulesOf(p, fr.Frames), nil
}

// rulesOf decides the rule of each frame: its own origin's, or for a frame
// with none of its own (about:blank, srcdoc, data:) its parent's; one
// whose parent is unknown (ParentFrameID -2) gets the strictest rule of
// the tab.
func rulesOf(p *policy.Policy, infos []protocol.FrameInfo) *tabRules {
	tr := &tabRules{byFrame: map[int]policy.Decision{}, origins: map[int]string{}, byDoc: map[string]int{}}
	byID := map[int]protocol.FrameInfo{}
	for _, f := range infos {
		byID[f.FrameID] = f
		if f.DocumentID != "" {
			tr.byDoc[f.DocumentID] = f.FrameID
		}
	}
	var orphans []int
	var decide func(id, depth int) (policy.Decision, string, bool)
	decide = func(id, depth int) (policy.Decision, string, bool) {
		f, ok := byID[id]
		if !ok || depth > len(infos) {
			return policy.Decision{}, "", false
		}
		if o, ok := policy.ParseOrigin(f.URL); ok {
			return p.DecideOrigin(o), o.String(), true
		}
		if id == 0 || f.ParentFrameID == -1 {
			return p.Decide(f.URL), "", true // a top-level blank page: the default
		}
		return decide(f.ParentFrameID, depth+1)
	}
	strictest := policy.Decision{Rule: p.DefaultRule}
	for _, f := range infos {
		d, origin, ok := decide(f.FrameID, 0)
		if !ok {
			orphans = append(orphans, f.FrameID)
			continue
		}
		tr.byFrame[f.FrameID], tr.origins[f.FrameID] = d, origin
		if d.Rule > strictest.Rule {
			strictest = d
		}
	}
	for _, id := range orphans {
		tr.byFrame[id] = strictest
	}
	if d, ok := tr.byFrame[0]; ok {
		tr.top, tr.topOrigin, tr.topDoc = d, tr.origins[0], byID[0].DocumentID
	} else {
		tr.top = p.Decide("")
	}
	return tr
}

// strictest is the strictest rule of any frame of the tab.
func (tr *tabRules) strictest() policy.Decision {
	d := tr.top
	for _, fd := range tr.byFrame {
		if fd.Rule > d.Rule {
			d = fd
		}
	}
	return d
}

// blockedFrame returns a blocked frame of the tab, the lowest id first.
func (tr *tabRules) blockedFrame() (int, policy.Decision, bool) {
	best := -1
	for id, d := range tr.byFrame {
		if d.Rule == policy.Block && (best < 0 || id < best) {
			best = id
		}
	}
	if best < 0 {
		return 0, policy.Decision{}, false
	}
	return best, tr.byFrame[best], true
}

// ruleFor is the rule an action falls under, and the origin it names: the
// ref's own frame; for a frame chain or trusted keys with no element,
// whose frame is known only in the page, the strictest of the tab; for
// selecting a tab, which changes nothing on a site, act unless the tab is
// blocked; else the top frame's.
func (tr *tabRules) ruleFor(spec protocol.Action, args protocol.ActArgs, entry *refcache.Entry, chain []string) (d policy.Decision, origin string, frame int) {
	switch {
	case entry != nil:
		if id, ok := tr.byDoc[entry.Key.DocumentID]; ok {
			return tr.byFrame[id], tr.origins[id], id
		}
	case len(chain) > 1, spec.Name == protocol.ActPress && args.Target == "" && args.Trusted:
		d := tr.strictest()
		if d.Rule == tr.top.Rule {
			return d, tr.topOrigin, 0
		}
		best := -1
		for id, fd := range tr.byFrame {
			if fd.Rule == d.Rule && (best < 0 || id < best) {
				best = id
			}
		}
		return d, tr.origins[best], best
	case spec.Name == protocol.ActTabSelect && tr.top.Rule != policy.Block:
		return policy.Decision{Rule: policy.Act}, tr.topOrigin, 0
	}
	return tr.top, tr.topOrigin, 0
}

// shownLine is the line of ref as the agent last saw it in tab, without
// its value (a field's value may be what the agent typed).
func (q *tabQueues) shownLine(tab int, ref uint64) (string, bool) {
	q.mu.Lock()
	el, ok := q.views[tab].elements[ref]
	q.mu.Unlock()
	if !ok {
		return "", false
	}
	el.Value = nil
	return frames.Line(el), true
}
