package host

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
)

// Sessions (docs/sessions.md, "Sessions"): every agent connection
// belongs to one, named in its hello. A session owns the tabs it opened
// (and the tabs their pages opened); it may use those, the tabs the person
// shared from the popup, and under tabs = all the person's other tabs —
// never another named session's. The default session (an agent that
// names none) works as agents did before sessions: its tabs are in its own
// group and are its default tab, but every agent may use them. The person can end a session's access from the
// popup. The state lives with the person's controls (personControls) and
// is mirrored by the extension, which sends it in its hello.

// session is what the host knows of one session.
type session struct {
	conns int       // open connections
	last  time.Time // its last request
	ended bool      // the person ended its access
	// current is its default tab: the last tab it opened or selected (0:
	// none, the person's active tab is the default).
	current int
}

// sessionKey carries the connection's session to its requests.
type sessionKey struct{}

func withSession(ctx context.Context, name string) context.Context {
	return context.WithValue(ctx, sessionKey{}, name)
}

// sessionOf is the session a request belongs to: DefaultSession when its
// connection named none (and for the host's own calls).
func sessionOf(ctx context.Context) string {
	if s, ok := ctx.Value(sessionKey{}).(string); ok && s != "" {
		return s
	}
	return protocol.DefaultSession
}

// helloSession reads the session of a socket hello, cleaned like a
// client's name (it shows in the popup, the log and a tab group's title).
func helloSession(req protocol.Request) string {
	var args protocol.HelloArgs
	if decodeArgs(req.Args, &args) != nil {
		return protocol.DefaultSession
	}
	if s := cleanClient(args.Session); s != "" {
		return s
	}
	return protocol.DefaultSession
}

// sessionLocked returns s's state, made on first use. u.mu is held.
func (u *personControls) sessionLocked(s string) *session {
	st := u.sessions[s]
	if st == nil {
		st = &session{}
		u.sessions[s] = st
	}
	return st
}

// connect counts a connection of session s; the returned func ends it.
func (u *personControls) connect(s string) func() {
	if u == nil {
		return func() {}
	}
	u.mu.Lock()
	st := u.sessionLocked(s)
	st.conns++
	st.last = time.Now()
	u.mu.Unlock()
	return func() {
		u.mu.Lock()
		st.conns--
		u.mu.Unlock()
	}
}

// checkSession refuses every request of a session the person ended, and
// notes when the session was last heard from.
func (u *personControls) checkSession(ctx context.Context) error {
	if u == nil {
		return nil
	}
	s := sessionOf(ctx)
	u.mu.Lock()
	st := u.sessionLocked(s)
	st.last = time.Now()
	ended := st.ended
	u.mu.Unlock()
	if ended {
		return protocol.Errorf(protocol.CodeSessionEnded, protocol.BoundaryUser,
			"stop working in this browser and tell the person you could not finish; do not start another session to get around it",
			"the person ended session %q's access from the grip popup: every request of it is refused", s)
	}
	return nil
}

// ownerOf is the session that owns tab, "" for the person's own.
func (u *personControls) ownerOf(tab int) string {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.owners[tab]
}

// own makes tab session s's (a tab it opened, or one its tab's page
// opened) and, with current, its default tab.
func (u *personControls) own(tab int, s string, current bool) {
	if u == nil || tab <= 0 {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	u.owners[tab] = s
	delete(u.shared, tab)
	if current {
		u.sessionLocked(s).current = tab
	}
}

// setCurrent makes tab session s's default tab (grip tabs select).
func (u *personControls) setCurrent(s string, tab int) {
	if u == nil || tab <= 0 {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	u.sessionLocked(s).current = tab
}

// release hands tab to the person: dragged out of its session's group,
// or shared from the popup.
func (u *personControls) release(tab int) {
	u.mu.Lock()
	defer u.mu.Unlock()
	delete(u.owners, tab)
	for _, st := range u.sessions {
		if st.current == tab {
			st.current = 0
		}
	}
}

// maxClosedOwners bounds the closed tabs whose owners are kept.
const maxClosedOwners = 4096

// tabGone forgets a closed tab, keeping which session owned it.
func (u *personControls) tabGone(tab int) {
	if u == nil {
		return
	}
	u.mu.Lock()
	if o := u.owners[tab]; o != "" && o != protocol.DefaultSession {
		if u.closedOwners == nil || len(u.closedOwners) >= maxClosedOwners {
			u.closedOwners = map[int]string{} // the oldest matter least
		}
		u.closedOwners[tab] = o
	}
	u.mu.Unlock()
	u.share(tab, false)
	u.release(tab)
}

// mayLearnOf reports whether session s may learn of what tab did (a
// download it started) under p: as mayUse, and a closed tab another
// named session owned stays that session's.
func (u *personControls) mayLearnOf(p *policy.Policy, s string, tab int) bool {
	u.mu.Lock()
	o, closed := u.closedOwners[tab]
	u.mu.Unlock()
	if closed {
		return o == s
	}
	ok, _ := u.mayUse(p, s, tab)
	return ok
}

// endSession ends s's access: its requests are refused from now on, until
// the person lets it back in from the popup (the extension keeps the
// ended sessions in its local storage, so a browser's restart does not
// lift it). Its tabs stay its own, so no other agent gets its work.
func (u *personControls) endSession(s string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.sessionLocked(s).ended = true
}

// allowSession lets an ended session back in.
func (u *personControls) allowSession(s string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if st := u.sessions[s]; st != nil {
		st.ended = false
	}
}

// mayUse reports whether session s may use tab under p, and if not,
// which other session owns it. A named session's tabs are its own alone;
// the default session's are common to every agent.
func (u *personControls) mayUse(p *policy.Policy, s string, tab int) (ok bool, owner string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	o := u.owners[tab]
	switch {
	case o == s:
		return true, ""
	case o == protocol.DefaultSession:
		// The default session is the agent that named none, as before
		// sessions: its tabs are every agent's, as tabs agents opened were.
		return true, ""
	case o != "":
		return false, o
	}
	if _, shared := u.shared[tab]; shared {
		return true, ""
	}
	return p.Tabs != policy.TabsShared, ""
}

// checkTab refuses a tab session s may not use under p: another session's
// is not_your_tab, one not shared in the shared mode is the policy's.
func (u *personControls) checkTab(p *policy.Policy, s string, tab int) error {
	ok, owner := u.mayUse(p, s, tab)
	switch {
	case ok:
		return nil
	case owner != "":
		return u.errNotYourTab(tab, owner)
	}
	return protocol.Errorf(protocol.CodePolicy, protocol.BoundaryPolicy,
		"use a tab the person shared from the grip popup (\"Let agents use this tab\") or one you opened with grip tabs new; grip tabs lists them",
		"tab %d is not shared with agents (or does not exist): tabs = shared in %s", tab, u.policy.File())
}

// idle reports whether no connection of session s is open.
func (u *personControls) idle(s string) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	st := u.sessions[s]
	return st == nil || st.conns == 0
}

// errNotYourTab refuses tab, owner's. When no connection of owner is
// open, the owner may be this very agent under its old name (a restarted
// grip mcp is a new session, docs/sessions.md "Sessions"): the refusal
// says how to work in that session again.
func (u *personControls) errNotYourTab(tab int, owner string) error {
	if u.idle(owner) {
		return protocol.Errorf(protocol.CodeNotYourTab, protocol.BoundarySession,
			fmt.Sprintf("if session %[1]q was yours (a restarted grip mcp is a new session), work in it again: "+
				"grip mcp --session %[1]s (or GRIP_SESSION=%[1]s in the MCP server's environment), grip --session %[1]s … for the CLI; "+
				"else leave it alone: open your own tab with grip tabs new URL", owner),
			"tab %d belongs to session %q, which has no agent connected now", tab, owner)
	}
	return protocol.Errorf(protocol.CodeNotYourTab, protocol.BoundarySession,
		"leave it alone: open your own tab with grip tabs new URL, or use one grip tabs lists without an owner",
		"tab %d belongs to session %q, another agent's", tab, owner)
}

// currentTab is s's default tab, 0 when it has none.
func (u *personControls) currentTab(s string) int {
	u.mu.Lock()
	defer u.mu.Unlock()
	if st := u.sessions[s]; st != nil {
		return st.current
	}
	return 0
}

// usableTabs are the tabs session s may use in the shared mode, the most
// recently shared or opened first: its own, then the person's shared.
func (u *personControls) usableTabs(s string) []int {
	u.mu.Lock()
	var own []int
	for id, o := range u.owners {
		if o == s {
			own = append(own, id)
		}
	}
	u.mu.Unlock()
	slices.Sort(own)
	slices.Reverse(own) // a newer tab has a higher id
	return append(own, u.latestShared()...)
}

// sessionViews lists the sessions for the popup: those connected, owning
// tabs, ended, or heard from in the last ten minutes; by name.
func (u *personControls) sessionViews() []protocol.SessionView {
	u.mu.Lock()
	defer u.mu.Unlock()
	tabs := map[string][]int{}
	for id, o := range u.owners {
		tabs[o] = append(tabs[o], id)
	}
	out := []protocol.SessionView{}
	names := map[string]bool{}
	for name := range u.sessions {
		names[name] = true
	}
	for name := range tabs {
		names[name] = true
	}
	for name := range names {
		st := u.sessions[name]
		v := protocol.SessionView{Name: name, Tabs: tabs[name]}
		if v.Tabs == nil {
			v.Tabs = []int{}
		}
		slices.Sort(v.Tabs)
		if st != nil {
			v.Connections, v.Ended = st.conns, st.ended
			if !st.last.IsZero() {
				v.Last = st.last.UTC().Format(time.RFC3339)
			}
		}
		recent := st != nil && (st.conns > 0 || st.ended || time.Since(st.last) < 10*time.Minute)
		if len(v.Tabs) > 0 || recent {
			out = append(out, v)
		}
	}
	slices.SortFunc(out, func(a, b protocol.SessionView) int {
		if a.Name < b.Name {
			return -1
		}
		if a.Name > b.Name {
			return 1
		}
		return 0
	})
	return out
}

// seedSessions takes the sessions' tabs and the ended sessions the
// extension kept, so a new host starts with them before any agent can
// reach it.
func (u *personControls) seedSessions(hello protocol.ExtensionHello) {
	for _, o := range hello.OwnedTabs {
		if o.TabID > 0 && o.Session != "" {
			u.owners[o.TabID] = o.Session
		}
	}
	for _, s := range hello.EndedSessions {
		if s != "" {
			u.sessionLocked(s).ended = true
		}
	}
}

// sessionAccess answers the popup's HostEndSession and HostAllowSession: the
// person ends a session's access, or lets an ended one back in.
func (h *Host) sessionAccess(allow bool, s string) (protocol.PersonState, error) {
	u := h.person
	req := string(protocol.HostEndSession)
	if allow {
		req = string(protocol.HostAllowSession)
	}
	if s == "" {
		return protocol.PersonState{}, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "", "%s: no session named", req)
	}
	if allow {
		u.allowSession(s)
		h.log.Info("the person let a session back in from the browser", "session", s)
	} else {
		u.endSession(s)
		h.log.Info("the person ended a session from the browser", "session", s)
	}
	return u.state(), nil
}

// openedBy gives a tab a session's page opened (a link to a new tab, a
// popup) to that session, as the extension puts it in the session's group.
func (u *personControls) openedBy(tab, opener int) {
	if u == nil || tab <= 0 || opener <= 0 {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if o := u.owners[opener]; o != "" {
		u.owners[tab] = o
	}
}

// personKey marks the person's own requests from the popup ("Snapshot
// this tab"): a session's tab is not kept from the person.
type personKey struct{}

func asPerson(ctx context.Context) context.Context {
	return context.WithValue(ctx, personKey{}, true)
}

// mayRead reports whether the request's session may read tab under p.
func (h *Host) mayRead(ctx context.Context, p *policy.Policy, tab int) bool {
	ok, owner := h.person.mayUse(p, sessionOf(ctx), tab)
	if person, _ := ctx.Value(personKey{}).(bool); person && owner != "" {
		return true
	}
	return ok
}

// foreignRef is the refusal of a ref that did not resolve: not_your_tab
// when it was handed out for another session's tab (that session's
// elements are not this one's to learn about, gone or not), else err.
func (h *Host) foreignRef(ctx context.Context, ref uint64, err error) error {
	if h.person == nil {
		return err
	}
	if tab, ok := h.refs.TabOf(ref); ok {
		if ok, owner := h.person.mayUse(h.person.policy.Current(), sessionOf(ctx), tab); !ok && owner != "" {
			return h.person.errNotYourTab(tab, owner)
		}
	}
	return err
}
