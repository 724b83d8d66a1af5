package mcp

import (
	"context"
	"strings"

	"github.com/grip-dev/grip/protocol"
)

// browser_handoff (docs/ARCHITECTURE.md, "Handing a step to the person").

type handoffIn struct {
	Why     string  `json:"why" jsonschema:"What the person should do, in one sentence they will read in a notification, e.g. 'Solve the CAPTCHA on the sign-up form, then press Done'"`
	Tab     int     `json:"tab,omitempty" jsonschema:"Tab id (default: this session's tab)"`
	Timeout float64 `json:"timeout,omitempty" jsonschema:"Seconds to wait for the person (default 300, at most 600)"`
}

func addHandoffTool(s *Server) {
	addTool(s, &Tool{Name: "browser_handoff", Title: "Hand a step to the person",
		Description: "Ask the person at the browser to do one step themselves, then carry on: a CAPTCHA or 'I am not a robot' check, " +
			"a two-factor or one-time code, a login or password, a payment or purchase to confirm, anything that needs their judgement or their secrets. " +
			"They get a notification and the grip popup shows why, with Done and Refuse; this call returns when they answer. " +
			"Done: what changed on the tab (as an action's reply). Refuse or no answer in time: not_confirmed — then stop and ask them, do not try the step yourself."},
		func(p map[string]*Schema) {
			p["why"].MinLength = ptr(1)
			p["tab"].Minimum = ptr(1.0)
			p["timeout"].Minimum = ptr(1.0)
			p["timeout"].Maximum = ptr(600.0)
		}, s.handoff)
}

func (s *Server) handoff(ctx context.Context, in handoffIn) (*CallToolResult, error) {
	why := strings.TrimSpace(in.Why)
	if why == "" {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"pass why: what the person should do", "browser_handoff needs why")
	}
	res, err := s.ops.Handoff(ctx, why, in.Tab, seconds(in.Timeout))
	if err != nil {
		return nil, err
	}
	return textResult(s.actionText("The person did it: "+why, *res)), nil
}
