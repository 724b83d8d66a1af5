package host

import (
	"context"
	"reflect"
	"sync"

	"github.com/grip-dev/grip/protocol"
)

// The host's table of operations (docs/ARCHITECTURE.md, "The path of one
// request"): every row of protocol.Operations has one entry here, which
// says how its arguments decode (once, into the row's Args type), which
// tab a request reads (its scope) and which handler runs it (returning the
// row's Result type); host/operations_test.go holds the entries to the
// rows. The gate a request passes is decided by its row, never by its
// entry (host/gate.go). An operation with no entry or no row is refused,
// never served unguarded.

// operation is one entry of the table.
type operation struct {
	// args and result are the handler's types, which must be the row's
	// (an args of noArgs: the handler ignores whatever a request carries).
	args, result reflect.Type
	// scoped says the entry names the tab a request reads (scope below):
	// every row that reads a tab and does not act has one.
	scoped bool
	// run decodes the request's arguments, passes them through the gate
	// its row decides (gate, gateAfter) and calls the handler.
	run func(h *Host, ctx context.Context, row protocol.Operation, raw []byte) (any, error)
}

// readScope is what a read looks at: the tab it reads (pointing into its
// arguments, so the gate can set the tab it checked and the read cannot
// land on another) and what it reads of it.
type readScope struct {
	tab  *int
	kind readKind
}

// handler is an operation's work, on its own argument type.
type handler[A, R any] func(h *Host, ctx context.Context, args A) (R, error)

// entry is an operation's entry: its handler, and for an operation that
// reads a tab, scope, which says from the request's arguments which tab
// and how much of it the request reads. The gate is not the entry's to
// choose: the operation's row in protocol.Operations decides it.
func entry[A, R any](scope func(*Host, *A) readScope, run handler[A, R]) operation {
	return operation{args: reflect.TypeFor[A](), result: reflect.TypeFor[R](), scoped: scope != nil,
		run: func(h *Host, ctx context.Context, row protocol.Operation, raw []byte) (any, error) {
			var args A
			if _, none := any(&args).(*noArgs); !none {
				if err := decodeArgs(raw, &args); err != nil {
					return nil, err
				}
			}
			var s readScope
			if scope != nil {
				s = scope(h, &args)
			}
			if err := h.gate(ctx, row, s); err != nil {
				return nil, err
			}
			res, err := run(h, ctx, args)
			if err != nil {
				return res, err
			}
			if err := h.gateAfter(ctx, row, s, res); err != nil {
				return nil, err
			}
			return res, nil
		}}
}

// tabScope reads the tab args name as kind says.
func tabScope[A any](tab func(*A) *int, kind readKind) func(*Host, *A) readScope {
	return func(_ *Host, a *A) readScope { return readScope{tab(a), kind} }
}

// noArgs is the argument type of a handler that takes none: whatever
// arguments such a request carries are ignored, as they always were.
type noArgs = protocol.NoParams

// operations is the table; host/operations_test.go checks that it has an
// entry for every row of protocol.Operations, and no other. It is
// built on the host's first request, not at init: every start of the one
// binary, the agent's commands included, would build it (docs/cli-cost.md,
// "The CLI's fixed cost"); a sync.Once, as a OnceValue's closure would be
// made at every start.
func operations() map[string]operation {
	operationsOnce.Do(func() { operationTable = buildOperations() })
	return operationTable
}

var (
	operationsOnce sync.Once
	operationTable map[string]operation
)

func buildOperations() map[string]operation {
	return map[string]operation{
		protocol.OpHello: entry(nil, func(h *Host, _ context.Context, _ noArgs) (protocol.HostInfo, error) {
			return h.helloInfo(), nil
		}),
		protocol.OpStatus: entry(nil, func(h *Host, _ context.Context, _ noArgs) (protocol.Status, error) {
			return h.status(), nil
		}),

		// The person's controls: the handlers are the controls, and resume
		// asks the person.
		protocol.OpPause:  entry(nil, (*Host).pause),
		protocol.OpResume: entry(nil, (*Host).resume),
		protocol.OpLog:    entry(nil, (*Host).showLog),
		protocol.OpPolicy: entry(nil, (*Host).showPolicy),
		// A step handed to the person: the tab is read back like an action's
		// when they are done (host/handoff.go).
		protocol.OpHandoff: entry(tabScope(func(a *protocol.HandoffArgs) *int { return &a.Tab }, readInfo), (*Host).handoff),

		// Lists leave out or mask what agents may not see.
		protocol.OpTabs:      entry(nil, (*Host).listTabs),
		protocol.OpDownloads: entry(nil, (*Host).listDownloads),

		protocol.OpSnapshot:   entry(tabScope(func(a *protocol.SnapshotArgs) *int { return &a.Tab }, readSnapshot), (*Host).snapshot),
		protocol.OpScreenshot: entry(tabScope(func(a *protocol.ScreenshotArgs) *int { return &a.Tab }, readScreenshot), (*Host).screenshot),
		// A tab's dialog is read like its URL: no frame's content.
		protocol.OpDialog: entry(tabScope(func(a *protocol.DialogArgs) *int { return &a.Tab }, readInfo), (*Host).showDialog),
		protocol.OpWait:   entry(waitScope, (*Host).wait),
		// One element's whole text (host/readelement.go).
		protocol.OpRead: entry(readScopeOf, (*Host).readElement),

		// An action's gate is the action pipeline's steps (host/act.go):
		// its tab is known only once its target is resolved.
		protocol.OpAct: entry(nil, (*Host).act),

		// Developer tools (host/console.go, network.go, eval.go, shots.go):
		// console and network are read like a snapshot (a blocked frame's
		// part left out by the handler); a body's tab is known only from the
		// browser's answer, and the handler checks it as the gate would;
		// eval acts, and its handler runs the pause, the script rule and the
		// record; a PDF and a shaped screenshot show every frame's pixels.
		protocol.OpConsole:         entry(tabScope(func(a *protocol.ConsoleArgs) *int { return &a.Tab }, readSnapshot), (*Host).Console),
		protocol.OpNetwork:         entry(tabScope(func(a *protocol.NetworkArgs) *int { return &a.Tab }, readSnapshot), (*Host).Network),
		protocol.OpNetworkBody:     entry(nil, (*Host).NetworkBody),
		protocol.OpEval:            entry(nil, (*Host).Eval),
		protocol.OpPDF:             entry(tabScope(func(a *protocol.PDFArgs) *int { return &a.Tab }, readScreenshot), (*Host).PDF),
		protocol.OpScreenshotShape: entry(shapeScope, (*Host).ScreenshotShape),

		protocol.OpRecord: entry(nil, (*Host).record),

		// The size of a tab's window: an action on the browser, whose
		// handler runs the pause, the tab's owner and the window's check,
		// and the record (host/resize.go).
		protocol.OpResize: entry(nil, (*Host).Resize),

		// A request of this connection its client gave up on (host/cancel.go).
		protocol.OpCancel: entry(nil, func(_ *Host, ctx context.Context, a protocol.CancelArgs) (protocol.NoParams, error) {
			requestsOf(ctx).cancel(a.Request)
			return protocol.NoParams{}, nil
		}),
	}
}

// serve runs one agent request: its table entry decodes the arguments
// once, the gate its row decides runs, then its handler.
func (h *Host) serve(ctx context.Context, req protocol.Request) (any, error) {
	op, ok := operations()[req.Op]
	row, known := protocol.OperationNamed(req.Op)
	if !ok || !known {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"see grip --help for the operations", "unknown operation %q", req.Op)
	}
	// A session the person ended is refused whatever it asks
	// (host/sessions.go).
	if err := h.person.checkSession(ctx); err != nil {
		return nil, err
	}
	return h.withhold(op.run(h, ctx, row, req.Args)) // host/withhold.go
}
