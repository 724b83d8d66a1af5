package mcp

import (
	"context"

	"github.com/grip-dev/grip/protocol"
)

// browser_scroll: grip scroll, and grip find (text), which scrolls until
// an element says it.

type scrollIn struct {
	Element string `json:"element,omitempty"`
	Ref     string `json:"ref,omitempty" jsonschema:"Scroll this target into view; with text, the list to search"`
	Text    string `json:"text,omitempty" jsonschema:"Scroll step by step until an element's text holds this (any case); the reply is its line and ref"`
	Up      bool   `json:"up,omitempty" jsonschema:"Without ref or text: a screen up instead of down"`
	actOpts
}

// addPageTools registers browser_scroll.
func (s *Server) addPageTools() {
	addTool(s, &Tool{Name: "browser_scroll", ops: []string{protocol.OpAct},
		Description: "Scroll the page a screen, a target into view, or (text) the page or a list until an element says text, waiting for a virtualized list to render each step; not_found says how far it went." + actReply}, nil, s.scroll)
}

func (s *Server) scroll(ctx context.Context, in scrollIn) (*CallToolResult, error) {
	if in.Text != "" {
		return s.find(ctx, in)
	}
	args := protocol.ActArgs{Action: protocol.ActScroll, Target: normRef(in.Ref), Tab: in.Tab, Snapshot: in.Snapshot, NoSettle: in.NoSettle}
	if in.Up {
		args.Text = "up"
	}
	what := "Scrolled the page"
	if args.Target != "" {
		what = "Scrolled " + named(args.Target, in.Element) + " into view"
	}
	return s.act(ctx, args, what)
}

// find is browser_scroll with text: grip find.
func (s *Server) find(ctx context.Context, in scrollIn) (*CallToolResult, error) {
	if in.Up {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "leave out up: a search scrolls down", "up is for scrolling without text")
	}
	args := protocol.ActArgs{Action: protocol.ActFind, Text: in.Text, Target: normRef(in.Ref), Tab: in.Tab, Snapshot: in.Snapshot, NoSettle: in.NoSettle}
	what := "Found in the page"
	if args.Target != "" {
		what = "Found in " + named(args.Target, in.Element)
	}
	return s.act(ctx, args, what)
}
