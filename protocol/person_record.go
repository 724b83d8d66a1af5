package protocol

// Recording by demonstration (docs/workflows.md, "Recorded workflows"):
// the person shows a task once in their own tab and grip writes it as a
// workflow, the same file an agent's recording makes. The extension
// listens to the person's real input in the tab (the kernel, in the
// isolated world) and keeps the steps as the popup shows them; the host
// turns them into workflow steps under the policy, with secrets as
// {{NAME}} placeholders.

// ExtRecordPerson asks the person, in the popup, to show a task
// (grip record start FILE --person, MCP browser_record with person);
// the reply comes when they press Done, refuse, or TimeoutMS passes.
const ExtRecordPerson ExtCall[RecordPersonParams, RecordPersonReply] = "record_person"

// HostSaveRecording: the person pressed Done on a recording they started
// from the popup (Record what I do); the host writes it into grip's output
// folder.
const HostSaveRecording HostCall[SaveRecordingParams, SavedRecording] = "save_recording"

// Default and longest wait of grip record start --person for the
// person's Done.
const (
	DefaultPersonRecordTimeoutMS = 10 * 60 * 1000
	MaxPersonRecordTimeoutMS     = 60 * 60 * 1000
)

// RecordPersonParams asks the person to show a task.
type RecordPersonParams struct {
	ID        string `json:"id"`
	Client    string `json:"client"`
	Session   string `json:"session,omitempty"`
	File      string `json:"file,omitempty"` // the file's name, as the popup shows it
	TimeoutMS int    `json:"timeoutMs"`
}

// RecordPersonReply is how the person's recording ended: Done with its
// steps, or not (refused, cancelled, or TimedOut).
type RecordPersonReply struct {
	Done     bool         `json:"done"`
	TimedOut bool         `json:"timedOut,omitempty"`
	TabID    int          `json:"tabId,omitempty"`
	Steps    []PersonStep `json:"steps,omitempty"`
}

// SaveRecordingParams are a recording the person made from the popup, and
// the file name they chose ("" lets the host name it).
type SaveRecordingParams struct {
	Name  string       `json:"name,omitempty"`
	TabID int          `json:"tabId,omitempty"`
	Steps []PersonStep `json:"steps"`
}

// SavedRecording says where the person's recording was written.
type SavedRecording struct {
	Path    string   `json:"path"`
	Steps   int      `json:"steps"`
	Refused int      `json:"refused,omitempty"`
	Params  []string `json:"params,omitempty"`
}

// PersonTarget is an element the person acted on, as a snapshot line of
// its document names it.
type PersonTarget struct {
	Role string `json:"role"`
	Name string `json:"name"`
	Ctx  string `json:"ctx,omitempty"`
}

// PersonStep is one thing the person did, as the extension saw it: the
// verb (an action of Actions), its target and drop target, its text
// (none for a secret field: Secret is set and the text never leaves the
// page), the URL of the frame it was in and of the tab, and what followed
// (the tab's new URL, or an element that appeared). Param is the name the
// person gave the text as a parameter in the popup.
type PersonStep struct {
	Verb     string        `json:"verb"`
	Target   *PersonTarget `json:"target,omitempty"`
	To       *PersonTarget `json:"to,omitempty"`
	Text     string        `json:"text,omitempty"`
	HasText  bool          `json:"hasText,omitempty"`
	Secret   bool          `json:"secret,omitempty"`
	File     bool          `json:"file,omitempty"` // an upload: the person's file, named by no path
	Param    string        `json:"param,omitempty"`
	FrameURL string        `json:"frameUrl,omitempty"`
	TabURL   string        `json:"tabUrl,omitempty"`
	AfterURL string        `json:"afterUrl,omitempty"`
	Appeared *PersonTarget `json:"appeared,omitempty"`
}
