package host

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/grip-dev/grip/actlog"
	"github.com/grip-dev/grip/locator"
	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/refcache"
)

// The action pipeline (docs/acting.md, "Acting on a ref: every
// boundary checked"). act lists every step an action takes, in order;
// each step is a function of its own, most of them in this file, the
// person's controls in host/controls.go.

// action is one action as it goes through the pipeline: what the agent
// asked for, and what each step learnt for the next.
type action struct {
	spec protocol.Action
	// args are the agent's arguments. The steps fill in what they decide:
	// Tab is never trusted from here once the target is resolved (see
	// target.tab), Epoch pins the page the policy's rule was decided on.
	args    protocol.ActArgs
	started time.Time
	// rec is the entry of the person's record of what agents did; every
	// step may add to it, and it is written whatever the outcome.
	rec actlog.Entry

	// Set by checkInput.
	key       string // press: the canonical key (host/keys.go)
	modifiers []string
	upload    *upload // upload: the files, read

	// Set by resolveTarget; target.tab is the tab the action lands on.
	target actTarget
	drop   dropTarget

	// seen is what a recording keeps of the target before the action
	// (noteTarget); secret says the page took the text into a field whose
	// value grip never reports.
	seen   *seenTarget
	secret bool

	// Set by a find or a scroll of a list (host/find.go): the state a
	// find carries into its next kernel call, its answer, where the list
	// stands, and the document whose local ids they name.
	findState *protocol.FindState
	found     *protocol.FindReply
	list      *protocol.ListView
	doc       string
}

// actTarget is where an element action lands, decided at the host before
// anything reaches the browser.
type actTarget struct {
	tab   int
	ref   string
	entry *refcache.Entry
	chain []string
}

// performed is what the act step reports to the ones after it.
type performed struct {
	detail  string
	effects protocol.ActEffects
	// closed is set when the action closed its own tab (tab_close):
	// there is nothing to read back.
	closed *protocol.TabRef
}

// act runs one action. Every step may refuse; a refusal ends the action
// there, and the record says which.
func (h *Host) act(ctx context.Context, args protocol.ActArgs) (*protocol.ActionResult, error) {
	spec, ok := protocol.LookupAction(args.Action)
	if !ok {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"see grip --help for the actions", "unknown action %q", args.Action)
	}
	a := &action{spec: spec, args: args, started: time.Now()}
	h.downloads.of(sessionOf(ctx)).acted(a.started) // where grip wait --download starts looking
	// The record names the target and tab from the start: an action the
	// pause refuses at step 1 is recorded with them too.
	a.rec = actlog.Entry{Time: a.started, Action: args.Action, Target: args.Target, Tab: args.Tab, Client: clientOf(ctx), Session: sessionOf(ctx), Detail: actDetail(spec, args)}
	if loc, err := locator.Parse(args.Target); err == nil && loc.Ref != 0 {
		if e, err := h.refs.Resolve(loc.Ref); err == nil {
			a.rec.Tab = e.Tab
			if line, ok := h.tabs.shownLine(e.Tab, loc.Ref); ok {
				a.rec.Target = line
			}
		}
	}
	res, err := h.runAction(ctx, a)
	if loc, lerr := locator.Parse(a.args.Target); lerr == nil && err != nil {
		err = h.roleWordRefusal(a, h.staleRefusal(loc.Ref, err))
	}
	h.recordAction(ctx, a, res, err)
	if err != nil {
		h.recordRefused(ctx) // the recorder says it left one out
	}
	return res, err
}

func (h *Host) runAction(ctx context.Context, a *action) (*protocol.ActionResult, error) {
	// 1. The person's pause refuses every action.
	if h.person.isPaused() {
		return nil, h.errPaused(ctx)
	}
	// 2. The target: a malformed locator, an unknown or stale ref is
	// refused here, before anything reaches the browser.
	if err := h.resolveTarget(ctx, a); err != nil {
		return nil, err
	}
	// 3. The tab is one this agent may use: its session's own, one the
	// person shared, or the person's under tabs = all (host/controls.go).
	if err := h.checkOwner(ctx, a); err != nil {
		return nil, err
	}
	// 4. What the verb takes: its text, its key, its files (the policy's
	// file check, host/uploads.go) and, for navigate, its URL.
	if err := h.checkInput(ctx, a); err != nil {
		return nil, err
	}
	// 5. The person's policy: the rule of the frame the action lands in
	// and of the URL it goes to; a question to the person where the rule
	// says confirm (host/controls.go).
	if err := h.checkRule(ctx, a); err != nil {
		return nil, err
	}
	// 6. One operation at a time per tab.
	unlock, err := h.lockAction(ctx, a)
	if err != nil {
		return nil, err
	}
	defer unlock()
	// 7. The page the action was decided on is still there: the tab's
	// epoch, and the ref, which may have gone stale while we waited.
	if err := h.checkCurrent(a); err != nil {
		return nil, err
	}
	// While the session records: the target as the agent saw it, before
	// the action changes the page (host/recorder.go).
	h.noteTarget(ctx, a)
	// Where the agent last saw the tab: an action that changed nothing
	// else may have moved it to #section (hintUntrusted).
	urlBefore := h.tabs.topURL(a.target.tab)
	// 8. Act: in the page (the kernel's checks of node, meaning and
	// actionability, then synthetic input, or the point for trusted
	// input), on the tab, or on its dialog.
	done, err := h.perform(ctx, a)
	if err != nil {
		return nil, err
	}
	// 9. A tab the action opened belongs to the session that opened it,
	// and is its default tab, as is a tab it selected (host/sessions.go).
	switch a.spec.Name {
	case protocol.ActTabNew:
		unlockNew, err := h.adoptTab(ctx, a)
		if err != nil {
			return nil, err
		}
		defer unlockNew()
	case protocol.ActTabSelect:
		h.person.setCurrent(sessionOf(ctx), a.target.tab)
	}
	if done.closed != nil {
		return h.closedReply(a, done), nil
	}
	// 10. Settling: the read back waits until the page is quiet, within
	// a bound (host/settle.go).
	settle := h.settle(a, done)
	// 11. Read back what changed, and what else the action did (dialogs,
	// tabs opened and closed, navigations): host/effects.go.
	readArgs := a.args
	if a.list != nil {
		// A list's rows are counted, not listed: tellList cuts the lines
		// to the budget once they are taken out.
		readArgs.ChangesBudget = math.MaxInt32
	}
	res, err := h.finishAction(ctx, a.target.tab, done.detail, readArgs, done.effects, settle, a.started)
	if err != nil {
		return nil, err
	}
	// 11b. A find's element, and a long list's rows counted rather than
	// listed (host/find.go).
	h.tellList(a, res)
	// 12. A download the action started.
	h.addDownload(ctx, a, res)
	// 12b. A hover or a press by events that did nothing the reply knows
	// of says to try the real pointer (host/effects.go).
	h.hintUntrusted(a, res, urlBefore)
	// 13. Nothing of a blocked page reaches the agent.
	h.maskResult(res)
	// 14. The recorder's hook: a workflow being recorded gets the step.
	h.recordStep(ctx, a, res)
	return res, nil
}

// resolveTarget parses the target and, for a ref, finds its entry and
// tab; a target written as a snapshot line is first resolved to the ref of
// the one element it names (host/resolve.go); drag's second element is
// checked like the first.
func (h *Host) resolveTarget(ctx context.Context, a *action) error {
	a.target = actTarget{tab: a.args.Tab}
	if a.args.To != "" {
		if l, ok := locator.ParseLine(a.args.To); ok {
			ref, err := h.resolveLine(ctx, a.args.Tab, l, a.args.Origin)
			if err != nil {
				return err
			}
			a.args.To = ref
		}
	}
	if a.args.Target != "" {
		a.rec.Target = a.args.Target
		loc, err := locator.Parse(a.args.Target)
		if err != nil {
			return err
		}
		if loc.Line != nil {
			ref, err := h.resolveLine(ctx, a.args.Tab, *loc.Line, a.args.Origin)
			if err != nil {
				return err
			}
			// From here on the target is that ref, with a ref's checks.
			a.args.Target = ref
			if loc, err = locator.Parse(ref); err != nil {
				return err
			}
		}
		if loc.Ref != 0 {
			e, err := h.refs.Resolve(loc.Ref)
			if err != nil {
				return h.foreignRef(ctx, loc.Ref, err)
			}
			if a.args.Tab != 0 && a.args.Tab != e.Tab {
				return protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
					"leave out --tab when acting on a ref", "%s belongs to tab %d, not tab %d", a.args.Target, e.Tab, a.args.Tab)
			}
			a.target.tab, a.target.ref, a.target.entry = e.Tab, a.args.Target, &e
			if line, ok := h.tabs.shownLine(e.Tab, loc.Ref); ok {
				a.rec.Target = line
			}
			if err := h.checkOrigin(a, e); err != nil {
				return err
			}
		} else {
			a.target.chain = loc.Chain
		}
	}
	if a.spec.InPage() {
		drop, err := h.resolveDrop(a.spec, a.args, a.target)
		if err != nil {
			return err
		}
		a.drop = drop
	}
	a.rec.Tab = a.target.tab
	return nil
}

// checkOrigin refuses a target that is not in a frame of the origin the
// action names (a recorded workflow's step: the same button on another
// site's frame is not the one recorded).
func (h *Host) checkOrigin(a *action, e refcache.Entry) error {
	if a.args.Origin == "" {
		return nil
	}
	_, frameURL, _, _ := h.tabs.seen(e.Tab, e.Ref, e.Key.FrameID)
	if o, ok := policy.ParseOrigin(frameURL); ok && o.String() == a.args.Origin {
		return nil
	}
	where := "a frame grip has not read"
	if o, ok := policy.ParseOrigin(frameURL); ok {
		where = "a frame of " + o.String()
	}
	return protocol.Errorf(protocol.CodeNotFound, protocol.BoundaryPage,
		"take a snapshot to see which frame holds what", "%s is in %s, not in one of %s", a.args.Target, where, a.args.Origin)
}

// checkInput checks what the verb takes besides its target, before
// anything reaches the browser.
func (h *Host) checkInput(ctx context.Context, a *action) error {
	// The record and the person's question name the URL as the browser
	// reads it (host/navigate.go) and the real files an upload sends.
	defer func() { a.rec.Detail = actDetail(a.spec, a.args) }()
	if err := h.browserURLs(ctx, a.spec, &a.args); err != nil {
		return err
	}
	spec, args := a.spec, a.args
	if spec.InPage() && args.Target == "" && spec.Target == protocol.TargetRequired {
		return protocol.Errorf(protocol.CodeInvalidLocator, protocol.BoundaryPayload,
			"name the element with a ref from a snapshot, e.g. @e3", "%s needs a target element", args.Action)
	}
	if err := checkSpots(spec, args); err != nil {
		return err
	}
	if (args.At != nil || args.ToAt != nil) && h.recording(ctx) {
		// A workflow step names its element, not a point in it: replayed,
		// it would act at the element's centre, another action.
		return protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"stop the recording for this step (grip record stop), or act on a listed element",
			"a recorded workflow cannot keep a point (--at, --to, --to-offset)")
	}
	if spec.Name == protocol.ActNavigate && args.Text == "" {
		return protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "give a URL", "navigate needs a URL")
	}
	if spec.Name == protocol.ActPress {
		var err error
		if a.key, a.modifiers, err = parseKey(args.Text); err != nil {
			return err
		}
	}
	// An upload's files are read now: one missing or unreadable is refused
	// before anything reaches the browser.
	if spec.Files {
		var err error
		if a.upload, a.args.Files, err = h.readUpload(ctx, args.Files); err != nil { // judged by the policy
			return err
		}
	} else if len(args.Files) > 0 {
		return protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "", "%s takes no files", args.Action)
	}
	return nil
}

// checkSpots refuses a point the action does not take, or one no box
// holds; the page checks that it falls inside the element and what is
// under it (docs/drawings.md, "Drawings and canvases").
func checkSpots(spec protocol.Action, args protocol.ActArgs) error {
	if args.At != nil {
		if !spec.At {
			return protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
				"only click, dblclick, rightclick, hover and drag take a point (--at)", "%s takes no point inside its target", args.Action)
		}
		if err := args.At.Check("the point"); err != nil {
			return err
		}
	}
	if args.ToAt != nil {
		if !spec.To {
			return protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
				"only drag takes a drop point (--to, --to-offset)", "%s takes no drop point", args.Action)
		}
		if err := args.ToAt.Check("the drop point"); err != nil {
			return err
		}
	}
	return nil
}

// lockAction waits for the tab's turn (the active tab when none is
// named yet). A tab the action opens does not exist yet: adoptTab locks it.
func (h *Host) lockAction(ctx context.Context, a *action) (func(), error) {
	if a.spec.Name == protocol.ActTabNew {
		return func() {}, nil
	}
	tab, unlock, err := h.lockTab(ctx, a.target.tab)
	if err != nil {
		return nil, err
	}
	a.target.tab, a.rec.Tab = tab, tab
	return unlock, nil
}

// checkCurrent refuses an action decided on a page that is gone.
func (h *Host) checkCurrent(a *action) error {
	if a.spec.Name == protocol.ActTabNew {
		return nil
	}
	if err := h.checkEpoch(a.target.tab, a.args.Epoch); err != nil {
		return err
	}
	if a.target.entry != nil {
		if _, err := h.refs.Resolve(a.target.entry.Ref); err != nil {
			return err
		}
	}
	return nil
}

// perform carries the action out: the kernel in the page, or the
// extension on the tab or its dialog.
func (h *Host) perform(ctx context.Context, a *action) (performed, error) {
	switch {
	case a.spec.Name == protocol.ActFind:
		return h.performFind(ctx, a)
	case a.spec.InPage():
		return h.performInPage(ctx, a)
	case a.spec.Ext == string(protocol.ExtDialog):
		return h.answerDialog(ctx, a)
	}
	return h.performOnTab(ctx, a)
}

// performInPage runs an element action in exactly the ref's document (or
// through the frame chain), then its real input when it is trusted.
func (h *Host) performInPage(ctx context.Context, a *action) (performed, error) {
	tab, args := a.target.tab, a.args
	params := protocol.ActParams{
		TabID: tab, Action: args.Action, Text: args.Text, Key: a.key, Modifiers: a.modifiers,
		Trusted: args.Trusted && a.spec.Trusted, Find: a.findState, At: args.At, ToAt: args.ToAt,
	}
	if e := a.target.entry; e != nil {
		params.DocumentID, params.FrameID, params.LocalID = e.Key.DocumentID, e.Key.FrameID, e.Key.LocalID
		a.doc = e.Key.DocumentID
	} else if len(a.target.chain) > 0 {
		params.Chain = a.target.chain
	}
	if err := a.drop.fill(h, &params); err != nil {
		return performed{}, err
	}
	if a.upload != nil {
		if err := h.sendUpload(ctx, a.upload); err != nil {
			return performed{}, err
		}
		params.Upload = &a.upload.spec
	}
	var res protocol.ActReply
	if err := h.callAct(ctx, params, a.upload, &res); err != nil {
		return performed{}, h.refineActError(err, a.target)
	}
	done := performed{detail: res.Detail, effects: res.ActEffects}
	a.secret = res.Secret
	a.found, a.list = res.Find, res.List
	if res.DocumentID != "" && a.doc == "" {
		a.doc = res.DocumentID
	}
	if params.Trusted {
		// Trusted input: the real mouse or keys at the point the page
		// checked (host/trusted.go).
		fx, err := h.trustedInput(ctx, tab, args, res, a.key, a.modifiers)
		if err != nil {
			return performed{}, h.refineActError(err, a.target)
		}
		done.effects = fx
	}
	return done, nil
}

// performOnTab runs navigate, back, forward, reload and the tab
// operations, each through its request in protocol/extension.go (the
// action's Ext in protocol.Actions).
func (h *Host) performOnTab(ctx context.Context, a *action) (performed, error) {
	var info protocol.TabReply
	switch a.spec.Name {
	case protocol.ActTabNew:
		var tab protocol.Tab
		if err := callExt(ctx, h, protocol.ExtTabNew, protocol.TabParams{URL: a.args.Text, Session: sessionOf(ctx)}, &tab); err != nil {
			return performed{}, h.withErrorPageTitle(ctx, protocol.AsError(err).Tab, err)
		}
		a.target.tab, a.rec.Tab = tab.ID, tab.ID
		return performed{detail: fmt.Sprintf("opened tab %d", tab.ID)}, nil
	case protocol.ActTabSelect:
		if err := callExt(ctx, h, protocol.ExtTabSelect, protocol.TabParams{TabID: a.target.tab}, &info.TabRef); err != nil {
			return performed{}, err
		}
		return performed{}, nil
	}
	c, ok := tabCalls[a.spec.Name]
	if !ok {
		return performed{}, protocol.Errorf(protocol.CodeInternal, protocol.BoundaryHost, "",
			"the action %s has no request to the extension", a.spec.Name)
	}
	if err := callExt(ctx, h, c, protocol.TabParams{TabID: a.target.tab, URL: a.args.Text}, &info); err != nil {
		return performed{}, h.withErrorPageTitle(ctx, a.target.tab, err)
	}
	if info.Dialog != nil {
		// The page asks before it lets go (beforeunload): nothing happens
		// until the dialog is answered.
		return performed{effects: protocol.ActEffects{Dialog: info.Dialog}}, nil
	}
	if a.spec.Name == protocol.ActTabClose {
		return performed{detail: fmt.Sprintf("closed tab %d", a.target.tab), closed: &info.TabRef}, nil
	}
	return performed{}, nil
}

// tabCalls are the requests of the actions on a tab that answer the tab,
// or the dialog that stopped them (a page that asks before it is left);
// host/operations_test.go holds them to protocol.Actions' Ext.
var tabCalls = map[string]protocol.ExtCall[protocol.TabParams, protocol.TabReply]{
	protocol.ActNavigate: protocol.ExtNavigate,
	protocol.ActBack:     protocol.ExtBack,
	protocol.ActForward:  protocol.ExtForward,
	protocol.ActReload:   protocol.ExtReload,
	protocol.ActTabClose: protocol.ExtTabClose,
}

// closedReply is the reply of an action that closed its tab: every ref of
// the tab is gone.
func (h *Host) closedReply(a *action, done performed) *protocol.ActionResult {
	h.refs.InvalidateTab(a.target.tab)
	gone := h.tabs.forget(a.target.tab)
	return &protocol.ActionResult{OK: true, Tab: *done.closed, Detail: done.detail,
		Changes: protocol.Changes{Added: []string{}, Gone: formatRefs(gone)}}
}

// recordAction writes the action, whatever its outcome, to the person's
// record of what agents did, and tells the popup of one that was done.
func (h *Host) recordAction(ctx context.Context, a *action, res *protocol.ActionResult, err error) {
	if h.person == nil {
		return
	}
	rec := a.rec
	rec.Outcome = outcomeOf(ctx, err)
	if err != nil {
		if rec.Tab == 0 && a.spec.Name != protocol.ActTabNew {
			// Refused before a tab was picked (the pause refuses first):
			// the record names the tab the action would have landed on.
			if tab, terr := h.agentTab(ctx, h.person.policy.Current(), 0); terr == nil {
				rec.Tab = tab
			}
		}
	} else if res != nil {
		if rec.Tab == 0 {
			rec.Tab = res.Tab.ID
		}
		if rec.Origin == "" {
			rec.Origin = originOf(res.Tab.URL)
		}
	}
	h.person.record(rec)
	if err == nil && rec.Tab > 0 {
		tellExtension(ctx, h, protocol.ExtActed, protocol.ActedParams{TabID: rec.Tab, Action: a.args.Action})
	}
}

// refineActError names the ref in the page's refusal, so the agent sees
// which of its handles failed.
// A page's not_actionable refusal that says no next step gets one
// (notActionableHint): every refusal tells the agent what to do.
func (h *Host) refineActError(err error, t actTarget) error {
	perr := protocol.AsError(err)
	c := *perr
	if c.Hint == "" && c.Code == protocol.CodeNotActionable {
		c.Hint = notActionableHint(c.Message)
	}
	if t.ref == "" {
		return &c
	}
	c.Message = t.ref + ": " + c.Message
	if c.Hint == "" && (c.Code == protocol.CodeStaleRef || c.Code == protocol.CodeMeaningChanged || c.Code == protocol.CodeDocumentChanged) {
		c.Hint = "take a new snapshot with grip snapshot and use the ref it gives"
	}
	return &c
}

// notActionableHint is the next step after the kernel's not_actionable
// refusal msg (extension/kernel/acts.js, run.js, choice.js), which found
// by walking real apps (scripts/walk) often came without one.
func notActionableHint(msg string) string {
	switch {
	case strings.Contains(msg, "not editable"):
		return "fill and type take a text field or an editor; a select takes grip select REF OPTION, a checkbox grip check REF"
	case strings.Contains(msg, "read-only"):
		return "typing into it will not work; a picker's field takes a click and a pick from what the page opens (grip snapshot shows it)"
	case strings.Contains(msg, "outside the viewport"):
		return "bring it into view with grip scroll REF or grip find TEXT, then act again"
	case strings.Contains(msg, "not visible"), strings.Contains(msg, "no size"), strings.Contains(msg, "hidden"):
		return "open what holds it first (a menu, a tab, a panel), then take a new snapshot with grip snapshot"
	case strings.Contains(msg, "disabled"):
		return "do first what the page needs to enable it, or wait for it with grip wait"
	case strings.Contains(msg, "did not become"):
		return "the page keeps that state itself: click the control it shows instead (grip snapshot), then check its state"
	}
	return "take a new snapshot with grip snapshot and act on what it lists"
}

func (h *Host) checkEpoch(tab int, epoch uint64) error {
	if epoch == 0 {
		return nil
	}
	if cur := h.tabs.current(tab); cur > epoch {
		return protocol.Errorf(protocol.CodeEpochSuperseded, protocol.BoundaryTask,
			"take a new snapshot and act on what it shows", "epoch %d is older than tab %d's current epoch %d (the page changed)", epoch, tab, cur)
	}
	return nil
}

func formatRefs(refs []uint64) []string {
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = refcache.FormatRef(r)
	}
	return out
}
