package host

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
)

func newTestControls() *personControls {
	return &personControls{shared: map[int]time.Time{}, owners: map[int]string{}, sessions: map[string]*session{},
		policy: policy.Open("/nonexistent/grip-policy", true, nil)}
}

// Who may use which tab: a named session its own, the person's shared
// tabs, the default session's tabs and, under tabs = all, the person's;
// never another named session's.
func TestSessionMayUse(t *testing.T) {
	u := newTestControls()
	u.own(1, "alpha", true)
	u.own(2, "beta", true)
	u.own(3, protocol.DefaultSession, true)
	u.share(4, true)
	all := &policy.Policy{Tabs: policy.TabsAll}
	shared := &policy.Policy{Tabs: policy.TabsShared}
	for _, c := range []struct {
		p       *policy.Policy
		session string
		tab     int
		ok      bool
		owner   string
	}{
		{all, "alpha", 1, true, ""},
		{all, "alpha", 2, false, "beta"},
		{all, "alpha", 3, true, ""},
		{all, "alpha", 4, true, ""},
		{all, "alpha", 5, true, ""},     // the person's, under tabs = all
		{shared, "alpha", 5, false, ""}, // the person's, not shared
		{shared, "alpha", 1, true, ""},
		{shared, "alpha", 4, true, ""},
		{all, protocol.DefaultSession, 1, false, "alpha"},
		{all, protocol.DefaultSession, 3, true, ""},
	} {
		ok, owner := u.mayUse(c.p, c.session, c.tab)
		if ok != c.ok || owner != c.owner {
			t.Errorf("tabs = %s, %s on tab %d: %v %q, want %v %q", c.p.Tabs, c.session, c.tab, ok, owner, c.ok, c.owner)
		}
	}
	if err := u.checkTab(all, "alpha", 2); protocol.AsError(err).Code != protocol.CodeNotYourTab || protocol.AsError(err).Boundary != protocol.BoundarySession {
		t.Errorf("another session's tab: %v", err)
	}
	if err := u.checkTab(shared, "alpha", 5); protocol.AsError(err).Code != protocol.CodePolicy {
		t.Errorf("the person's unshared tab in the shared mode: %v", err)
	}
	// A tab the person shares from the popup, or drags out of its group,
	// is theirs.
	u.release(2)
	if ok, _ := u.mayUse(all, "alpha", 2); !ok || u.currentTab("beta") != 0 {
		t.Errorf("released tab 2: alpha may use it %v; beta's default tab %d", ok, u.currentTab("beta"))
	}
	// A tab a session's page opened is the session's.
	u.openedBy(7, 1)
	if u.ownerOf(7) != "alpha" {
		t.Errorf("tab 7 opened by alpha's tab 1 is owned by %q", u.ownerOf(7))
	}
	u.tabGone(1)
	if u.ownerOf(1) != "" || u.currentTab("alpha") != 0 {
		t.Errorf("a closed tab keeps its owner %q or stays the default %d", u.ownerOf(1), u.currentTab("alpha"))
	}
}

// An ended session is refused whatever it asks, with its own code; the
// others are not; the popup lists it as ended.
func TestEndedSession(t *testing.T) {
	u := newTestControls()
	done := u.connect("alpha")
	u.own(9, "alpha", true)
	u.endSession("alpha")
	err := u.checkSession(withSession(context.Background(), "alpha"))
	if pe := protocol.AsError(err); pe.Code != protocol.CodeSessionEnded || pe.Hint == "" {
		t.Errorf("ended session: %v", err)
	}
	if err := u.checkSession(withSession(context.Background(), "beta")); err != nil {
		t.Errorf("another session: %v", err)
	}
	views := u.sessionViews()
	if len(views) != 2 || views[0].Name != "alpha" || !views[0].Ended || views[0].Connections != 1 || len(views[0].Tabs) != 1 {
		t.Errorf("sessions: %+v", views)
	}
	done()
	// The extension's hello brings the owners and ended sessions back.
	u2 := newTestControls()
	u2.seedSessions(protocol.ExtensionHello{OwnedTabs: []protocol.TabOwner{{TabID: 9, Session: "alpha"}}, EndedSessions: []string{"alpha"}})
	if u2.ownerOf(9) != "alpha" || u2.checkSession(withSession(context.Background(), "alpha")) == nil {
		t.Errorf("seeded: owner %q", u2.ownerOf(9))
	}
}

func TestHelloSession(t *testing.T) {
	for in, want := range map[string]string{"": protocol.DefaultSession, "  agent a ": "agent a", "x\x00y": "xy"} {
		raw, _ := protocol.Marshal(protocol.HelloArgs{Protocol: protocol.Version, Session: in})
		if got := helloSession(protocol.Request{Op: protocol.OpHello, Args: raw}); got != want {
			t.Errorf("hello session %q: %q, want %q", in, got, want)
		}
	}
}

// A session's tab refused while no agent of it is connected (a restarted
// grip mcp is a new session) says how to work in that session again; while
// it is connected, to leave it alone.
func TestNotYourTabNamesTheWayBack(t *testing.T) {
	u := newTestControls()
	u.own(1, "claude-code-4812", true)
	all := &policy.Policy{Tabs: policy.TabsAll}
	gone := protocol.AsError(u.checkTab(all, "claude-code-4990", 1))
	if gone == nil || gone.Code != protocol.CodeNotYourTab || !strings.Contains(gone.Message, "no agent connected") ||
		!strings.Contains(gone.Hint, "grip mcp --session claude-code-4812") || !strings.Contains(gone.Hint, "GRIP_SESSION=claude-code-4812") {
		t.Errorf("the tab of a session with no connection: %+v", gone)
	}
	end := u.connect("claude-code-4812")
	live := protocol.AsError(u.checkTab(all, "claude-code-4990", 1))
	if live == nil || live.Code != protocol.CodeNotYourTab || strings.Contains(live.Hint, "--session") || !strings.Contains(live.Hint, "leave it alone") {
		t.Errorf("the tab of a connected session: %+v", live)
	}
	end()
	if err := protocol.AsError(u.checkTab(all, "claude-code-4990", 1)); err == nil || !strings.Contains(err.Hint, "--session claude-code-4812") {
		t.Errorf("after its last connection closed: %+v", err)
	}
}
