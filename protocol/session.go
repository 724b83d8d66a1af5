package protocol

// Sessions (docs/sessions.md, "Sessions"): every agent connection
// belongs to one; a session owns the tabs it opened, and the person can
// end its access from the popup. The handoff hands one step of a task to
// the person and waits for them.

// DefaultSession is the session of a connection whose hello names none:
// the CLI without --session or GRIP_SESSION.
const DefaultSession = "cli"

// OpHandoff asks the person to do a step on a tab themselves: HandoffArgs
// → ActionResult (what changed on the tab while they did it).
const OpHandoff = "handoff"

// HandoffArgs are the arguments of OpHandoff: why the person is asked
// (shown to them), the tab (0: the session's default tab) and how long to
// wait for their answer (0: DefaultHandoffTimeoutMS).
type HandoffArgs struct {
	Why       string `json:"why"`
	Tab       int    `json:"tab,omitempty"`
	TimeoutMS int    `json:"timeout_ms,omitempty"`
}

// Bounds of a handoff's wait: a login or a second factor takes minutes.
const (
	DefaultHandoffTimeoutMS = 5 * 60 * 1000
	MaxHandoffTimeoutMS     = 10 * 60 * 1000
)

// ConfirmKindHandoff marks a ConfirmParams that hands a step to the
// person: the extension shows Done and Refuse instead of Allow and Deny.
const ConfirmKindHandoff = "handoff"

// TabOwner is one tab a session owns.
type TabOwner struct {
	TabID   int    `json:"tabId"`
	Session string `json:"session"`
}

// SessionView is one session as the popup lists it.
type SessionView struct {
	Name string `json:"name"`
	// Connections is how many agent connections of the session are open.
	Connections int `json:"connections"`
	// Tabs are the tabs it owns.
	Tabs []int `json:"tabs"`
	// Last is when it last made a request (RFC 3339).
	Last  string `json:"last,omitempty"`
	Ended bool   `json:"ended,omitempty"`
}

// Requests the extension sends the host about sessions (the popup, and
// the tab groups the person rearranges).
const (
	// HostEndSession: the person ended the session's access: its later
	// requests are refused.
	HostEndSession HostCall[SessionParams, PersonState] = "end_session"
	// HostAllowSession: the person let an ended session back in.
	HostAllowSession HostCall[SessionParams, PersonState] = "allow_session"
	// HostReleaseTab: the person took a tab out of its session's group:
	// it is theirs now.
	HostReleaseTab HostCall[TabParams, PersonState] = "release_tab"
)

// SessionParams names a session.
type SessionParams struct {
	Session string `json:"session"`
}
