package host

import (
	"context"
	"sync"

	"github.com/grip-dev/grip/protocol"
)

// The table of operations (docs/ARCHITECTURE.md, "The path of one
// request"): every socket operation has one entry, which says what the
// person's controls do with it (its kind), how its arguments decode (once,
// into their own type) and which handler runs it. Adding an operation
// means its protocol constant, one entry here and one handler; an
// operation with no entry is refused, never served unguarded.

// opKind says which of the person's controls a request passes before its
// handler runs (host/controls.go).
type opKind int

const (
	// kindHost asks about the host itself (hello, status): no page, no
	// controls.
	kindHost opKind = iota
	// kindPerson are the person's own controls (pause, resume, the log,
	// the policy): the handlers are the controls, and resume asks the
	// person.
	kindPerson
	// kindList lists what the browser holds (tabs, downloads): the handler
	// leaves out what the policy keeps from agents.
	kindList
	// kindRead reads a tab: the tab must be one the agent may use, and
	// the read's kind decides what a blocked frame means (gateRead).
	kindRead
	// kindSession is the agent's own session (its workflow recording): no
	// page is read or changed, so no control applies.
	kindSession
	// kindAction changes a page: the action pipeline (host/act.go) runs
	// the pause, the tab's ownership, the policy's rule and the person's
	// question as its own steps, and records the outcome.
	kindAction
)

func (k opKind) String() string {
	switch k {
	case kindHost:
		return "host"
	case kindPerson:
		return "person"
	case kindList:
		return "list"
	case kindRead:
		return "read"
	case kindSession:
		return "session"
	case kindAction:
		return "action"
	}
	return "unknown"
}

// operation is one entry of the table.
type operation struct {
	kind opKind
	// run decodes the request's arguments, passes them through the gate of
	// the kind and calls the handler.
	run func(h *Host, ctx context.Context, raw []byte) (any, error)
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

// decoded wraps a handler so it gets its arguments decoded, and the gate
// runs in between.
func decoded[A, R any](gate func(h *Host, ctx context.Context, args *A) error, run handler[A, R]) func(*Host, context.Context, []byte) (any, error) {
	return func(h *Host, ctx context.Context, raw []byte) (any, error) {
		var args A
		if _, none := any(&args).(*noArgs); !none {
			if err := decodeArgs(raw, &args); err != nil {
				return nil, err
			}
		}
		if gate != nil {
			if err := gate(h, ctx, &args); err != nil {
				return nil, err
			}
		}
		return run(h, ctx, args)
	}
}

// hostOp, personOp, listOp and actionOp are entries whose gate, if any,
// lives in the handler; readOp's gate is gateRead on the scope the
// arguments give.
func hostOp[A, R any](run handler[A, R]) operation {
	return operation{kind: kindHost, run: decoded(nil, run)}
}

func personOp[A, R any](run handler[A, R]) operation {
	return operation{kind: kindPerson, run: decoded(nil, run)}
}

func listOp[A, R any](run handler[A, R]) operation {
	return operation{kind: kindList, run: decoded(nil, run)}
}

func sessionOp[A, R any](run handler[A, R]) operation {
	return operation{kind: kindSession, run: decoded(nil, run)}
}

func actionOp[A, R any](run handler[A, R]) operation {
	return operation{kind: kindAction, run: decoded(nil, run)}
}

func readOp[A, R any](scope func(*Host, *A) readScope, run handler[A, R]) operation {
	gate := func(h *Host, ctx context.Context, args *A) error {
		s := scope(h, args)
		return h.gateRead(ctx, s.tab, s.kind)
	}
	return operation{kind: kindRead, run: decoded(gate, run)}
}

// noArgs is the argument type of an operation that takes none: whatever
// arguments such a request carries are ignored, as they always were.
type noArgs struct{}

// operations is the table; host/operations_test.go checks that it has an
// entry for every operation protocol.Operations lists, and no other. It is
// built on the host's first request, not at init: every start of the one
// binary, the agent's commands included, would build it (docs/ARCHITECTURE.md,
// "The CLI's fixed cost").
var operations = sync.OnceValue(func() map[string]operation {
	return map[string]operation{
		protocol.OpHello: hostOp(func(h *Host, _ context.Context, _ noArgs) (protocol.HostInfo, error) {
			return h.helloInfo(), nil
		}),
		protocol.OpStatus: hostOp(func(h *Host, _ context.Context, _ noArgs) (protocol.Status, error) {
			return h.status(), nil
		}),

		protocol.OpPause:  personOp((*Host).pause),
		protocol.OpResume: personOp((*Host).resume),
		protocol.OpLog:    personOp((*Host).showLog),
		protocol.OpPolicy: personOp((*Host).showPolicy),
		// A step handed to the person: the tab is read back like an action's
		// when they are done (host/handoff.go).
		protocol.OpHandoff: readOp(func(_ *Host, a *protocol.HandoffArgs) readScope {
			return readScope{&a.Tab, readInfo}
		}, (*Host).handoff),

		protocol.OpTabs:      listOp((*Host).listTabs),
		protocol.OpDownloads: listOp((*Host).listDownloads),

		protocol.OpSnapshot: readOp(func(_ *Host, a *protocol.SnapshotArgs) readScope {
			return readScope{&a.Tab, readSnapshot}
		}, (*Host).snapshot),
		protocol.OpScreenshot: readOp(func(_ *Host, a *protocol.ScreenshotArgs) readScope {
			return readScope{&a.Tab, readScreenshot}
		}, (*Host).screenshot),
		// A tab's dialog is read like its URL: no frame's content.
		protocol.OpDialog: readOp(func(_ *Host, a *protocol.DialogArgs) readScope {
			return readScope{&a.Tab, readInfo}
		}, (*Host).showDialog),
		protocol.OpWait: readOp(waitScope, (*Host).wait),
		// One element's whole text (host/readelement.go).
		protocol.OpRead: readOp(readScopeOf, (*Host).readElement),

		protocol.OpAct: actionOp((*Host).act),

		// Developer tools (host/console.go, network.go, eval.go, shots.go):
		// console and network are read like a snapshot (a blocked frame's
		// part left out by the handler); a body's tab is known only from the
		// browser's answer, and the handler checks it; eval is an action
		// whose handler runs the pause, the script rule and the record; a PDF
		// and a shaped screenshot show every frame's pixels.
		protocol.OpConsole: readOp(func(_ *Host, a *protocol.ConsoleArgs) readScope {
			return readScope{&a.Tab, readSnapshot}
		}, (*Host).Console),
		protocol.OpNetwork: readOp(func(_ *Host, a *protocol.NetworkArgs) readScope {
			return readScope{&a.Tab, readSnapshot}
		}, (*Host).Network),
		protocol.OpNetworkBody: listOp((*Host).NetworkBody),
		protocol.OpEval:        actionOp((*Host).Eval),
		protocol.OpPDF: readOp(func(_ *Host, a *protocol.PDFArgs) readScope {
			return readScope{&a.Tab, readScreenshot}
		}, (*Host).PDF),
		protocol.OpScreenshotShape: readOp(shapeScope, (*Host).ScreenshotShape),

		protocol.OpRecord: sessionOp((*Host).record),

		// A request of this connection its client gave up on (host/cancel.go).
		protocol.OpCancel: hostOp(func(_ *Host, ctx context.Context, a protocol.CancelArgs) (struct{}, error) {
			requestsOf(ctx).cancel(a.Request)
			return struct{}{}, nil
		}),
	}
})

// serve runs one agent request: its table entry decodes the arguments
// once, the gate of its kind runs, then its handler.
func (h *Host) serve(ctx context.Context, req protocol.Request) (any, error) {
	op, ok := operations()[req.Op]
	if !ok {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"see grip --help for the operations", "unknown operation %q", req.Op)
	}
	// A session the person ended is refused whatever it asks
	// (host/sessions.go).
	if err := h.person.checkSession(ctx); err != nil {
		return nil, err
	}
	return h.withhold(op.run(h, ctx, req.Args)) // host/withhold.go
}
