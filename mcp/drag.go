package mcp

import (
	"context"

	"github.com/grip-dev/grip/protocol"
)

// dragIn is browser_drag's input, named as Playwright MCP names it: the
// element to drag and the one to drop it on, each a ref and a description.
type dragIn struct {
	StartElement string `json:"startElement,omitempty"`
	StartRef     string `json:"startRef" jsonschema:"The target to drag"`
	EndElement   string `json:"endElement,omitempty"`
	EndRef       string `json:"endRef" jsonschema:"The target to drop it on"`
	StartAt      *point `json:"startAt,omitempty" jsonschema:"Press at this point of it, CSS px from its box's top-left (a shape on a canvas; endRef the same for a move inside it)"`
	To           *point `json:"to,omitempty" jsonschema:"Drop at this point of endRef, in percent of its box (x: 40, y: 60)"`
	ToOffset     *point `json:"toOffset,omitempty" jsonschema:"Or in CSS px from its top-left"`
	actOpts
}

func (s *Server) drag(ctx context.Context, in dragIn) (*CallToolResult, error) {
	args := protocol.ActArgs{Action: protocol.ActDrag, Target: normRef(in.StartRef), To: normRef(in.EndRef), Tab: in.Tab, Snapshot: in.Snapshot, NoSettle: in.NoSettle}
	if in.To != nil && in.ToOffset != nil {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "give to or toOffset", "to and toOffset both name a drop point")
	}
	args.At = in.StartAt.spot(false)
	args.ToAt = in.To.spot(true)
	if in.ToOffset != nil {
		args.ToAt = in.ToOffset.spot(false)
	}
	what := "Dragged " + named(args.Target, in.StartElement) + " onto " + named(args.To, in.EndElement)
	if args.ToAt != nil {
		what += " at " + args.ToAt.String()
	}
	return s.act(ctx, args, what)
}
