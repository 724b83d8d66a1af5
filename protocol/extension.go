package protocol

import (
	"encoding/json"
	"reflect"
)

// The host↔extension contract: every native-messaging frame is a
// NativeMessage whose Type is one of the names below and whose Params and
// Result are the types below, encoded as JSON. ExtCalls and HostCalls pair
// each name with its types; `go generate ./protocol` writes them, the error
// codes and boundaries and the event kinds into extension/protocol.d.ts,
// against which tsc checks the worker's handlers (extension/worker/router.js),
// its messages (native-port.js) and every refusal it or the kernel builds.
// docs/wire.md, "Wire formats", follows one request through both
// sides and says how to add one.

//go:generate go run ./internal/tsgen/cmd

// Requests the host sends the extension; each has an ID and gets one reply.
const (
	ExtTabs       ExtCall[TabsParams, TabsResult]        = "tabs"
	ExtTabInfo    ExtCall[TabParams, TabRef]             = "tab_info"
	ExtSnapshot   ExtCall[SnapshotParams, SnapshotReply] = "snapshot"
	ExtAct        ExtCall[ActParams, ActReply]           = "act"
	ExtWait       ExtCall[WaitParams, WaitReply]         = "wait"
	ExtCDP        ExtCall[CDPParams, CDPReply]           = "cdp"
	ExtNavigate   ExtCall[TabParams, TabReply]           = "navigate" // URL set
	ExtBack       ExtCall[TabParams, TabReply]           = "back"
	ExtForward    ExtCall[TabParams, TabReply]           = "forward"
	ExtReload     ExtCall[TabParams, TabReply]           = "reload"
	ExtTabNew     ExtCall[TabParams, Tab]                = "tab_new" // URL, no tab: a new tab in the session's group
	ExtTabClose   ExtCall[TabParams, TabReply]           = "tab_close"
	ExtTabSelect  ExtCall[TabParams, TabRef]             = "tab_select"
	ExtScreenshot ExtCall[TabParams, ScreenshotReply]    = "screenshot"
	ExtDocuments  ExtCall[NoParams, DocumentsReply]      = "documents"
	ExtPing       ExtCall[NoParams, OKReply]             = "ping"
	ExtDialog     ExtCall[DialogParams, DialogReply]     = "dialog"

	ExtUploadChunk  ExtCall[UploadChunkParams, OKReply]      = "upload_chunk"
	ExtDownloads    ExtCall[DownloadsParams, DownloadsReply] = "downloads"
	ExtDownloadWait ExtCall[DownloadWaitParams, Download]    = "download_wait"

	// ExtParseURL reads a URL an agent gave the way the browser will load
	// it (host/navigate.go): the href it canonicalises to, or bad_request.
	ExtParseURL ExtCall[TabParams, ParseURLReply] = "parse_url"
)

// Call is one request of the contract: its name and the Go types of its
// params and of its reply.
type Call struct {
	Name   string
	Params reflect.Type
	Reply  reflect.Type
}

// ExtCall is a request the host sends the extension, typed by its params
// P and its reply R: each constant below is one, so the name and its types
// are said once, and the host's callExt (host/extcall.go) takes a P and returns
// an R for it.
type ExtCall[P, R any] string

// HostCall is a request the extension sends the host (the popup's), typed
// the same way; the host's handlers of them (host/person.go) take its P
// and return its R.
type HostCall[P, R any] string

// Spec is the request with its types, as ExtCalls lists it.
func (c ExtCall[P, R]) Spec() Call { return spec[P, R](string(c)) }

// Spec is the request with its types, as HostCalls lists it.
func (c HostCall[P, R]) Spec() Call { return spec[P, R](string(c)) }

func spec[P, R any](name string) Call {
	return Call{Name: name, Params: reflect.TypeFor[P](), Reply: reflect.TypeFor[R]()}
}

// ExtCalls is every request the extension must answer, with its types. A
// new request: its constant (an ExtCall of its params and reply types), an
// entry here, then `go generate ./protocol` and a handler in
// extension/worker/router.js (tsc fails until there is one; TestEveryNameIsListed
// until the entry is here).
var ExtCalls = []Call{
	ExtTabs.Spec(),
	ExtTabInfo.Spec(),
	ExtSnapshot.Spec(),
	ExtAct.Spec(),
	ExtWait.Spec(),
	ExtCDP.Spec(),
	ExtNavigate.Spec(),
	ExtBack.Spec(),
	ExtForward.Spec(),
	ExtReload.Spec(),
	ExtTabNew.Spec(),
	ExtTabClose.Spec(),
	ExtTabSelect.Spec(),
	ExtScreenshot.Spec(),
	ExtDocuments.Spec(),
	ExtPing.Spec(),
	ExtDialog.Spec(),
	ExtFrames.Spec(),
	ExtPaused.Spec(),
	ExtConfirm.Spec(),
	ExtActed.Spec(),
	ExtShareTab.Spec(),
	ExtUploadChunk.Spec(),
	ExtDownloads.Spec(),
	ExtDownloadWait.Spec(),
	ExtParseURL.Spec(),
	// Developer tools: protocol/devtools.go.
	ExtConsole.Spec(),
	ExtNetwork.Spec(),
	ExtNetworkBody.Spec(),
	ExtEvaluate.Spec(),
	ExtPDF.Spec(),
	ExtElementShot.Spec(),
	ExtBoxesShot.Spec(),
	ExtRead.Spec(),         // protocol/read.go
	ExtResize.Spec(),       // protocol/resize.go
	ExtRecordPerson.Spec(), // protocol/person_record.go
}

// ExtRequests lists the names of ExtCalls.
var ExtRequests = callNames(ExtCalls)

// HostCalls is every request the extension may send the host (the popup's),
// with its types.
var HostCalls = []Call{
	HostStatus.Spec(),
	HostSnapshot.Spec(),
	HostSetPaused.Spec(),
	HostSetShared.Spec(),
	HostPersonView.Spec(),
	HostEndSession.Spec(),
	HostAllowSession.Spec(),
	HostReleaseTab.Spec(),
	HostSaveRecording.Spec(), // protocol/person_record.go
}

func callNames(calls []Call) []string {
	names := make([]string, len(calls))
	for i, c := range calls {
		names[i] = c.Name
	}
	return names
}

// NoParams are the params of a request that takes none.
type NoParams struct{}

// OKReply answers a request that has nothing to report but that it was done.
type OKReply struct {
	OK bool `json:"ok"`
}

// TabReply answers navigate, back, forward, reload and tab_close: the tab,
// or the dialog its page shows instead of letting go (beforeunload).
type TabReply struct {
	TabRef
	Dialog *Dialog `json:"dialog,omitempty"`
}

// ParseURLReply is the URL as the browser reads it: new URL(u).href.
type ParseURLReply struct {
	Href string `json:"href"`
}

// Messages that are not requests. The extension opens with MsgHello
// (ExtensionHello); the host answers MsgWelcome (HostInfo) or MsgRefused
// (Error) and later sends MsgReply to the extension's own requests. The
// extension reports browser events with MsgEvent (Event).
const (
	MsgHello   = "hello"
	MsgWelcome = "welcome"
	MsgRefused = "refused"
	MsgReply   = "reply"
	MsgEvent   = "event"
)

// Requests the extension sends the host for its popup; the host answers
// with MsgReply.
const (
	HostStatus   HostCall[NoParams, Status]       = "status"
	HostSnapshot HostCall[SnapshotArgs, Snapshot] = "snapshot"
)

// EventKind names an event the extension reports.
type EventKind string

// Event kinds the extension reports.
const (
	EventNavigated  EventKind = "navigated"   // a frame committed a new document
	EventTabRemoved EventKind = "tab_removed" // a tab closed
	EventTabOpened  EventKind = "tab_opened"  // a page opened a tab or popup (Opener, URL)
)

// EventKinds lists every event the extension reports.
var EventKinds = []EventKind{EventNavigated, EventTabRemoved, EventTabOpened}

// Event is the Params of a MsgEvent.
type Event struct {
	Kind       EventKind `json:"kind"`
	TabID      int       `json:"tabId"`
	FrameID    int       `json:"frameId,omitempty"`
	DocumentID string    `json:"documentId,omitempty"`
	Opener     int       `json:"opener,omitempty"`
	URL        string    `json:"url,omitempty"`
}

// TabsParams asks for every tab, or only the focused window's active one.
type TabsParams struct {
	Active bool `json:"active,omitempty"`
}

// TabParams names a tab, and the URL of navigate and tab_new.
type TabParams struct {
	TabID int    `json:"tabId,omitempty"`
	URL   string `json:"url,omitempty"`
	// Session owns the tab ExtTabNew opens: it goes into the session's
	// tab group, in the background.
	Session string `json:"session,omitempty"`
}

// SnapshotParams asks for a snapshot of every frame of a tab. KeepSignatures
// keeps each element's meaning as the agent last saw it (the host's own
// reads after an action, which the agent does not see).
type SnapshotParams struct {
	TabID          int    `json:"tabId"`
	Mode           string `json:"mode"`
	KeepSignatures bool   `json:"keepSignatures,omitempty"`
	// Settle reads the tab once its page has settled: no frame changed
	// what it shows for a quiet period (100 ms) and none shows a busy
	// indicator, within a bound (1.5 s). A page already quiet is read at
	// once; the reply's Settle says how it went.
	Settle bool `json:"settle,omitempty"`
	// AllContexts gives every element its context, not only those whose
	// role and name repeat: the host resolving a target line written with
	// ` in 'context'` for an element that is unique now.
	AllContexts bool `json:"allContexts,omitempty"`
	// Known names the walks (ExtFrame.Walk) whose elements the host holds
	// for this tab: a frame whose page has not changed since one of them
	// answers Same, without its elements (extension/kernel/reread.js).
	Known []string `json:"known,omitempty"`
	// SaidSince asks each frame what the app said since then (wall clock,
	// Unix ms: when the action began): the read after an action sets it
	// (ExtFrame.Said, docs/effects.md, "What the app said").
	SaidSince int64 `json:"saidSince,omitempty"`
}

// SnapshotReply is the extension's answer to ExtSnapshot: one entry per frame
// of the tab, answered or not, and how long the page took.
type SnapshotReply struct {
	Tab    TabRef     `json:"tab"`
	Frames []ExtFrame `json:"frames"`
	Timing *ExtTiming `json:"timing,omitempty"`
	// Dialog, when the tab shows one: nothing could be read.
	Dialog *Dialog `json:"dialog,omitempty"`
	// Settle answers SnapshotParams.Settle.
	Settle *SettleReply `json:"settle,omitempty"`
	// Loading: the tab was loading when the read began and still is.
	Loading bool `json:"loading,omitempty"`
}

// ExtTiming is the worker's own clock around a snapshot, in milliseconds:
// InjectMS until every frame answered, TotalMS until the reply was built.
type ExtTiming struct {
	InjectMS float64 `json:"injectMs"`
	TotalMS  float64 `json:"totalMs"`
}

// ExtFrame is one frame's snapshot. Error is set, and Elements empty, for a
// frame that did not answer (navigated, not permitted, blank).
type ExtFrame struct {
	FrameID    int          `json:"frameId"`
	DocumentID string       `json:"documentId"`
	URL        string       `json:"url"`
	Title      string       `json:"title,omitempty"`
	Elements   []ExtElement `json:"elements,omitempty"`
	Stats      *FrameStats  `json:"stats,omitempty"`
	Error      string       `json:"error,omitempty"`
	// Walk names the kernel's walk these elements come from, unique across
	// documents; Same says the elements were left out because they are
	// those of Walk, which the request said the host holds.
	Walk string `json:"walk,omitempty"`
	Same bool   `json:"same,omitempty"`
	// Base and Patch: the elements are those of walk Base, which the
	// request said the host holds, with the lines Patch names put in at
	// their places (a change of text listed them again; the count is
	// Base's). Elements is empty then.
	Base  string       `json:"base,omitempty"`
	Patch []ExtPatched `json:"patch,omitempty"`
	// Alive are the local ids of elements still in the document that this
	// read did not list (another mode listed them, or they are hidden):
	// their refs stay valid, for a ref is stale only when its element left
	// the page (docs/identity.md, "Identity").
	Alive []int `json:"alive,omitempty"`
	// Said is what the frame's page said since SnapshotParams.SaidSince.
	Said []ExtSaid `json:"said,omitempty"`
}

// ExtPatched is one line of ExtFrame.Patch: its place among the elements,
// and the element there now.
type ExtPatched struct {
	At      int        `json:"at"`
	Element ExtElement `json:"el"`
}

// ExtSaid is one thing a page said: an alert's, a status or live region's,
// a flash's text, or a field's validation message (ID: the field's local
// id, when the kernel gave it one).
type ExtSaid struct {
	Role string `json:"role"`
	Text string `json:"text"`
	ID   int    `json:"id,omitempty"`
}

// ExtElement is one element as the kernel reports it. ID is its local id in
// its document: the kernel's cache keeps it for the node's whole life.
type ExtElement struct {
	ID     int      `json:"id"`
	Role   string   `json:"role"`
	Name   string   `json:"name"`
	Value  *string  `json:"value,omitempty"`
	States []string `json:"states,omitempty"`
	Href   string   `json:"href,omitempty"`
	// Context is the kernel's candidate context (Element.Context), given
	// where the role and name repeat in the frame; the host shows it where
	// they repeat on the page.
	Context string `json:"ctx,omitempty"`
}

// FrameStats are the kernel's own figures for one frame's walk.
type FrameStats struct {
	Nodes int     `json:"nodes"`
	MS    float64 `json:"ms"`
	// Reread says the frame's elements are its last walk's, given again
	// because nothing they depend on changed since (extension/kernel/reread.js).
	Reread bool `json:"reread,omitempty"`
}

// ActParams asks the extension to run one action in a page. The element is
// named either by its identity (DocumentID + LocalID, the ref's key) or by
// a CSS Chain whose segments but the last select iframes; neither means the
// page itself (keys, scrolling). Key and Modifiers are press's parsed key.
type ActParams struct {
	TabID      int      `json:"tabId"`
	Action     string   `json:"action"`
	Text       string   `json:"text,omitempty"`
	Key        string   `json:"key,omitempty"`
	Modifiers  []string `json:"modifiers,omitempty"`
	Trusted    bool     `json:"trusted,omitempty"`
	DocumentID string   `json:"documentId,omitempty"`
	FrameID    int      `json:"frameId,omitempty"`
	LocalID    int      `json:"localId,omitempty"`
	Chain      []string `json:"chain,omitempty"`
	// To names a second element (drag's drop target) in the same document
	// as the first: ToLocalID for a ref, ToChain for a CSS chain.
	ToLocalID int      `json:"toLocalId,omitempty"`
	ToChain   []string `json:"toChain,omitempty"`
	// At is the point inside the element where the action lands, ToAt
	// the drop point inside the drop target (ActArgs.At, ActArgs.ToAt).
	At   *Spot `json:"at,omitempty"`
	ToAt *Spot `json:"toAt,omitempty"`
	// Upload names the files an upload puts into the element, sent before
	// in upload_chunk requests.
	Upload *Upload `json:"upload,omitempty"`
	// Find carries a find on from the kernel call before (protocol/find.go).
	Find *FindState `json:"find,omitempty"`
}

// ActReply is what the page answers after acting: Detail for the agent,
// what else the action did, and for trusted input the point to press, in
// the top frame's viewport, with the element's document and local id for
// the CDPGuard.
type ActReply struct {
	OK         bool   `json:"ok"`
	Detail     string `json:"detail,omitempty"`
	Point      *Point `json:"point,omitempty"`
	DocumentID string `json:"documentId,omitempty"`
	ID         int    `json:"id,omitempty"`
	// Secret says the text went into a field whose value grip never
	// reports (a password): a recording keeps it only as a placeholder.
	Secret bool `json:"secret,omitempty"`
	// Find is a find's answer; List where the list a find or a scroll
	// moved stands (protocol/find.go).
	Find *FindReply `json:"find,omitempty"`
	List *ListView  `json:"list,omitempty"`
	ActEffects
}

// Point is a position in a viewport, in CSS pixels.
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// WaitParams ask the extension to answer once a condition holds in a tab,
// or after TimeoutMS: Text on the page (any frame), TextGone off it (every
// frame), the element DocumentID + LocalID gone, or the tab's URL equal to
// or containing URL.
type WaitParams struct {
	TabID      int    `json:"tabId"`
	Text       string `json:"text,omitempty"`
	TextGone   string `json:"textGone,omitempty"`
	DocumentID string `json:"documentId,omitempty"`
	LocalID    int    `json:"localId,omitempty"`
	URL        string `json:"url,omitempty"`
	TimeoutMS  int    `json:"timeoutMs"`
}

// SettleReply says whether the page settled within the bound before it
// was read (SnapshotParams.Settle), after how long, and, when it did not,
// the busy indicator it still showed, or that it is live: it had been
// changing without a pause since well before the action, so its quiet was
// not waited for (docs/settling.md, "Settling").
type SettleReply struct {
	Settled bool   `json:"settled"`
	MS      int    `json:"ms"`
	Busy    string `json:"busy,omitempty"`
	Live    bool   `json:"live,omitempty"`
	// Requests is how many requests the action started (its fetches,
	// XHRs, scripts and WebSocket openings, answered or not; not the
	// page's own polling), as grip's debugger saw them: none are seen
	// while it is not attached to the tab.
	Requests int `json:"requests,omitempty"`
	// Mutated says a frame's page changed what it shows after the action
	// began (its document, text or a shown attribute such as class, as the
	// kernel's settle observer saw it), even where no line a snapshot lists
	// changed: a picker opened by a class, a panel restyled.
	Mutated bool `json:"mutated,omitempty"`
}

// WaitReply says whether the condition held before the time was up.
type WaitReply struct {
	Met    bool   `json:"met"`
	Detail string `json:"detail,omitempty"`
}

// CDPParams are Chrome DevTools Protocol commands the extension sends in
// order through chrome.debugger (trusted input).
type CDPParams struct {
	TabID    int          `json:"tabId"`
	Commands []CDPCommand `json:"commands"`
	Guard    *CDPGuard    `json:"guard,omitempty"`
}

// CDPCommand is one DevTools Protocol call; Params is a cdproto type.
type CDPCommand struct {
	Method string `json:"method"`
	Params any    `json:"params"`
}

// CDPReply holds each command's result, in order, and what the input did.
type CDPReply struct {
	Results []json.RawMessage `json:"results"`
	ActEffects
}

// ScreenshotReply carries a PNG of the tab's visible part, base64-encoded.
type ScreenshotReply struct {
	Tab  TabRef `json:"tab"`
	Data string `json:"data"`
}

// LiveDocument is one document alive in the browser.
type LiveDocument struct {
	TabID      int    `json:"tabId"`
	FrameID    int    `json:"frameId"`
	DocumentID string `json:"documentId"`
}

// DocumentsReply lists every live document of every tab.
type DocumentsReply struct {
	Documents []LiveDocument `json:"documents"`
}
