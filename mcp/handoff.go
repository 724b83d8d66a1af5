package mcp

import (
	"context"
	"strings"

	"github.com/grip-dev/grip/protocol"
)

// browser_handoff (docs/sessions.md, "Handing a step to the person").

type handoffIn struct {
	Why string `json:"why" jsonschema:"One sentence for their notification: 'Solve the CAPTCHA, then press Done'"`
	tabIn
	Timeout float64 `json:"timeout,omitempty" jsonschema:"Seconds (default 300)"`
}

func addHandoffTool(s *Server) {
	addTool(s, &Tool{Name: "browser_handoff", ops: []string{protocol.OpHandoff},
		Description: "Ask the person to do one step themselves (a CAPTCHA, a one-time code, a login, a payment, their judgement) and wait for their Done: the reply is what changed. not_confirmed (refused, no answer): stop and ask them; never try it yourself."},
		func(p map[string]*Schema) {
			p["why"].MinLength = ptr(1)
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
