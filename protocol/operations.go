package protocol

import (
	"reflect"
	"sync"
)

// The table of socket operations (docs/ARCHITECTURE.md, "Where to start"):
// one row per operation, the one source the rest derives from. The host
// serves each row through one entry of its table (host/operations.go; a
// test fails on a row without an entry, an entry without a row, or a
// handler whose types are not the row's), its gate is decided by the row's
// Reads and Acts, the client repeats an operation on a new host only when
// its row says Retry (client/session.go), and an MCP tool's readOnlyHint
// is ReadOnly of the operations it names (mcp/tools.go addTool). Each CLI
// command and MCP tool names the operations it calls, and tests fail on an
// operation that none of them reaches.

// Operation is one row of the table.
type Operation struct {
	Name string
	// Args and Result are the types a request carries and its reply
	// decodes into.
	Args, Result reflect.Type
	// Reads is the most of the browser the operation may read; what one
	// request reads can be less (a wait that only lets time pass reads
	// nothing), never more.
	Reads Reach
	// Acts says the operation changes a page or the browser's tabs (a
	// click, a navigation, a script): it passes the action pipeline's
	// steps (the pause, the tab's owner, the rule of the frame it lands
	// in, the person's question, the record).
	Acts bool
	// ReadOnly says it changes nothing a page, the browser or the person
	// sees: MCP's readOnlyHint.
	ReadOnly bool
	// Retry says the client may send it again on a new host when the host
	// went away while it was in flight: doing it twice is doing it once.
	Retry bool
	// Writes is the argument (by its json name) naming a file the
	// operation's result is written to (record's file, which the client
	// writes the workflow to at stop); Sends the argument naming local
	// files the host reads and sends into a page (act's files: an upload).
	// "" for none. Which paths may be named is decided where a path comes
	// in (the MCP layer's output folder, the policy's upload-from);
	// protocol's TestFileArgumentsExist holds each to a field of Args.
	Writes, Sends string
}

// Reach is how much of the browser an operation reads, which decides what
// a blocked tab or frame means for it.
type Reach int

const (
	// ReachNone reads no page: the host, the person's controls, the
	// agent's own session.
	ReachNone Reach = iota
	// ReachList lists what the browser holds (tabs, downloads, one
	// response body): what agents may not see is left out or masked.
	ReachList
	// ReachTab reads one tab's URL, title or dialog, or one element: a
	// blocked tab is refused.
	ReachTab
	// ReachContent reads every frame's content as text: a blocked tab is
	// refused, a blocked frame left out.
	ReachContent
	// ReachEveryFrame reads every frame whole (its pixels, a search of
	// its text): a blocked tab or frame is refused.
	ReachEveryFrame
)

func (r Reach) String() string {
	switch r {
	case ReachNone:
		return "none"
	case ReachList:
		return "list"
	case ReachTab:
		return "tab"
	case ReachContent:
		return "content"
	case ReachEveryFrame:
		return "every frame"
	}
	return "unknown"
}

func op[A, R any](name string, reads Reach, acts, readOnly, retry bool) Operation {
	return Operation{Name: name, Args: reflect.TypeFor[A](), Result: reflect.TypeFor[R](),
		Reads: reads, Acts: acts, ReadOnly: readOnly, Retry: retry}
}

// files sets the arguments of a row that name files.
func files(o Operation, writes, sends string) Operation {
	o.Writes, o.Sends = writes, sends
	return o
}

// The columns of a row, named where the table is read.
const (
	acts, quiet       = true, false // Acts
	readOnly, changes = true, false // ReadOnly
	retry, once       = true, false // Retry
)

// Operations is the table, in the order the usage text groups them. It is
// built on first use, not at init: every start of the one binary would
// build it (docs/cli-cost.md, "The CLI's fixed cost"); a sync.Once,
// not a sync.OnceValue, whose closure would be made at every start.
func Operations() []Operation {
	operationsOnce.Do(func() { operations = buildOperations() })
	return operations
}

var (
	operationsOnce sync.Once
	operations     []Operation
)

func buildOperations() []Operation {
	return []Operation{
		op[HelloArgs, HostInfo](OpHello, ReachNone, quiet, readOnly, retry),
		op[NoParams, Status](OpStatus, ReachNone, quiet, readOnly, retry),
		op[NoParams, TabsResult](OpTabs, ReachList, quiet, readOnly, retry),
		op[SnapshotArgs, Snapshot](OpSnapshot, ReachContent, quiet, readOnly, retry),
		op[ReadArgs, ReadResult](OpRead, ReachTab, quiet, readOnly, retry),
		files(op[ActArgs, ActionResult](OpAct, ReachTab, acts, changes, once), "", "files"),
		// A wait reads the tab's URL, or every frame's text, or nothing
		// (host/controls.go waitScope). It is not repeated: a second wait
		// on a new host would wait again from the start.
		op[WaitArgs, ActionResult](OpWait, ReachEveryFrame, quiet, readOnly, once),
		op[ScreenshotArgs, ScreenshotResult](OpScreenshot, ReachEveryFrame, quiet, readOnly, retry),
		op[DialogArgs, DialogResult](OpDialog, ReachTab, quiet, readOnly, once),
		op[DownloadsArgs, DownloadsResult](OpDownloads, ReachList, quiet, readOnly, once),
		// The person's controls: an agent may always pause (pausing twice
		// is pausing once); resume asks the person.
		op[NoParams, PersonState](OpPause, ReachNone, quiet, changes, retry),
		op[ResumeArgs, PersonState](OpResume, ReachNone, quiet, changes, once),
		op[LogArgs, LogResult](OpLog, ReachNone, quiet, readOnly, retry),
		op[PolicyArgs, PolicyResult](OpPolicy, ReachNone, quiet, readOnly, retry),
		files(op[RecordArgs, RecordResult](OpRecord, ReachNone, quiet, changes, once), "file", ""),
		// Developer tools (protocol/devtools.go).
		op[ConsoleArgs, ConsoleResult](OpConsole, ReachContent, quiet, readOnly, retry),
		op[NetworkArgs, NetworkResult](OpNetwork, ReachContent, quiet, readOnly, retry),
		op[NetworkBodyArgs, NetworkBody](OpNetworkBody, ReachList, quiet, readOnly, retry),
		// Code runs in the top frame, which the browser keeps out of
		// other origins' frames.
		op[EvalArgs, EvalResult](OpEval, ReachTab, acts, changes, once),
		op[PDFArgs, PDFResult](OpPDF, ReachEveryFrame, quiet, readOnly, retry),
		op[ScreenshotShapeArgs, ShapeShot](OpScreenshotShape, ReachEveryFrame, quiet, readOnly, retry),
		// A step handed to the person: the tab is read back like an
		// action's when they are done (protocol/session.go).
		op[HandoffArgs, ActionResult](OpHandoff, ReachTab, quiet, changes, once),
		// The size of a tab's window (protocol/resize.go): an action on the
		// browser, not a page.
		op[ResizeArgs, ResizeResult](OpResize, ReachTab, acts, changes, once),
		op[CancelArgs, NoParams](OpCancel, ReachNone, quiet, changes, once),
	}
}

// OperationNamed returns the row of the operation called name.
func OperationNamed(name string) (Operation, bool) {
	for _, o := range Operations() {
		if o.Name == name {
			return o, true
		}
	}
	return Operation{}, false
}
