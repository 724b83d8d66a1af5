package mcp

import (
	"context"

	"github.com/grip-dev/grip/protocol"
)

// The tools of the page verbs tools.go leaves out: scroll, focus,
// forward, reload.

type refOpt struct {
	Element string `json:"element,omitempty" jsonschema:"Human-readable description of the element, if ref is given"`
	Ref     string `json:"ref,omitempty" jsonschema:"Element to scroll into view (ref like @e3, a snapshot line, or a CSS selector); leave out to scroll the page by a screen"`
}

type scrollIn struct {
	refOpt
	Up bool `json:"up,omitempty" jsonschema:"Scroll the page up instead of down (without ref)"`
	actOpts
}

type focusIn struct {
	target
	actOpts
}

type tabOnlyIn struct {
	Tab int `json:"tab,omitempty" jsonschema:"Tab id from browser_tabs (default: the active tab)"`
}

// addPageTools registers browser_scroll, browser_focus,
// browser_navigate_forward and browser_reload.
func (s *Server) addPageTools() {
	tabMin := func(p map[string]*Schema) {
		if t, ok := p["tab"]; ok {
			t.Minimum = ptr(1.0)
		}
	}
	addTool(s, &Tool{Name: "browser_scroll", Title: "Scroll",
		Description: "Scroll an element into view (ref), or the page down (or up) by a screen. A scrollable list or grid that renders rows as they come into view shows more after it."}, tabMin, s.scroll)
	addTool(s, &Tool{Name: "browser_focus", Title: "Focus",
		Description: "Move the keyboard focus to an element." + refHelp}, tabMin, s.focus)
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
