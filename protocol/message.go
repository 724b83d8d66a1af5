package protocol

import (
	"encoding/json"

	"github.com/vmihailenco/msgpack/v5"
)

// Request is an agent's call on the socket: {id, op, args}.
type Request struct {
	ID   uint64             `json:"id"`
	Op   string             `json:"op"`
	Args msgpack.RawMessage `json:"args,omitempty"`
}

// Reply answers the Request with the same ID: {id, result} or {id, error}.
type Reply struct {
	ID     uint64             `json:"id"`
	Result msgpack.RawMessage `json:"result,omitempty"`
	Error  *Error             `json:"error,omitempty"`
}

// Socket operations.
const (
	OpHello      = "hello"
	OpStatus     = "status"
	OpTabs       = "tabs"
	OpSnapshot   = "snapshot"
	OpAct        = "act"
	OpWait       = "wait"
	OpScreenshot = "screenshot"
	OpDialog     = "dialog" // DialogArgs → DialogResult
	OpDownloads  = "downloads"
)

// Operations (protocol/operations.go) is the table of every socket
// operation, with its types and what it reads, acts on and changes.

// HelloArgs opens every socket connection; a protocol mismatch is refused.
type HelloArgs struct {
	Protocol int    `json:"protocol"`
	Client   string `json:"client,omitempty"`
	// Session is the session the connection belongs to (grip --session,
	// GRIP_SESSION, one per grip mcp process); "" is DefaultSession.
	Session string `json:"session,omitempty"`
}

// HostInfo describes a running host: the hello reply, and the file a host
// publishes beside its socket so the CLI and doctor can find it.
type HostInfo struct {
	Protocol         int    `json:"protocol"`
	HostVersion      string `json:"host_version"`
	ExtensionVersion string `json:"extension_version"`
	ExtensionBuild   string `json:"extension_build,omitempty"`
	ExtensionID      string `json:"extension_id,omitempty"`
	Profile          string `json:"profile"`
	PID              int    `json:"pid"`
	Socket           string `json:"socket,omitempty"`
	Browser          string `json:"browser,omitempty"`
	Started          string `json:"started,omitempty"`
	// Warning says what is wrong with an otherwise working host: an
	// extension from another build of grip, with the fix. The CLI, grip
	// mcp, doctor and the popup show it.
	Warning string `json:"warning,omitempty"`
	// Launched is set when `grip launch` started the browser: doctor then
	// checks the manifest of that profile, not the installed browser's,
	// and resume takes the launcher's token.
	Launched *LaunchedBrowser `json:"launched,omitempty"`
	// Left is when the extension closed the host's channel (RFC 3339); it
	// is set only in the note a host leaves as it exits (LeftSuffix), so a
	// CLI that finds no host can say which browser went and when.
	Left string `json:"left,omitempty"`
	// Paused is set in a hello's reply while the person has paused
	// agents in this browser: doctor says so.
	Paused bool `json:"paused,omitempty"`
}

// LaunchedBrowser is what a host knows of a browser `grip launch`
// started (docs/person.md, "A browser grip launched").
type LaunchedBrowser struct {
	// ProfileDir is the browser's --user-data-dir: its host manifest is
	// in ProfileDir/NativeMessagingHosts.
	ProfileDir string `json:"profile_dir"`
	// Headless says no one can answer a question in this browser.
	Headless bool `json:"headless,omitempty"`
	// Resume says the launcher holds a token that lifts the pause here
	// (grip resume --token-file).
	Resume bool `json:"resume,omitempty"`
}

// LeftSuffix ends the name of the note a host leaves in the runtime dir,
// beside where its info file was, when the extension closed its channel:
// PROFILE.left holds its HostInfo with Left set. The profile's next host
// removes it.
const LeftSuffix = ".left"

// Status is the host's own report for `grip doctor` and the popup.
type Status struct {
	Host         HostInfo      `json:"host"`
	LiveRefs     int           `json:"live_refs"`
	InactiveRefs int           `json:"inactive_refs"`
	NextRef      uint64        `json:"next_ref"`
	LedgerError  string        `json:"ledger_error,omitempty"`
	LastSnapshot *SnapshotInfo `json:"last_snapshot,omitempty"`
	LastErrors   []string      `json:"last_errors,omitempty"`
	// Paused and Policy are the person's controls (protocol/person.go);
	// PausedBy and Lift say, while paused, whose pause it is and how it
	// is lifted here (PersonState).
	Paused   bool        `json:"paused,omitempty"`
	PausedBy string      `json:"paused_by,omitempty"`
	Lift     string      `json:"lift,omitempty"`
	Policy   *PolicyInfo `json:"policy,omitempty"`
}

// SnapshotInfo are the figures of one snapshot, for the popup and doctor.
type SnapshotInfo struct {
	Tab            int `json:"tab"`
	FramesAnswered int `json:"frames_answered"`
	FramesSkipped  int `json:"frames_skipped"`
	Elements       int `json:"elements"`
	Tokens         int `json:"tokens"`
	Budget         int `json:"budget"`
	Omitted        int `json:"omitted"`
}

// Tab is one browser tab as `grip tabs` lists it. Its msgpack codec is
// written out in protocol/hotcodec.go: a field added here goes there too
// (TestHotCodecsAreTheLibrarys fails until it does).
type Tab struct {
	ID       int    `json:"id"`
	URL      string `json:"url"`
	Title    string `json:"title"`
	Active   bool   `json:"active,omitempty"`
	WindowID int    `json:"windowId,omitempty"`
	// Blocked: the person's policy blocks the tab's site; its URL and
	// title are left out.
	Blocked bool `json:"blocked,omitempty"`
	// Opener is the tab whose page opened this one (a link, a popup).
	Opener int `json:"opener,omitempty"`
	// OpenedBy are the URLs of the document that opened this tab and of
	// its tab's page, as they were when it opened: a blank popup has that
	// document's origin, and is judged by it however the opener moves on
	// (host/withhold.go judgeBlankTop). The host never sends them to
	// agents.
	OpenedBy []string `json:"opened_by,omitempty"`
	// Dialog is the JavaScript dialog the tab shows, if grip saw it open.
	Dialog *Dialog `json:"dialog,omitempty"`
	// Owner is the session that owns the tab ("" for the person's own).
	// Another session's tab is listed with its owner only: its URL and
	// title are that agent's work, not this one's (Others is set).
	Owner  string `json:"owner,omitempty"`
	Others bool   `json:"others,omitempty"`
	// OwnerIdle says no agent of Owner's session is connected now (a
	// restarted grip mcp is a new session): the list says how to work in
	// it again. Set with Others.
	OwnerIdle bool `json:"owner_idle,omitempty"`
	// Default marks the session's default tab: the one a command without
	// --tab acts on (README, "Which tab"), which need not be the tab the
	// browser shows in front (Active).
	Default bool `json:"default,omitempty"`
}

// TabsResult answers OpTabs.
type TabsResult struct {
	Tabs []Tab `json:"tabs"`
}

// TabRef is the short tab description inside snapshots and action replies.
type TabRef struct {
	ID    int    `json:"id"`
	URL   string `json:"url"`
	Title string `json:"title"`
}

// SnapshotArgs are the arguments of OpSnapshot. Tab 0 means the active tab.
type SnapshotArgs struct {
	Tab    int    `json:"tab,omitempty"`
	Mode   string `json:"mode,omitempty"`
	Budget int    `json:"budget,omitempty"`
	After  string `json:"after,omitempty"`
	// Timings asks for Snapshot.Timings.
	Timings bool `json:"timings,omitempty"`
	// TextOnly leaves Snapshot.Frames out of the reply: a client that
	// shows only the text (the plain CLI, MCP) would decode every element
	// for nothing, and each command is a new process that pays for it
	// (docs/cli-cost.md, "The CLI's fixed cost").
	TextOnly bool `json:"text_only,omitempty"`
	// Since is set by a reader that leaves out the header lines it has
	// (the MCP server: frames.SnapshotTextSince), with the tab it was last
	// told of (zero: none): those lines cost nothing against Budget.
	Since *TabRef `json:"since,omitempty"`
}

// Snapshot modes: controls only, or also headings and text blocks.
const (
	ModeInteractive = "interactive"
	ModeContent     = "content"
)

// DefaultBudget is the token allowance of a snapshot when none is given.
const DefaultBudget = 40000

// Element is one reported element, as `grip snapshot --json` prints it.
type Element struct {
	Ref    string   `json:"ref"`
	Role   string   `json:"role"`
	Name   string   `json:"name"`
	Value  *string  `json:"value,omitempty"`
	States []string `json:"states,omitempty"`
	// Href is a link's destination, absolute as the browser resolved it.
	Href string `json:"href,omitempty"`
	// Context names the element's nearest named row, list item, dialog,
	// form, region or heading, where its role and name repeat on the page.
	Context string `json:"context,omitempty"`
	// ValueFrom is, in an action's changed elements, the character (a
	// Unicode code point) at which Value first differs from the value the
	// agent was shown before; the line then shows the value around there
	// when the change lies past what its start shows (frames.Line).
	ValueFrom int `json:"value_from,omitempty"`
}

// Frame is one answered frame of a snapshot.
type Frame struct {
	FrameID    int       `json:"frameId"`
	DocumentID string    `json:"documentId"`
	URL        string    `json:"url"`
	Elements   []Element `json:"elements"`
}

// SkippedFrame is a frame that answered nothing, and why.
type SkippedFrame struct {
	FrameID int    `json:"frameId"`
	Reason  string `json:"reason"`
}

// Snapshot is the result of OpSnapshot; Text is exactly what
// the plain `grip snapshot` prints.
type Snapshot struct {
	Tab           TabRef         `json:"tab"`
	Epoch         uint64         `json:"epoch"`
	Frames        []Frame        `json:"frames"`
	SkippedFrames []SkippedFrame `json:"skipped_frames"`
	Tokens        int            `json:"tokens"`
	Budget        int            `json:"budget"`
	Omitted       int            `json:"omitted"`
	Next          string         `json:"next,omitempty"`
	Text          string         `json:"text"`
	// Timings, when SnapshotArgs.Timings asked for them.
	Timings *SnapshotTimings `json:"timings,omitempty"`
	// Dialog, when the tab shows one (then nothing else could be read);
	// Opened and Closed as in ActionResult.
	Dialog *Dialog     `json:"dialog,omitempty"`
	Opened []OpenedTab `json:"opened,omitempty"`
	Closed []int       `json:"closed,omitempty"`
	// Loading: the page had not finished loading when it was read (the
	// text's last line says so); it may show more soon.
	Loading bool `json:"loading,omitempty"`
}

// SnapshotTimings say where a snapshot's time went, in milliseconds: the
// worker's own clock and each frame's walk, then the host's steps. The
// socket round trip around them is the client's to measure.
type SnapshotTimings struct {
	Extension float64       `json:"extension_ms"` // host: request sent until its reply arrived
	Inject    float64       `json:"inject_ms"`    // worker: until every frame answered
	Worker    float64       `json:"worker_ms"`    // worker: until its reply was built
	Decode    float64       `json:"decode_ms"`    // host: decoding the reply
	Refs      float64       `json:"refs_ms"`      // host: giving elements their refs
	Ledger    float64       `json:"ledger_ms"`    // host: saving the ledger
	Render    float64       `json:"render_ms"`    // host: merging frames and writing the text
	Bytes     int           `json:"bytes"`        // the extension's reply, as JSON
	Frames    []FrameTiming `json:"frames"`
}

// FrameTiming is one frame's walk in the page, by the kernel's clock.
type FrameTiming struct {
	FrameID  int     `json:"frameId"`
	Nodes    int     `json:"nodes"`
	Elements int     `json:"elements"`
	WalkMS   float64 `json:"walk_ms"`
	// Same: the frame had not changed since its last walk, whose elements
	// the host held, so they were not sent again.
	Same bool `json:"same,omitempty"`
	// Patched: the frame had changed only in text since its last walk,
	// whose elements the host held; only the lines that differ were sent.
	Patched bool `json:"patched,omitempty"`
}

// ActArgs are the arguments of OpAct. Target is a locator (package locator);
// actions that need none (navigate, back, press without a target…) leave
// it empty.
type ActArgs struct {
	Action string `json:"action"`
	Target string `json:"target,omitempty"`
	// To is the second element of an action that takes two (drag: where
	// to drop), a locator like Target, in the same document.
	To string `json:"to,omitempty"`
	// At is a point inside Target where a click, double click or hover
	// lands (grip click @e4 --at 120,80); ToAt the drop point inside To.
	At   *Spot  `json:"at,omitempty"`
	ToAt *Spot  `json:"to_at,omitempty"`
	Tab  int    `json:"tab,omitempty"`
	Text string `json:"text,omitempty"`
	// Files are the paths of an upload, absolute: the host reads them.
	Files    []string `json:"files,omitempty"`
	Epoch    uint64   `json:"epoch,omitempty"`
	Trusted  bool     `json:"trusted,omitempty"`
	Snapshot bool     `json:"snapshot,omitempty"`
	// Mode and Budget shape the snapshot that Snapshot asks for.
	Mode   string `json:"mode,omitempty"`
	Budget int    `json:"budget,omitempty"`
	// ChangesBudget is the token allowance of the reply's element lines;
	// 0 means DefaultChangesBudget.
	ChangesBudget int `json:"changes_budget,omitempty"`
	// NoSettle reads the reply at once, without waiting for the page to
	// settle: for pages that never stop moving, and for measuring what
	// settling costs (bench/RESULTS.md).
	NoSettle bool `json:"no_settle,omitempty"`
	// Param names the text as a parameter of a workflow being recorded:
	// the recording holds {{Param}}, never the text.
	Param string `json:"param,omitempty"`
	// Origin is the origin of the frame the target must be in (a recorded
	// workflow's step): an element of another frame is refused as
	// not_found.
	Origin string `json:"origin,omitempty"`
}

// Changes says what an action changed, so the agent need not re-read:
// refs added and gone since the agent's last view of the tab, with the
// lines of the elements that appeared and of the known ones whose role,
// name, value or states changed, in page order, within the action's
// ChangesBudget (Changed first); Omitted counts the lines left out.
type Changes struct {
	URL      string    `json:"url,omitempty"`
	Title    string    `json:"title,omitempty"`
	Added    []string  `json:"added"`
	Gone     []string  `json:"gone"`
	Changed  []Element `json:"changed,omitempty"`
	Appeared []Element `json:"appeared,omitempty"`
	Omitted  int       `json:"omitted,omitempty"`
	// More is the command that reads on where the lines were cut, set
	// with Omitted: "grip snapshot --after @e10 --tab 5".
	More string `json:"more,omitempty"`
	// AsBefore is how many of the Omitted lines look as lines gone with
	// the action did (a new page's header and menus, a list drawn
	// again), left out first so that what is new fits.
	AsBefore int `json:"as_before,omitempty"`
	// Skipped are the runs of such lines left out among the Appeared
	// ones, each where it stands (the text reply says "… 12 lines as on
	// the previous page" there); the rest of AsBefore lie past the cut.
	Skipped []Skip `json:"skipped,omitempty"`
	// Navigated says the tab is on a new page: Gone is every ref of the
	// old one, which the text reply says in one line.
	Navigated bool `json:"navigated,omitempty"`
	// Contexts are the runs of lines whose only change is their context
	// (the heading or card title they are under was renamed, a repeat came
	// or went), each said once instead of in Changed line by line.
	Contexts []ContextChange `json:"contexts,omitempty"`
}

// Skip is a run of lines an action's reply left out where it stands, for
// looking as lines gone with the action did: Lines of them, before the
// appeared line whose ref is Before.
type Skip struct {
	Before string `json:"before"`
	Lines  int    `json:"lines"`
}

// ContextChange says that the lines of Refs, the same elements reading the
// same otherwise, now carry the context To where they carried From (""
// for none). All says they are every line the agent was last shown in
// From that is still on the page and not in Changed: the text reply then
// counts them instead of naming them (docs/snapshot.md, "Snapshot format").
type ContextChange struct {
	From string   `json:"from"`
	To   string   `json:"to"`
	Refs []string `json:"refs"`
	All  bool     `json:"all,omitempty"`
}

// DefaultChangesBudget is the token allowance of an action reply's element
// lines when none is given: a menu's or a picker's worth.
const DefaultChangesBudget = 300

// ActionResult answers OpAct and OpWait. Dialog is the JavaScript dialog
// the tab shows after the action; Opened the tabs and popups it opened;
// Closed the tabs this one opened that have closed since its last reply
// (this tab itself when the action closed it); Blocked the windows the
// page asked for that the browser did not open; Loading the URL of a
// navigation the action started that had not finished when the reply came.
type ActionResult struct {
	OK       bool        `json:"ok"`
	Tab      TabRef      `json:"tab"`
	Changes  Changes     `json:"changes"`
	Detail   string      `json:"detail,omitempty"`
	Snapshot *Snapshot   `json:"snapshot,omitempty"`
	Dialog   *Dialog     `json:"dialog,omitempty"`
	Opened   []OpenedTab `json:"opened,omitempty"`
	Closed   []int       `json:"closed,omitempty"`
	Blocked  []string    `json:"blocked,omitempty"`
	Loading  string      `json:"loading,omitempty"`
	// Settled says whether the page had settled when the reply was read
	// (no change for a quiet period, no busy indicator); false: it was
	// still changing at the bound, and a snapshot may show more. Absent
	// when no settling was waited for.
	Settled *bool `json:"settled,omitempty"`
	// Busy is the busy indicator a page still changing showed.
	Busy string `json:"busy,omitempty"`
	// Live says the page still changing is live (a dashboard, a feed): it
	// had been changing without a pause since before the action, and was
	// read after a beat rather than at the bound.
	Live bool `json:"live,omitempty"`
	// Requests is how many requests the action started that grip saw
	// (SettleReply.Requests): the answer to one may change nothing the
	// page shows, yet the action did something.
	Requests int `json:"requests,omitempty"`
	// PageChanged says the page changed what it shows after the action
	// began (SettleReply.Mutated), though maybe no line of the reply did.
	PageChanged bool `json:"page_changed,omitempty"`
	// Download is a download the action started, or the one a wait for
	// a download returns.
	Download *Download `json:"download,omitempty"`
	// Found are the lines of the element a find brought into view and of
	// those inside it; List what a find or a scroll of a long list says of
	// the list instead of a line for each of its rows (protocol/find.go).
	Found []Element    `json:"found,omitempty"`
	List  *ListSummary `json:"list,omitempty"`
	// Said is what the app said in answer to the action: text that
	// appeared or changed in alerts, status and live regions, flashes and
	// toasts, and the validation messages of the fields it touched or a
	// submit refused, in page order, each cut short.
	Said []Said `json:"said,omitempty"`
}

// Said is one thing the app said: Role is the element's (alert, status,
// log, live, flash, dialog) or validation, for a field's message; Ref
// names that field when it has one.
type Said struct {
	Role string `json:"role"`
	Text string `json:"text"`
	Ref  string `json:"ref,omitempty"`
}

// WaitArgs are the arguments of OpWait; exactly one condition is set.
type WaitArgs struct {
	Tab       int    `json:"tab,omitempty"`
	Text      string `json:"text,omitempty"`
	TextGone  string `json:"text_gone,omitempty"`
	Gone      string `json:"gone,omitempty"`
	URL       string `json:"url,omitempty"`
	MS        int    `json:"ms,omitempty"`
	TimeoutMS int    `json:"timeout_ms,omitempty"`
	// Download waits for the next download to finish.
	Download bool `json:"download,omitempty"`
}

// ScreenshotArgs are the arguments of OpScreenshot.
type ScreenshotArgs struct {
	Tab int `json:"tab,omitempty"`
}

// ScreenshotResult carries the PNG of the visible part of the tab.
type ScreenshotResult struct {
	Tab TabRef `json:"tab"`
	PNG []byte `json:"png"`
}

// NativeMessage is every native-messaging frame between host and extension.
// A request has ID and Type; its reply has the same ID and Result or Error.
// Messages the extension starts (hello, events) have Type and no ID.
type NativeMessage struct {
	ID     uint64          `json:"id,omitempty"`
	Type   string          `json:"type,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *Error          `json:"error,omitempty"`
}

// ExtensionHello is the Params of the extension's first message.
type ExtensionHello struct {
	Protocol         int    `json:"protocol"`
	Profile          string `json:"profile"`
	ExtensionVersion string `json:"extension_version"`
	// Build is the extension build grip stamped into the manifest it
	// installed; empty for an extension loaded from the source folder.
	Build   string `json:"build,omitempty"`
	Browser string `json:"browser,omitempty"`
	// Paused and SharedTabs are the person's switches as the extension
	// keeps them, so a new host starts with them before any agent can
	// reach it; PausedBy is the agent session that paused ("": the
	// person), PausedParams.By as it was kept.
	Paused     bool   `json:"paused,omitempty"`
	PausedBy   string `json:"paused_by,omitempty"`
	SharedTabs []int  `json:"shared_tabs,omitempty"`
	// OwnedTabs and EndedSessions are the sessions' tabs and the sessions
	// the person ended, as the extension keeps them (chrome.storage.session).
	OwnedTabs     []TabOwner `json:"owned_tabs,omitempty"`
	EndedSessions []string   `json:"ended_sessions,omitempty"`
}

// OpRecord starts and stops the recording of a session's actions as a
// workflow (docs/workflows.md, "Recorded workflows").
const OpRecord = "record" // RecordArgs → RecordResult

// Recording actions of RecordArgs.
const (
	RecordStart  = "start"
	RecordStop   = "stop"
	RecordStatus = "status"
)

// RecordArgs start (File names where the client will write it), stop or
// ask about the session's recording.
type RecordArgs struct {
	Action string `json:"action"`
	File   string `json:"file,omitempty"`
	// Force (start; grip record start FILE --force) lets the CLI replace
	// File, a regular file, at stop. grip mcp never sets it.
	Force bool `json:"force,omitempty"`
	// Person (start; grip record start FILE --person, MCP browser_record
	// with person) asks the person to show the task in their own tab: the
	// start waits for their Done and answers as a stop does, or
	// not_confirmed when they refuse or TimeoutMS passes (0: the default).
	Person    bool `json:"person,omitempty"`
	TimeoutMS int  `json:"timeoutMs,omitempty"`
}

// RecordResult says whether the session is recording, into which file,
// and how many steps it holds; at stop, Text is the workflow, which the
// client writes to File.
type RecordResult struct {
	Recording bool   `json:"recording"`
	File      string `json:"file,omitempty"`
	Steps     int    `json:"steps"`
	// Refused counts the session's actions refused while it recorded,
	// which are not in the workflow.
	Refused int      `json:"refused,omitempty"`
	Params  []string `json:"params,omitempty"`
	Text    string   `json:"text,omitempty"`
	// Force is the start's Force.
	Force bool `json:"force,omitempty"`
}
