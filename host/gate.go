package host

import (
	"context"
	"fmt"
	"reflect"

	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
)

// The one gate every agent request passes (docs/person.md, "The
// person's controls"). It is decided by the operation's row in
// protocol.Operations, never by the operation's entry or handler, and runs
// in the entry's wrapper (host/operations.go entry), so no handler can
// skip it:
//
//   - every request: a session the person ended is refused (serve);
//   - a row that acts (act, eval): the action pipeline's steps are its
//     gate (host/act.go runAction; eval's own in host/eval.go), as its tab
//     is known only once its target is resolved — the pause, the tab's
//     owner, the rule of the frame it lands in, the person's question;
//   - a row that reads a tab: before the handler, the tab must be one this
//     session may use (not another session's, in the shared mode one
//     shared) and not blocked, and a read of every frame is refused with a
//     blocked frame (gateRead); after it, the tab as the browser answered
//     is judged again, with its frames for a read of pixels, since the
//     page may have moved to a blocked site or taken in a blocked frame
//     meanwhile (gateAfter);
//   - a row that lists (tabs, downloads, a body): the handler leaves out or
//     masks what agents may not see, and a body, whose tab only the
//     browser's answer names, is judged as gateAfter would (checkAfter).
//
// A scope that would read more than its row says is refused as an
// internal error, not served.

// reach is how much of the browser a read of kind reads, as the rows of
// protocol.Operations say it.
func (k readKind) reach() protocol.Reach {
	switch k {
	case readInfo:
		return protocol.ReachTab
	case readSnapshot:
		return protocol.ReachContent
	case readProbe, readScreenshot:
		return protocol.ReachEveryFrame
	}
	return protocol.ReachNone
}

// gate runs before an operation's handler.
func (h *Host) gate(ctx context.Context, row protocol.Operation, s readScope) error {
	if s.kind.reach() > row.Reads {
		return protocol.Errorf(protocol.CodeInternal, protocol.BoundaryHost, "",
			"%s would read %s of a tab; its row in protocol.Operations says %s", row.Name, s.kind.reach(), row.Reads)
	}
	if row.Acts || row.Reads < protocol.ReachTab {
		return nil // the action pipeline; a list or no page
	}
	if s.tab == nil {
		return protocol.Errorf(protocol.CodeInternal, protocol.BoundaryHost, "",
			"%s reads a tab, and its entry in host/operations.go names none", row.Name)
	}
	return h.gateRead(ctx, s.tab, s.kind) // host/controls.go
}

// gateAfter runs after a read's handler, on its result: the tab the
// result names, as the browser answered, is judged again at the read's
// kind.
func (h *Host) gateAfter(ctx context.Context, row protocol.Operation, s readScope, res any) error {
	if h.person == nil || row.Acts || row.Reads < protocol.ReachTab || s.kind == readNone {
		return nil
	}
	shown, ok := resultTab(res)
	if !ok || shown.ID == 0 {
		return nil
	}
	return h.checkAfter(ctx, s.kind, shown)
}

// checkAfter refuses what a read of kind got from shown, the tab as the
// browser answered it: a blocked page (it may have navigated since the
// gate's check), and for a read of pixels, a blocked frame that came in.
func (h *Host) checkAfter(ctx context.Context, kind readKind, shown protocol.TabRef) error {
	if h.person == nil {
		return nil
	}
	p := h.person.policy.Current()
	if d, blocked := p.BlockedOwn(shown.URL); blocked {
		return h.refuseBlocked(fmt.Sprintf("tab %d", shown.ID), d)
	}
	if kind != readScreenshot {
		return nil
	}
	tr, err := h.frameRules(ctx, p, shown.ID)
	if err != nil {
		return protocol.Errorf(protocol.CodeTimeout, protocol.BoundaryBrowser, "take the picture again",
			"could not check tab %d's frames after the picture: %s", shown.ID, protocol.AsError(err).Message)
	}
	if tr.top.Rule == policy.Block {
		return h.refuseBlocked(fmt.Sprintf("tab %d", shown.ID), tr.top)
	}
	if id, d, ok := tr.blockedFrame(); ok {
		return protocol.Errorf(protocol.CodePolicy, protocol.BoundaryPolicy,
			"take a snapshot instead: it leaves the blocked frame out",
			"a picture of tab %d would show its frame %d, which is blocked: %s of %s", shown.ID, id, d.Why(), h.person.policy.File())
	}
	return nil
}

// tabRefType is the type of the Tab field a read's result names its tab by.
var tabRefType = reflect.TypeFor[protocol.TabRef]()

// resultTab is the tab a result names: its Tab field, when it has one.
func resultTab(res any) (protocol.TabRef, bool) {
	v := reflect.ValueOf(res)
	if v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return protocol.TabRef{}, false
		}
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return protocol.TabRef{}, false
	}
	f := v.FieldByName("Tab")
	if !f.IsValid() || f.Type() != tabRefType {
		return protocol.TabRef{}, false
	}
	return f.Interface().(protocol.TabRef), true
}
