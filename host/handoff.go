package host

import (
	"context"
	"time"

	"github.com/grip-dev/grip/actlog"
	"github.com/grip-dev/grip/protocol"
)

// The handoff (docs/sessions.md, "Handing a step to the person"): an
// agent that meets a step only the person should take — a CAPTCHA, a
// second factor, a login, a payment to confirm — asks them to do it on
// the tab. The question goes through the extension's question machinery
// (a notification and the popup) with Done and Refuse; when the person is
// done, the tab is read back as after an action, so the agent learns
// what changed.

// handoff answers OpHandoff. The table's gate checked the tab is one the
// session may use and set args.Tab.
func (h *Host) handoff(ctx context.Context, args protocol.HandoffArgs) (*protocol.ActionResult, error) {
	why := cleanClient(args.Why)
	if why == "" {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			`say what the person should do, e.g. grip handoff "solve the CAPTCHA, then press Done"`, "handoff needs a reason")
	}
	timeout := time.Duration(args.TimeoutMS) * time.Millisecond
	switch {
	case args.TimeoutMS < 0:
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "give a positive --timeout", "timeout %d ms", args.TimeoutMS)
	case args.TimeoutMS == 0:
		timeout = protocol.DefaultHandoffTimeoutMS * time.Millisecond
	case args.TimeoutMS > protocol.MaxHandoffTimeoutMS:
		timeout = protocol.MaxHandoffTimeoutMS * time.Millisecond
	}
	tab, err := h.resolveTab(ctx, args.Tab)
	if err != nil {
		return nil, err
	}
	rec := actlog.Entry{Time: time.Now(), Tab: tab, Action: protocol.OpHandoff, Detail: why,
		Client: clientOf(ctx), Session: sessionOf(ctx)}
	var info protocol.TabRef
	if err := callExt(ctx, h, protocol.ExtTabInfo, protocol.TabParams{TabID: tab}, &info); err == nil {
		rec.Origin = originOf(info.URL)
	}
	res, err := h.runHandoff(ctx, tab, why, timeout, &rec)
	rec.Outcome = outcomeOf(ctx, err)
	if h.person != nil {
		h.person.record(rec)
	}
	return res, err
}

func (h *Host) runHandoff(ctx context.Context, tab int, why string, timeout time.Duration, rec *actlog.Entry) (*protocol.ActionResult, error) {
	if h.noOneToAsk() {
		return nil, protocol.Errorf(protocol.CodeNotConfirmed, protocol.BoundaryUser,
			"tell whoever launched this browser what is needed and stop; in a browser they run headed (grip launch --headed) the step can be handed over",
			"no one can take the step in this headless browser grip launch started: there is no window, notification or popup to show it: %s", why)
	}
	cp := protocol.ConfirmParams{ID: randomID(), TabID: tab, Origin: rec.Origin, Action: protocol.OpHandoff,
		Detail: why, Client: rec.Client, Session: rec.Session, Kind: protocol.ConfirmKindHandoff,
		TimeoutMS: int(timeout / time.Millisecond)}
	// The extension answers TimedOut itself at the timeout; the extra
	// seconds only cover a worker that cannot.
	cctx, cancel := context.WithTimeout(ctx, timeout+5*time.Second)
	defer cancel()
	var rep protocol.ConfirmReply
	err := extCall(cctx, h.port, protocol.ExtConfirm, cp, &rep)
	switch {
	case err != nil && ctx.Err() != nil:
		return nil, ctx.Err()
	case err == nil && rep.TimedOut, err != nil && cctx.Err() == context.DeadlineExceeded:
		return nil, protocol.Errorf(protocol.CodeNotConfirmed, protocol.BoundaryUser,
			"the person may be away: tell them what is needed and stop, or hand it over again later (a longer --timeout)",
			"the person did not take the step within %s: %s", timeout, why)
	case err != nil:
		return nil, protocol.Errorf(protocol.CodeNotConfirmed, protocol.BoundaryUser,
			"this needs the person in the browser; try again when the extension is connected",
			"could not hand the step to the person: %s", protocol.AsError(err).Message)
	case !rep.Allowed:
		return nil, protocol.Errorf(protocol.CodeNotConfirmed, protocol.BoundaryUser,
			"the person will not do this step: do not try it yourself or another way; ask them what they want instead",
			"the person refused: %s", why)
	}
	rec.Confirmed = true
	tab, unlock, err := h.lockTab(ctx, tab)
	if err != nil {
		return nil, err
	}
	defer unlock()
	res, err := h.finishAction(ctx, tab, "the person did it: "+why, protocol.ActArgs{Tab: tab}, protocol.ActEffects{}, true, rec.Time)
	if err != nil {
		return nil, err
	}
	h.maskResult(res)
	return res, nil
}
