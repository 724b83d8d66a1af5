package host

import (
	"context"
	"fmt"

	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/locator"
	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/refcache"
)

// Reading one element's whole text (docs/reading.md, "Reading one
// element"): what a snapshot's line cuts, read in parts the size of the
// budget. The element is named as an action names it — a ref, or a
// snapshot line resolved to one (host/resolve.go) — and checked as an
// action's is before anything is read: the ref's tab is the session's to
// use, its frame's origin is not blocked, the node is still there and still
// means what the agent saw. A read changes nothing on the page, so the
// person's pause lets it through as it lets snapshots through.

// maxReadRunes bounds what one read asks the kernel for, whatever the
// budget: a reply must stay far under native messaging's 64 MiB.
const maxReadRunes = 4 << 20

// readScopeOf is what a read looks at: the tab of the ref it names, read
// like one element (no frame's content: readElement judges the element's
// own frame). A target it cannot resolve here is judged by the handler: a
// snapshot line passes resolveLine's own gate, a bad target or a stale ref
// reads no page.
func readScopeOf(h *Host, a *protocol.ReadArgs) readScope {
	loc, err := locator.Parse(a.Target)
	if err != nil || loc.Ref == 0 {
		return readScope{&a.Tab, readNone}
	}
	e, err := h.refs.Resolve(loc.Ref)
	if err != nil || (a.Tab != 0 && a.Tab != e.Tab) {
		return readScope{&a.Tab, readNone}
	}
	a.Tab = e.Tab
	return readScope{&a.Tab, readInfo}
}

// readElement answers OpRead: the part of the element's text from
// args.From that fits the budget, and the command that reads on.
func (h *Host) readElement(ctx context.Context, args protocol.ReadArgs) (*protocol.ReadResult, error) {
	if args.Budget < 0 || args.From < 0 {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"give a positive --budget and --from (the --from a read's last line names)", "read budget %d, from %d", args.Budget, args.From)
	}
	e, ref, err := h.readTarget(ctx, args)
	if err != nil {
		return nil, err
	}
	unlock, err := h.tabs.lock(ctx, e.Tab)
	if err != nil {
		return nil, err
	}
	defer unlock()
	// The ref may have gone stale while the read waited for the tab.
	if _, err := h.refs.Resolve(e.Ref); err != nil {
		return nil, err
	}
	if err := h.checkReadFrame(ctx, e); err != nil {
		return nil, err
	}
	budget := args.Budget
	if budget == 0 {
		budget = protocol.DefaultBudget
	}
	var rep protocol.ReadReply
	params := protocol.ReadParams{TabID: e.Tab, DocumentID: e.Key.DocumentID, LocalID: e.Key.LocalID, From: args.From,
		Max: min(budget*3+3, maxReadRunes)} // no line shows more than 3 runes a token
	if err := callExt(ctx, h, protocol.ExtRead, params, &rep); err != nil {
		return nil, h.refineActError(err, actTarget{ref: ref})
	}
	// The page may have gone to a blocked site after the frames were
	// judged (a child frame's document stays pinned, the top's may not).
	readOn := "grip read " + ref
	if args.Budget > 0 {
		readOn += fmt.Sprintf(" --budget %d", args.Budget)
	}
	res, err := frames.RenderRead(frames.ReadPart{Tab: rep.Tab, Line: h.readLine(e, ref, rep), Content: rep.Text,
		From: args.From, Total: rep.Total, Secret: rep.Secret, Secrets: rep.Secrets, ReadOn: readOn}, args.Budget)
	if err != nil {
		return nil, err
	}
	res.Ref = ref
	return &res, nil
}

// readTarget resolves the read's target to the entry of one ref: a
// snapshot line to the one element it names in the tab, as an action's
// target is. A CSS selector names no element grip has told the agent
// about, so a read takes none.
func (h *Host) readTarget(ctx context.Context, args protocol.ReadArgs) (refcache.Entry, string, error) {
	if args.Target == "" {
		return refcache.Entry{}, "", protocol.Errorf(protocol.CodeInvalidLocator, protocol.BoundaryPayload,
			"name the element with a ref from a snapshot, e.g. grip read @e3", "read needs an element")
	}
	loc, err := locator.Parse(args.Target)
	if err != nil {
		return refcache.Entry{}, "", err
	}
	target := args.Target
	if loc.Line != nil {
		if target, err = h.resolveLine(ctx, args.Tab, *loc.Line, ""); err != nil {
			return refcache.Entry{}, "", err
		}
		if loc, err = locator.Parse(target); err != nil {
			return refcache.Entry{}, "", err
		}
	}
	if loc.Ref == 0 {
		return refcache.Entry{}, "", protocol.Errorf(protocol.CodeInvalidLocator, protocol.BoundaryPayload,
			"take a content snapshot (grip snapshot --mode content) and name the element by its ref or its line, e.g. \"heading 'Terms'\"",
			"a read names its element by ref or snapshot line, not by CSS (%q)", args.Target)
	}
	e, err := h.refs.Resolve(loc.Ref)
	if err != nil {
		return refcache.Entry{}, "", h.foreignRef(ctx, loc.Ref, err)
	}
	if args.Tab != 0 && args.Tab != e.Tab {
		return refcache.Entry{}, "", protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"leave out --tab when reading a ref: it names its tab", "%s belongs to tab %d, not tab %d", target, e.Tab, args.Tab)
	}
	return e, refcache.FormatRef(e.Ref), nil
}

// checkReadFrame refuses to read an element of a frame the person's policy
// blocks (or of a tab whose page it blocks), however the agent came by its
// ref. Under a policy with no rules only grip's built-in blocks apply, and
// no ref is ever given into those frames (readTab leaves them out), so the
// frames are not asked for.
func (h *Host) checkReadFrame(ctx context.Context, e refcache.Entry) error {
	if h.person == nil {
		return nil
	}
	p := h.person.policy.Current()
	if p.Trivial() {
		return nil
	}
	tr, err := h.frameRules(ctx, p, e.Tab)
	if err != nil {
		return err
	}
	if tr.top.Rule == policy.Block {
		return h.refuseBlocked(fmt.Sprintf("tab %d", e.Tab), tr.top)
	}
	frame, ok := tr.byDoc[e.Key.DocumentID]
	if !ok {
		return protocol.Errorf(protocol.CodeStaleRef, protocol.BoundaryDocument, "take a new snapshot and use the ref it gives",
			"%s is stale: its frame's document is gone", refcache.FormatRef(e.Ref))
	}
	if d := tr.byFrame[frame]; d.Rule == policy.Block {
		return h.refuseBlocked(fmt.Sprintf("frame %d of tab %d", frame, e.Tab), d)
	}
	return nil
}

// readLine is the element's line as the agent last saw it, without its
// value (the text read says it whole); an element the tab's last read did
// not show, as the page names it now.
func (h *Host) readLine(e refcache.Entry, ref string, rep protocol.ReadReply) string {
	el, _, _, ok := h.tabs.seen(e.Tab, e.Ref, e.Key.FrameID)
	if !ok {
		el = protocol.Element{Ref: ref, Role: rep.Role, Name: rep.Name}
	}
	el.Value = nil
	return frames.Line(el)
}
