package host

import (
	"context"
	"fmt"
	"time"

	"github.com/grip-dev/grip/actlog"
	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
)

// MaxEvalTimeout bounds how long an expression may run in the page.
const MaxEvalTimeout = 60 * time.Second

// Eval runs an expression in the top frame's page world and returns its
// JSON value (docs/devtools.md, "Developer tools"). Code can do
// anything the page can, so it runs only where the person's policy says
// script for the page's origin, never while agents are paused, and the
// page must still be on that origin when it runs. The record says that an
// eval ran, where, and how long its source was: never the source, which
// may carry a token or a password the agent was given, nor the result.
func (h *Host) Eval(ctx context.Context, args protocol.EvalArgs) (*protocol.EvalResult, error) {
	if args.Expression == "" {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"give the expression: grip eval 'document.title'", "no expression")
	}
	timeout := time.Duration(args.TimeoutMS) * time.Millisecond
	if args.TimeoutMS < 0 || timeout > MaxEvalTimeout {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			fmt.Sprintf("give a timeout up to %s", MaxEvalTimeout), "timeout %d ms", args.TimeoutMS)
	}
	if timeout == 0 {
		timeout = 10 * time.Second
	}
	u := h.person
	if u == nil {
		return nil, protocol.Errorf(protocol.CodePolicy, protocol.BoundaryPolicy, "", "this host has no policy that could allow eval")
	}
	rec := actlog.Entry{Time: time.Now(), Action: protocol.OpEval, Tab: args.Tab, Client: clientOf(ctx), Session: sessionOf(ctx),
		Detail: fmt.Sprintf("%d characters of code, not kept", len([]rune(args.Expression)))}
	res, err := h.eval(ctx, args, timeout, &rec)
	rec.Outcome = outcomeOf(ctx, err)
	u.record(rec)
	if err == nil && rec.Tab > 0 {
		tellExtension(ctx, h, protocol.ExtActed, protocol.ActedParams{TabID: rec.Tab, Action: protocol.OpEval})
	}
	return res, err
}

func (h *Host) eval(ctx context.Context, args protocol.EvalArgs, timeout time.Duration, rec *actlog.Entry) (*protocol.EvalResult, error) {
	u := h.person
	if u.isPaused() {
		return nil, h.errPaused(ctx)
	}
	p := u.policy.Current()
	tab, err := h.agentTab(ctx, p, args.Tab)
	if err != nil {
		return nil, err
	}
	rec.Tab = tab
	tab, unlock, err := h.lockTab(ctx, tab)
	if err != nil {
		return nil, err
	}
	defer unlock()
	tr, err := h.frameRules(ctx, p, tab)
	if err != nil {
		return nil, err
	}
	rec.Origin = tr.topOrigin
	d := tr.top
	switch {
	case d.Rule == policy.Block:
		rec.Rule, rec.Origin = d.Why(), ""
		return nil, h.refuseBlocked(fmt.Sprintf("tab %d", tab), d)
	case d.Rule != policy.Script || tr.topOrigin == "":
		rec.Rule = d.Why()
		origin := tr.topOrigin
		if origin == "" {
			return nil, protocol.Errorf(protocol.CodePolicy, protocol.BoundaryPolicy,
				"open a page of a site the person allows code on", "tab %d shows a page of no origin, where eval is never allowed", tab)
		}
		return nil, protocol.Errorf(protocol.CodePolicy, protocol.BoundaryPolicy,
			fmt.Sprintf("only the person can allow it: they may add the line \"script %s\" to that file (grip policy %s shows the rule now); do not work around it", origin, origin),
			"eval on %s is refused: code runs only where the policy says script for the origin, and it says %s (%s of %s)", origin, d.Rule, d.Why(), u.policy.File())
	}
	rec.Rule = d.Why()
	cctx, cancel := context.WithTimeout(ctx, timeout+5*time.Second)
	defer cancel()
	var rep protocol.EvalReply
	if err := extCall(cctx, h.port, protocol.ExtEvaluate, protocol.EvaluateParams{TabID: tab, Expression: args.Expression,
		Origin: tr.topOrigin, TimeoutMS: int(timeout / time.Millisecond)}, &rep); err != nil {
		return nil, err
	}
	return &rep, nil
}
