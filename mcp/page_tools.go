package mcp

import (
	"context"

	"github.com/grip-dev/grip/protocol"
)

// The tools of the page verbs tools.go leaves out: scroll, find, focus,
// forward, reload.

type refOpt struct {
	Element string `json:"element,omitempty" jsonschema:"What the element is, for the reply only"`
	Ref     string `json:"ref,omitempty" jsonschema:"Element to scroll into view (a target); leave out to scroll the page by a screen"`
}

type scrollIn struct {
	refOpt
	Up bool `json:"up,omitempty" jsonschema:"Scroll the page up instead of down (without ref)"`
	actOpts
}

type findIn struct {
	Text    string `json:"text" jsonschema:"What the element says: a part of its text, matched ignoring case"`
	Element string `json:"element,omitempty" jsonschema:"What the list is, for the reply only"`
	Ref     string `json:"ref,omitempty" jsonschema:"The list, grid or region to search, scrolling its content (a ref or snapshot line); leave out to search the page"`
	actOpts
}

type focusIn struct {
	target
	actOpts
}

type tabOnlyIn struct {
	Tab int `json:"tab,omitempty" jsonschema:"Tab id (default: the active tab)"`
}

// addPageTools registers browser_scroll, browser_find, browser_focus,
// browser_navigate_forward and browser_reload.
func (s *Server) addPageTools() {
	tabMin := func(p map[string]*Schema) {
		if t, ok := p["tab"]; ok {
			t.Minimum = ptr(1.0)
		}
	}
	addTool(s, &Tool{Name: "browser_scroll", Title: "Scroll",
		Description: "Scroll an element into view (ref), or the page down (or up) by a screen. A list or grid that renders rows as they come into view shows more after it." + actReply}, tabMin, s.scroll)
	addTool(s, &Tool{Name: "browser_find", Title: "Find by text",
		Description: "Bring an element into view by what it says: scrolls the page, or the list or grid ref names, step by step (waiting for a virtualized list to render each step) until an element's text holds text, and replies with that element's line and ref, not every row passed on the way. Refused not_found, saying how far it scrolled, when none does." + pageText}, tabMin, s.find)
	addTool(s, &Tool{Name: "browser_focus", Title: "Focus",
		Description: "Move the keyboard focus to an element." + actReply}, tabMin, s.focus)
	addTool(s, &Tool{Name: "browser_navigate_forward", Title: "Go forward",
		Description: "Go forward in the tab's history."}, tabMin, s.forward)
	addTool(s, &Tool{Name: "browser_reload", Title: "Reload",
		Description: "Reload the tab. Refs of the page before become stale."}, tabMin, s.reload)
}

func (s *Server) scroll(ctx context.Context, in scrollIn) (*CallToolResult, error) {
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

func (s *Server) find(ctx context.Context, in findIn) (*CallToolResult, error) {
	args := protocol.ActArgs{Action: protocol.ActFind, Text: in.Text, Target: normRef(in.Ref), Tab: in.Tab, Snapshot: in.Snapshot, NoSettle: in.NoSettle}
	what := "Found in the page"
	if args.Target != "" {
		what = "Found in " + named(args.Target, in.Element)
	}
	return s.act(ctx, args, what)
}

func (s *Server) focus(ctx context.Context, in focusIn) (*CallToolResult, error) {
	args := actArgs(protocol.ActFocus, in.target, in.actOpts, false)
	return s.act(ctx, args, "Focused "+named(args.Target, in.Element))
}

func (s *Server) forward(ctx context.Context, in tabOnlyIn) (*CallToolResult, error) {
	return s.act(ctx, protocol.ActArgs{Action: protocol.ActForward, Tab: in.Tab}, "Went forward")
}

func (s *Server) reload(ctx context.Context, in tabOnlyIn) (*CallToolResult, error) {
	return s.act(ctx, protocol.ActArgs{Action: protocol.ActReload, Tab: in.Tab}, "Reloaded")
}
