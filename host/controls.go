package host

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/grip-dev/grip/actlog"
	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/launcher"
	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/refcache"
)

// The person's controls (docs/person.md, "The person's controls") as
// the gate (host/gate.go) and the handlers use them:
//
//   - the person's own operations, pause, resume, log and policy, are
//     answered here;
//   - reads (snapshot, screenshot, dialog, wait…) pass gateRead, which the
//     gate runs: a blocked tab is refused, in the shared mode a tab not
//     shared is invisible, and the default tab is one agents may use;
//   - lists (tabs, downloads) leave out or mask what agents may not see;
//   - actions go through the action pipeline (host/act.go), whose
//     steps checkOwner and checkRule are here: refused while paused,
//     refused or put to the person according to the rule of the frame they
//     land in, and recorded.

// readKind says what a read looks at, which decides what a blocked frame
// inside an allowed page means for it.
type readKind int

const (
	readNone       readKind = iota // nothing of a page: no gate (a wait that only lets time pass)
	readSnapshot                   // blocked frames are left out of the text
	readInfo                       // the tab's URL or one element: no frame's content
	readProbe                      // searches every frame's text: refused with a blocked frame
	readScreenshot                 // shows every frame's pixels: refused with a blocked frame
)

// gateRead is the gate's check of a read (host/gate.go): it checks
// that agents may read *tab (0: the default tab) as kind says and sets
// *tab to the tab it checked, so the read cannot land on another.
func (h *Host) gateRead(ctx context.Context, tab *int, kind readKind) error {
	if h.person == nil || kind == readNone {
		return nil
	}
	checked, err := h.checkRead(ctx, *tab, kind)
	if err != nil {
		return err
	}
	*tab = checked
	return nil
}

// waitScope is what a wait reads: nothing when only time passes or when
// the element it waits for is gone already; a tab it names when it waits
// for a download; else the tab, and for text every frame's content.
func waitScope(h *Host, a *protocol.WaitArgs) readScope {
	switch {
	case a.Download:
		if a.Tab == 0 {
			return readScope{&a.Tab, readNone} // no page is read
		}
		return readScope{&a.Tab, readInfo}
	case a.MS > 0 && a.Text == "" && a.TextGone == "" && a.Gone == "" && a.URL == "":
		return readScope{&a.Tab, readNone} // only time passes
	case a.Text != "" || a.TextGone != "": // both read every frame's text
		return readScope{&a.Tab, readProbe}
	case a.Gone != "":
		ref, err := refcache.ParseRef(a.Gone)
		if err != nil {
			return readScope{&a.Tab, readNone} // wait refuses it
		}
		e, err := h.refs.Resolve(ref)
		if err != nil {
			return readScope{&a.Tab, readNone} // gone already: no page is read
		}
		a.Tab = e.Tab
	}
	return readScope{&a.Tab, readInfo}
}

// checkRead checks that agents may read tab (0: the default tab) and
// returns it.
func (h *Host) checkRead(ctx context.Context, tab int, kind readKind) (int, error) {
	p := h.person.policy.Current()
	tab, err := h.agentTab(ctx, p, tab)
	if err != nil {
		return 0, err
	}
	if p.Trivial() && kind == readSnapshot {
		// Every site is open; the pages of the built-in rules (extension
		// pages, file://) readTab leaves out as their frames come back.
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
		if id, d, ok := tr.blockedFrameFor(kind); ok { // host/withhold.go
			what := "waiting for text"
			if kind == readScreenshot {
				what = "a screenshot"
			}
			return 0, protocol.Errorf(protocol.CodePolicy, protocol.BoundaryPolicy,
				"take a snapshot instead: it leaves the blocked frame out",
				"%s of tab %d would look into its frame %d, which is blocked: %s of %s", what, tab, id, d.Why(), h.person.policy.File())
		}
	}
	return tab, nil
}

// agentTab returns the tab an agent's request is for: tab when its
// session may use it (host/sessions.go), else for 0 the session's default
// tab — the last it opened or selected — or the active tab, or in the
// shared mode the active tab if it may use it, else the tab most recently
// shared with it or opened by it.
func (h *Host) agentTab(ctx context.Context, p *policy.Policy, tab int) (int, error) {
	u := h.person
	s := sessionOf(ctx)
	if tab > 0 {
		if err := u.checkTab(p, s, tab); err != nil {
			return 0, err
		}
		return tab, nil
	}
	if cur := u.currentTab(s); cur > 0 {
		if ok, _ := u.mayUse(p, s, cur); ok {
			return cur, nil
		}
	}
	active, err := h.resolveTab(ctx, 0)
	if err == nil {
		ok, owner := u.mayUse(p, s, active)
		if ok {
			return active, nil
		}
		if owner != "" && p.Tabs != policy.TabsShared {
			return 0, u.errNotYourTab(active, owner)
		}
	}
	if p.Tabs != policy.TabsShared {
		return active, err
	}
	var res protocol.TabsResult
	if err := callExt(ctx, h, protocol.ExtTabs, protocol.TabsParams{}, &res); err != nil {
		return 0, err
	}
	exists := map[int]bool{}
	for _, t := range res.Tabs {
		exists[t.ID] = true
	}
	for _, id := range u.usableTabs(s) {
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
		"%s is blocked: %s of %s", where, d.Why(), h.person.policy.File())
}

// checkOwner is the action pipeline's check that the action's tab is one
// this agent's session may use (its own, one the person shared, or the
// person's under tabs = all; another session's is not_your_tab:
// host/sessions.go), and picks the default tab when it names none. A tab
// the action opens is judged by its URL in checkRule.
func (h *Host) checkOwner(ctx context.Context, a *action) error {
	if h.person == nil || a.spec.Name == protocol.ActTabNew {
		return nil
	}
	tab, err := h.agentTab(ctx, h.person.policy.Current(), a.target.tab)
	if err != nil {
		return err
	}
	a.target.tab, a.rec.Tab = tab, tab
	return nil
}

// adoptTab makes a tab an action opened its session's own and its default
// tab (host/sessions.go; the extension put it in the session's tab
// group), and locks it for the read back.
func (h *Host) adoptTab(ctx context.Context, a *action) (func(), error) {
	h.person.own(a.target.tab, sessionOf(ctx), true)
	return h.tabs.lock(ctx, a.target.tab)
}

// checkRule is the action pipeline's policy step: the rule of the frame
// the action lands in (and, for navigate or a new tab, of the URL it goes
// to) refuses it, lets it through, or puts it to the person.
func (h *Host) checkRule(ctx context.Context, a *action) error {
	u := h.person
	if u == nil {
		return nil
	}
	p := u.policy.Current()
	d, origin, where, err := h.decideRule(ctx, p, a)
	if err != nil {
		return err
	}
	if err := h.applyRule(ctx, p, d, origin, where, a.args.Action, &a.rec); err != nil {
		return err
	}
	if d.Rule != policy.Confirm {
		return nil
	}
	// The person may have paused, or edited the policy, while the
	// question was open.
	if u.isPaused() {
		return h.errPaused(ctx)
	}
	if p2 := u.policy.Current(); p2 != p {
		d2, origin2, where2, err := h.decideRule(ctx, p2, a)
		if err != nil {
			return err
		}
		if d2.Rule != policy.Confirm {
			return h.applyRule(ctx, p2, d2, origin2, where2, a.args.Action, &a.rec)
		}
	}
	return nil
}

// decideRule returns the rule an action falls under, the origin it lands
// on, and how to name the place to the agent.
func (h *Host) decideRule(ctx context.Context, p *policy.Policy, a *action) (policy.Decision, string, string, error) {
	spec, tab := a.spec, a.target.tab
	if spec.Name == protocol.ActTabNew {
		return p.DecideNavigation(a.args.Text), originOf(a.args.Text), nameURL(a.args.Text), nil
	}
	d, origin, where := policy.Decision{Rule: policy.Act}, "", fmt.Sprintf("tab %d", tab)
	if spec.Name == protocol.ActTabClose && h.person != nil && h.person.ownerOf(tab) == sessionOf(ctx) && sessionOf(ctx) != "" {
		// A session's own tab that went to a blocked site (a redirect, a
		// link) may always be closed: closing reads nothing of the page,
		// and it is the agent's way out. The person's tabs are judged as
		// before.
		return d, "", where, nil
	}
	tr, err := h.frameRules(ctx, p, tab)
	switch {
	case err != nil && !p.Trivial():
		return d, "", "", err
	case err == nil:
		a.rec.Origin = tr.topOrigin
		var frame int
		d, origin, frame = tr.ruleFor(spec, a.args, a.target.entry, a.target.chain)
		if frame != 0 {
			where = fmt.Sprintf("frame %d of tab %d", frame, tab)
		}
		if a.target.entry == nil && a.args.Epoch == 0 && tr.topDoc != "" && (!p.Trivial() || d.Rule != policy.Act) {
			// Pin the page the rule was decided on: if it navigates
			// before the action lands, the action is refused.
			a.args.Epoch = h.tabs.observe(tab, tr.topDoc)
		}
	}
	if spec.Ext == string(protocol.ExtDialog) && err == nil {
		// A dialog is judged by the frame that opened it (host/withhold.go).
		if dd, ok := h.dialogDecision(ctx, p, tab, tr); ok && dd.Rule > d.Rule {
			d, where = dd, fmt.Sprintf("the dialog of tab %d", tab)
		}
	}
	if spec.Name == protocol.ActNavigate {
		if nd := p.DecideNavigation(a.args.Text); nd.Rule > d.Rule {
			d, origin, where = nd, originOf(a.args.Text), nameURL(a.args.Text)
		}
	}
	return d, origin, where, nil
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
			"%s on %s is refused: the site is read-only for agents: %s of %s", action, origin, d.Why(), h.person.policy.File())
	case policy.Confirm:
		rec.Rule = d.Why()
		if h.noOneToAsk() {
			return protocol.Errorf(protocol.CodeNotConfirmed, protocol.BoundaryUser,
				"ask whoever launched this browser to change the rule for this site to act in "+h.person.policy.File()+
					" (grip policy URL says which rule a URL falls under), or to run it headed (grip launch --headed) and answer there",
				"%s on %s needs the person's Allow (%s), and no one can see the question in this headless browser grip launch started: there is no window, notification or popup",
				action, origin, d.Why())
		}
		if err := h.askPerson(ctx, p, protocol.ConfirmParams{TabID: rec.Tab, Origin: origin, Action: action,
			Target: rec.Target, Detail: rec.Detail, Client: rec.Client, Session: rec.Session, Rule: d.Why()}); err != nil {
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
	err := extCall(cctx, h.port, protocol.ExtConfirm, cp, &rep)
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

// noOneToAsk says no one can answer a question in this browser: a
// headless one grip launch started has no window, notification or popup
// to show it, so a question is refused at once rather than left to time
// out (docs/person.md, "A browser grip launched").
func (h *Host) noOneToAsk() bool {
	l := h.cfg.Launch
	return l != nil && l.Headless
}

// outcomeOf is how the record names an operation's end: ok, the error's
// code, or cancelled when the request ended because its client went away
// (its connection closed) rather than because anything refused it.
func outcomeOf(ctx context.Context, err error) string {
	switch {
	case err == nil:
		return "ok"
	case ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)):
		return outcomeCancelled
	}
	return string(protocol.AsError(err).Code)
}

// outcomeCancelled is the record's outcome of a request its client gave
// up on before it ended.
const outcomeCancelled = "cancelled"

// errPaused refuses an action while agents are paused, saying whose
// pause it is (the person's, or an agent session's: grip pause, MCP
// browser_pause) and how it is lifted in this browser.
func (h *Host) errPaused(ctx context.Context) error {
	return protocol.Errorf(protocol.CodePaused, protocol.BoundaryUser,
		h.person.lift+"; wait for it, do not retry in a loop",
		"%s: every action of every agent is refused until the pause is lifted", h.pausedWho(ctx))
}

// pausedWho says whose the pause is, to the session that asks.
func (h *Host) pausedWho(ctx context.Context) string {
	_, by := h.person.pausedByWhom()
	switch {
	case by != "" && by == sessionOf(ctx):
		return fmt.Sprintf("this session (%s) paused agents itself, not the person", by)
	case by != "":
		return fmt.Sprintf("agent session %s paused agents, not the person", by)
	}
	return "the person paused agents in this browser"
}

// pauseLift says how the pause is lifted in this browser, for the agent
// to pass on: a headless browser grip launch started has no popup, and
// only its launcher's token lifts the pause there (docs/person.md,
// "A browser grip launched").
func pauseLift(l *launcher.Launch) string {
	switch {
	case l != nil && l.Headless:
		return "no one can resume from a popup in this headless browser grip launch started: whoever launched it lifts the pause with grip resume --token-file FILE (the file grip launch printed)"
	case l != nil && l.ResumeSHA256 != "":
		return "the person resumes from grip's popup, or whoever launched the browser runs grip resume --token-file FILE (the file grip launch printed)"
	}
	return "the person resumes from grip's popup, or allows grip resume when the browser asks them"
}

// resume lifts the pause once the person allows it in the browser: the
// pause is theirs, and an agent that could lift it alone would make it
// worthless. In a browser grip launch started, the launcher stands for the
// person: its token (args.Token) lifts the pause without asking, and in a
// headless one, where no one could answer, resume without it is refused at
// once (docs/person.md, "A browser grip launched").
func (h *Host) resume(ctx context.Context, args protocol.ResumeArgs) (protocol.PersonState, error) {
	u := h.person
	launch := h.cfg.Launch
	if args.Token != "" && (launch == nil || launch.ResumeSHA256 == "") {
		return protocol.PersonState{}, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryUser,
			"the person resumes agents here: from grip's popup, or by allowing grip resume (without --token-file) in the browser",
			"this browser was not started by grip launch, so no token lifts its pause")
	}
	rec := actlog.Entry{Action: protocol.OpResume, Client: clientOf(ctx), Session: sessionOf(ctx)}
	var err error
	switch {
	case args.Token != "":
		// Checked paused or not, so a stale token file is found out, and
		// every try is on the record.
		rec.Detail = "with the launcher's token"
		if !launch.TokenMatches(args.Token) {
			err = protocol.Errorf(protocol.CodeNotConfirmed, protocol.BoundaryUser,
				"use the token file grip launch wrote for this browser (its profile folder's "+launcher.ResumeTokenName+"); a new launch makes a new one",
				"the token is not the one grip launch made for this browser")
		}
	case !u.isPaused():
		return u.state(), nil
	case launch != nil && launch.Headless:
		err = protocol.Errorf(protocol.CodeNotConfirmed, protocol.BoundaryUser,
			"ask whoever launched this browser: they resume it with grip resume --token-file FILE (the file grip launch printed)",
			"no one can answer in this headless browser that grip launch started, so grip resume cannot ask")
	default:
		err = h.askPerson(ctx, u.policy.Current(), protocol.ConfirmParams{Action: protocol.OpResume, Client: rec.Client,
			Detail: "lift the pause: agents may act again"})
		rec.Confirmed = err == nil
	}
	rec.Outcome = outcomeOf(ctx, err)
	u.record(rec)
	if err != nil {
		return protocol.PersonState{}, err
	}
	st := u.setPaused(false, "")
	tellExtension(ctx, h, protocol.ExtPaused, protocol.PausedParams{Paused: false})
	return st, nil
}

// pause answers OpPause: an agent may always stop itself and the others.
func (h *Host) pause(ctx context.Context, _ noArgs) (protocol.PersonState, error) {
	u := h.person
	st := u.setPaused(true, sessionOf(ctx))
	u.record(actlog.Entry{Action: protocol.OpPause, Outcome: "ok", Client: clientOf(ctx), Session: sessionOf(ctx)})
	h.log.Info("paused at an agent client's request", "client", clientOf(ctx))
	// The reply waits (bounded) for the extension to keep the pause, so a
	// browser that closes or crashes right after is still paused when it
	// comes back.
	select {
	case <-tellExtension(ctx, h, protocol.ExtPaused, protocol.PausedParams{Paused: true, By: st.PausedBy}):
	case <-time.After(2 * time.Second):
	case <-ctx.Done():
	}
	return st, nil
}

// showLog answers OpLog: the person's record of what agents did, of the
// asking session only unless args.All (grip log --all): an agent sees
// what it did, not what other agents did in the person's browser
// (docs/person.md, "The person's controls"). The popup reads the
// whole record through personView.
func (h *Host) showLog(ctx context.Context, args protocol.LogArgs) (protocol.LogResult, error) {
	u := h.person
	q := actlog.Query{Tab: args.Tab, Limit: args.Limit}
	if !args.All {
		q.Session = sessionOf(ctx)
	}
	res := protocol.LogResult{Entries: u.logEntries(q)}
	if u.log != nil {
		res.File = u.log.Path()
	}
	return res, nil
}

// showPolicy answers OpPolicy: the policy in force, or the rule a URL
// falls under.
func (h *Host) showPolicy(_ context.Context, args protocol.PolicyArgs) (protocol.PolicyResult, error) {
	return h.person.policyResult(args), nil
}

// listTabs answers OpTabs: the browser's tabs, blocked ones without URL or
// title, and in the shared mode only those agents may use.
func (h *Host) listTabs(ctx context.Context, _ noArgs) (protocol.TabsResult, error) {
	var res protocol.TabsResult
	if err := callExt(ctx, h, protocol.ExtTabs, protocol.TabsParams{}, &res); err != nil {
		return res, err
	}
	if res.Tabs == nil {
		res.Tabs = []protocol.Tab{}
	}
	if h.person != nil {
		res = h.filterTabs(ctx, res)
	}
	// The tab a command without --tab goes to, which after grip tabs new
	// is not the one the browser shows in front: the session's own when it
	// has one it may use, else the active tab (asked for only when the
	// list has several, one per window).
	def := 0
	if h.person != nil {
		if cur := h.person.currentTab(sessionOf(ctx)); cur > 0 {
			if ok, _ := h.person.mayUse(h.person.policy.Current(), sessionOf(ctx), cur); ok {
				def = cur
			}
		}
	}
	if def == 0 {
		active := 0
		for _, t := range res.Tabs {
			if t.Active {
				active++
				def = t.ID
			}
		}
		if active > 1 {
			def, _ = h.resolveTab(ctx, 0)
		}
		if h.person != nil {
			if ok, _ := h.person.mayUse(h.person.policy.Current(), sessionOf(ctx), def); !ok {
				def = 0 // shared mode: no tab is this session's default yet
			}
		}
	}
	for i := range res.Tabs {
		res.Tabs[i].Default = res.Tabs[i].ID == def && def > 0 && !res.Tabs[i].Others
	}
	return res, nil
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
		// The URL with its query, the values of secret-named parameters
		// masked; never its fragment or user info, which can hold secrets
		// of any name (docs/person.md, "The person's controls": the record).
		if u, err := url.Parse(args.Text); err == nil && u.Scheme != "" && u.Host != "" {
			u.RawQuery, u.ForceQuery = maskQuery(u.RawQuery), false
			u.Fragment, u.RawFragment, u.User = "", "", nil
			return "to " + u.String()
		}
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

// maskedValue stands in the record for a secret parameter's value.
const maskedValue = "***"

// maskQuery is a raw query as the record keeps it: each parameter in its
// order, the value of one whose name is a secret's (isSecretQueryName)
// masked.
func maskQuery(raw string) string {
	if raw == "" {
		return ""
	}
	pairs := strings.Split(raw, "&")
	for i, p := range pairs {
		rawName, _, hasValue := strings.Cut(p, "=")
		name, err := url.QueryUnescape(rawName)
		if err != nil {
			name = rawName
		}
		if hasValue && isSecretQueryName(name) {
			pairs[i] = rawName + "=" + maskedValue
		}
	}
	return strings.Join(pairs, "&")
}

// secretQueryWord matches, as a whole word, the names URLs give their
// credentials beyond a field's (secretName): api_key, sig, sid, code …
var secretQueryWord = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(key|apikey|sig|signature|auth|authorization|session|sessionid|sid|code|jwt|nonce|credentials?|pwd|passwd|hmac|ticket)\b`)
})

// isSecretQueryName says whether a query parameter's value is a secret by
// its name: the fields' secret-name matcher, or a credential's word, on
// the name split into words at _ - . and camelCase ("wpEditToken",
// "api_key", "X-Amz-Signature").
func isSecretQueryName(name string) bool {
	var b strings.Builder
	prev := rune(0)
	for _, r := range name {
		switch {
		case r == '_' || r == '-' || r == '.' || r == '[' || r == ']':
			r = ' '
		case unicode.IsUpper(r) && unicode.IsLower(prev):
			b.WriteByte(' ')
		}
		b.WriteRune(r)
		prev = r
	}
	words := b.String()
	return isSecretName(words) || secretQueryWord().MatchString(words)
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
	if h.person == nil || r == nil {
		return
	}
	p := h.person.policy.Current()
	_, tabBlocked := p.BlockedOwn(r.Tab.URL)
	if _, went := p.BlockedOwn(r.Changes.URL); tabBlocked || went {
		r.Tab.URL, r.Tab.Title = "", ""
		r.Changes.URL, r.Changes.Title = "", ""
	}
}

// filterTabs lists blocked tabs without URL or title, names each tab's
// owning session, lists another session's tabs with their owner only (the
// agent may not use them, and their URL and title are that agent's work)
// and, in the shared mode, leaves out the person's tabs not shared.
func (h *Host) filterTabs(ctx context.Context, res protocol.TabsResult) protocol.TabsResult {
	p := h.person.policy.Current()
	s := sessionOf(ctx)
	out := protocol.TabsResult{Tabs: []protocol.Tab{}}
	for _, t := range res.Tabs {
		ok, owner := h.person.mayUse(p, s, t.ID)
		if !ok && owner == "" {
			continue
		}
		t.Owner = h.person.ownerOf(t.ID)
		if !ok {
			t.URL, t.Title, t.Others = "", "", true
			t.OwnerIdle = h.person.idle(owner)
			t.Dialog = nil
		} else if _, blocked := p.BlockedOwn(t.URL); blocked {
			// A blank page is its opener's (host/withhold.go).
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
	if h.person == nil {
		return
	}
	p := h.person.policy.Current()
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
		if err := callExt(ctx, h, protocol.ExtFrames, protocol.TabParams{TabID: tab}, &fr); err == nil {
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
	h.judgeBlankTop(ctx, p, tab, infos, tr) // a blank page is its opener's (host/withhold.go)
	all := !h.mayRead(ctx, p, tab) || tr.top.Rule == policy.Block
	for i, f := range raw.Frames {
		if all || tr.byFrame[f.FrameID].Rule == policy.Block {
			raw.Frames[i] = protocol.ExtFrame{FrameID: f.FrameID, DocumentID: f.DocumentID, Error: frames.ReasonBlocked}
		}
	}
	if all {
		raw.Tab.URL, raw.Tab.Title = "", ""
	}
}
