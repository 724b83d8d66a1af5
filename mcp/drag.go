package mcp

import (
	"context"

	"github.com/grip-dev/grip/protocol"
)

// dragIn is browser_drag's input, named as Playwright MCP names it: the
// element to drag and the one to drop it on, each a ref and a description.
type dragIn struct {
	StartElement string `json:"startElement,omitempty" jsonschema:"What the dragged element is, for the reply only"`
	StartRef     string `json:"startRef" jsonschema:"The element to drag (a target, see Targets in the instructions)"`
	EndElement   string `json:"endElement,omitempty" jsonschema:"What the drop target is, for the reply only"`
	EndRef       string `json:"endRef" jsonschema:"Where to drop it (a target in the same frame)"`
	actOpts
}

func (s *Server) drag(ctx context.Context, in dragIn) (*CallToolResult, error) {
	args := protocol.ActArgs{Action: protocol.ActDrag, Target: normRef(in.StartRef), To: normRef(in.EndRef), Tab: in.Tab, Snapshot: in.Snapshot, NoSettle: in.NoSettle}
	return s.act(ctx, args, "Dragged "+named(args.Target, in.StartElement)+" onto "+named(args.To, in.EndElement))
}
