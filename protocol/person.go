package protocol

// The person's controls over agents (docs/person.md, "The person's
// controls"): the pause switch, the policy file, the record of what agents
// did, tabs shared with agents, and actions that wait for the person's
// Allow. The socket operations an agent or the CLI may call, then the
// requests between host and extension, then their types.

// Socket operations of the person's controls.
const (
	OpPause  = "pause"  // no args → PersonState
	OpResume = "resume" // ResumeArgs → PersonState (the person allows it in the browser, or the launcher's token)
	OpLog    = "log"    // LogArgs → LogResult
	OpPolicy = "policy" // PolicyArgs → PolicyResult
)

// Requests the host sends the extension for the person's controls.
const (
	ExtFrames   ExtCall[TabParams, FramesReply]      = "frames"    // the tab's frames with their URLs
	ExtPaused   ExtCall[PausedParams, OKReply]       = "paused"    // the pause changed at the host (grip pause)
	ExtConfirm  ExtCall[ConfirmParams, ConfirmReply] = "confirm"   // ask the person
	ExtActed    ExtCall[ActedParams, OKReply]        = "acted"     // an agent acted on a tab (the badge)
	ExtShareTab ExtCall[TabParams, OKReply]          = "share_tab" // an agent's action opened this tab (tab, session): its session owns it
)

// Requests the extension sends the host for the person's controls (the
// popup's buttons).
const (
	HostSetPaused  HostCall[PausedParams, PersonState]    = "set_paused"
	HostSetShared  HostCall[SharedParams, PersonState]    = "set_shared"
	HostPersonView HostCall[PersonViewParams, PersonView] = "user_view"
)

// HostRequests lists every request the extension may send the host.
// A literal, not callNames(HostCalls): plain data costs no start
// (TestEveryNameIsListed holds the two equal).
var HostRequests = []string{string(HostStatus), string(HostSnapshot), string(HostSetPaused), string(HostSetShared),
	string(HostPersonView), string(HostEndSession), string(HostAllowSession), string(HostReleaseTab), string(HostSaveRecording)}

// FrameInfo is one frame of a tab as the browser lists it.
type FrameInfo struct {
	FrameID       int    `json:"frameId"`
	ParentFrameID int    `json:"parentFrameId"`
	DocumentID    string `json:"documentId,omitempty"`
	URL           string `json:"url"`
}

// FramesReply answers ExtFrames.
type FramesReply struct {
	Frames []FrameInfo `json:"frames"`
}

// PausedParams sets or reports the pause. By is the agent session that
// paused (grip pause, MCP browser_pause); "" is the person (the popup).
// The extension keeps it with the pause, so a new host still says whose
// pause it is.
type PausedParams struct {
	Paused bool   `json:"paused"`
	By     string `json:"by,omitempty"`
}

// SharedParams shares a tab with agents, or stops sharing it.
type SharedParams struct {
	TabID  int  `json:"tabId"`
	Shared bool `json:"shared"`
}

// ConfirmParams asks the person whether an agent may do something. The
// extension shows it in a notification and the popup, and answers when
// the person clicks Allow or Deny, or after TimeoutMS with TimedOut set.
type ConfirmParams struct {
	ID        string `json:"id"`
	TabID     int    `json:"tabId,omitempty"`
	Origin    string `json:"origin,omitempty"`
	Action    string `json:"action"`
	Target    string `json:"target,omitempty"`
	Detail    string `json:"detail,omitempty"`
	Client    string `json:"client"`
	Rule      string `json:"rule,omitempty"`
	TimeoutMS int    `json:"timeoutMs"`
	// Session is the session that asks; Kind is ConfirmKindHandoff for a
	// step handed to the person ("": a question to allow an action).
	Session string `json:"session,omitempty"`
	Kind    string `json:"kind,omitempty"`
}

// ConfirmReply is the person's answer.
type ConfirmReply struct {
	Allowed  bool `json:"allowed"`
	TimedOut bool `json:"timedOut,omitempty"`
}

// ActedParams tells the extension an agent acted on a tab.
type ActedParams struct {
	TabID  int    `json:"tabId"`
	Action string `json:"action"`
}

// ResumeArgs lift the pause. Without a token the person is asked in the
// browser; Token is the resume token of a browser grip launch started
// (its profile's grip-resume.token), which lifts it there without asking:
// that browser's launcher stands for its person (docs/person.md, "A
// browser grip launched").
type ResumeArgs struct {
	Token string `json:"token,omitempty"`
}

// PersonState is the switches' state after pause, resume or a popup change.
type PersonState struct {
	Paused bool  `json:"paused"`
	Shared []int `json:"shared,omitempty"`
	// PausedBy and Lift are set while paused: the agent session that
	// paused ("": the person), and how the pause is lifted in this
	// browser (a headless one grip launch started has no popup).
	PausedBy string `json:"paused_by,omitempty"`
	Lift     string `json:"lift,omitempty"`
}

// PolicyInfo is the host's report on its policy file.
type PolicyInfo struct {
	File string `json:"file"`
	// Loaded is when the policy in force was read (RFC 3339).
	Loaded string `json:"loaded,omitempty"`
	// Error says why the file as it is now is not in force; the last good
	// policy stays.
	Error   string `json:"error,omitempty"`
	Missing bool   `json:"missing,omitempty"`
	Tabs    string `json:"tabs"`
	Default string `json:"default"`
	Rules   int    `json:"rules"`
}

// PolicyArgs asks for the policy in force, and with URL which rule that
// URL falls under.
type PolicyArgs struct {
	URL string `json:"url,omitempty"`
}

// PolicyResult answers OpPolicy. Text is the policy in force in the
// file's own format.
type PolicyResult struct {
	Policy PolicyInfo    `json:"policy"`
	Text   string        `json:"text"`
	URL    string        `json:"url,omitempty"`
	Rule   *RuleDecision `json:"decision,omitempty"`
}

// RuleDecision is the rule a URL falls under and why.
type RuleDecision struct {
	Origin  string `json:"origin,omitempty"`
	Rule    string `json:"rule"`
	Pattern string `json:"pattern,omitempty"`
	Line    int    `json:"line,omitempty"`
	Why     string `json:"why"`
}

// LogArgs select entries of the record of what agents did.
type LogArgs struct {
	Tab   int `json:"tab,omitempty"`
	Limit int `json:"limit,omitempty"`
	// All asks for every session's entries (grip log --all, the person's
	// shell); without it a session is shown its own. grip mcp never sets it.
	All bool `json:"all,omitempty"`
}

// LogEntry is one action an agent asked for (see package actlog). It
// never holds typed text or values.
type LogEntry struct {
	Time      string `json:"time"`
	Tab       int    `json:"tab,omitempty"`
	Origin    string `json:"origin,omitempty"`
	Action    string `json:"action"`
	Target    string `json:"target,omitempty"`
	Detail    string `json:"detail,omitempty"`
	Outcome   string `json:"outcome"`
	Rule      string `json:"rule,omitempty"`
	Confirmed bool   `json:"confirmed,omitempty"`
	Client    string `json:"client"`
	Session   string `json:"session,omitempty"`
}

// LogResult answers OpLog, oldest first.
type LogResult struct {
	File    string     `json:"file"`
	Entries []LogEntry `json:"entries"`
}

// PersonViewParams asks for the popup's view of one tab.
type PersonViewParams struct {
	TabID int    `json:"tabId"`
	URL   string `json:"url,omitempty"`
}

// PersonView is what the popup shows of the person's controls for a tab.
type PersonView struct {
	Paused    bool          `json:"paused"`
	Policy    PolicyInfo    `json:"policy"`
	Rule      *RuleDecision `json:"decision,omitempty"`
	Shared    bool          `json:"shared"`
	Log       []LogEntry    `json:"log"`
	OtherTabs int           `json:"other_tabs"`
	// Owner is the session that owns the tab ("": the person's).
	Owner string `json:"owner,omitempty"`
	// Sessions are the sessions the host knows, for the popup's list.
	Sessions []SessionView `json:"sessions"`
}
