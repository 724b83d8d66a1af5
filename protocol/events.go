package protocol

// What an action does besides acting on its element, and the JavaScript
// dialogs a page shows (docs/effects.md, "What an action did" and
// docs/dialogs.md, "Dialogs"): the types both wires carry for them.

// Dialog is a JavaScript dialog (alert, confirm, prompt, beforeunload) a
// tab shows and waits on. DefaultPrompt is a prompt's suggested answer.
type Dialog struct {
	Type          string `json:"type"`
	Message       string `json:"message"`
	DefaultPrompt string `json:"default_prompt"`
	// URL is the address of the frame that opened the dialog: the host
	// judges the dialog by that frame's rule, and withholds the message
	// of one a blocked frame opened (host/withhold.go).
	URL string `json:"url,omitempty"`
	// Withheld is set when the host left the message out: the dialog
	// was opened by a frame or tab agents may not read.
	Withheld bool `json:"withheld,omitempty"`
}

// Dialog types, as Chrome names them.
const (
	DialogAlert        = "alert"
	DialogConfirm      = "confirm"
	DialogPrompt       = "prompt"
	DialogBeforeUnload = "beforeunload"
)

// OpenedTab is a tab or popup window an action made the page open.
type OpenedTab struct {
	Tab   int    `json:"tab"`
	URL   string `json:"url"`
	Title string `json:"title"`
}

// ExtNavigation is a navigation of the top frame an action started, as
// the extension saw it: Loading when the new document was not ready
// within its wait, Error when it failed.
type ExtNavigation struct {
	URL     string `json:"url"`
	Loading bool   `json:"loading,omitempty"`
	Error   string `json:"error,omitempty"`
}

// ActEffects is what the extension saw an action do (extension/worker/effects.js):
// a dialog it opened, the navigation it started, the tabs it opened, the
// windows the browser blocked, its own tab closing.
type ActEffects struct {
	Dialog     *Dialog        `json:"dialog,omitempty"`
	Navigation *ExtNavigation `json:"navigation,omitempty"`
	Opened     []OpenedTab    `json:"opened,omitempty"`
	Blocked    []string       `json:"blocked,omitempty"`
	Closed     bool           `json:"closed,omitempty"`
}

// Actions of DialogParams.
const (
	DialogShow    = "show"
	DialogAccept  = "accept"
	DialogDismiss = "dismiss"
)

// DialogParams ask the extension for a tab's dialog (Action DialogShow) or
// to answer it; Text answers a prompt.
type DialogParams struct {
	TabID  int    `json:"tabId"`
	Action string `json:"action"`
	Text   string `json:"text,omitempty"`
}

// DialogReply answers DialogParams: for DialogShow the dialog (nil: none)
// and whether grip watches the tab at all (it sees only dialogs that open
// while it does); for an answer, OK, what was answered, and what the page
// did next (a new dialog included).
type DialogReply struct {
	Watching bool   `json:"watching,omitempty"`
	OK       bool   `json:"ok,omitempty"`
	Detail   string `json:"detail,omitempty"`
	ActEffects
}

// CDPGuard names the element trusted input is for, so the extension
// checks, just before sending it, that it reaches that element: the
// browser's hit test at Point, or the page's focus (Focus).
type CDPGuard struct {
	DocumentID string `json:"documentId"`
	LocalID    int    `json:"localId"`
	Point      *Point `json:"point,omitempty"`
	Focus      bool   `json:"focus,omitempty"`
}

// DialogArgs are the arguments of OpDialog.
type DialogArgs struct {
	Tab int `json:"tab,omitempty"`
}

// DialogResult answers OpDialog: the tab, and its dialog or nil.
type DialogResult struct {
	Tab      TabRef  `json:"tab"`
	Dialog   *Dialog `json:"dialog"`
	Watching bool    `json:"watching"`
}
