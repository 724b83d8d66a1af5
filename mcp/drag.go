package mcp

import (
	"context"

	"github.com/grip-dev/grip/protocol"
)

// dragIn is browser_drag's input, named as Playwright MCP names it: the
// element to drag and the one to drop it on, each a ref and a description.
type dragIn struct {
	StartElement string `json:"startElement,omitempty" jsonschema:"Human-readable description of the element to drag, used only to describe what was done"`
	StartRef     string `json:"startRef" jsonschema:"The element to drag: a ref from browser_snapshot such as @e3, a snapshot line such as \"listitem 'Milk'\", or a CSS selector in the top frame"`
	EndElement   string `json:"endElement,omitempty" jsonschema:"Human-readable description of where to drop, used only to describe what was done"`
	EndRef       string `json:"endRef" jsonschema:"Where to drop it, in the same frame: a ref from browser_snapshot such as @e7, a snapshot line, or a CSS selector"`
	actOpts
}

func (s *Server) drag(ctx context.Context, in dragIn) (*CallToolResult, error) {
	args := protocol.ActArgs{Action: protocol.ActDrag, Target: normRef(in.StartRef), To: normRef(in.EndRef), Tab: in.Tab, Snapshot: in.Snapshot, NoSettle: in.NoSettle}
	return s.act(ctx, args, "Dragged "+named(args.Target, in.StartElement)+" onto "+named(args.To, in.EndElement))
}
