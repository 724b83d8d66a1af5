package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/grip-dev/grip/actlog"
	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
)

// VerbTools names the tool that does what each CLI verb does, so an agent
// over MCP can do all an agent at the shell can (a test in package cli
// fails when a verb has no tool, or a tool no verb). Verbs of other
// rounds' features appear once their commands exist.
var VerbTools = map[string]string{
	"tabs":       "browser_tabs",
	"snapshot":   "browser_snapshot",
	"click":      "browser_click",
	"dblclick":   "browser_click",
	"hover":      "browser_hover",
	"focus":      "browser_focus",
	"type":       "browser_type",
	"fill":       "browser_fill",
	"select":     "browser_select_option",
	"check":      "browser_check",
	"uncheck":    "browser_check",
	"press":      "browser_press_key",
	"scroll":     "browser_scroll",
	"navigate":   "browser_navigate",
	"back":       "browser_navigate_back",
	"forward":    "browser_navigate_forward",
	"reload":     "browser_reload",
	"wait":       "browser_wait_for",
	"screenshot": "browser_take_screenshot",
	"status":     "browser_status",
	"pause":      "browser_pause",
	"resume":     "browser_resume",
	"log":        "browser_log",
	"policy":     "browser_policy",
	"upload":     "browser_file_upload",
	"downloads":  "browser_downloads",
	"drag":       "browser_drag",
	"dialog":     "browser_handle_dialog",
	"console":    "browser_console_messages",
	"network":    "browser_network_requests",
	"eval":       "browser_evaluate",
	"pdf":        "browser_pdf_save",
	"record":     "browser_record",
	"replay":     "browser_replay",
	"handoff":    "browser_handoff",
}

// Composites are the tools that do in one call what several verbs do,
// by the verbs they stand for.
var Composites = map[string][]string{
	"browser_fill_form": {"fill", "select", "check", "uncheck"},
}

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

type logIn struct {
	Tab   int `json:"tab,omitempty" jsonschema:"Only this tab's actions"`
	Limit int `json:"limit,omitempty" jsonschema:"The latest N actions (default 50)"`
}

type policyIn struct {
	URL string `json:"url,omitempty" jsonschema:"A URL: say which rule of the person's policy it falls under"`
}

type noIn struct{}

// addMoreTools registers the tools of the verbs the first round's tools
// did not cover.
func (s *Server) addMoreTools() {
	ro := &ToolAnnotations{ReadOnlyHint: true}
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
	addTool(s, &Tool{Name: "browser_status", Title: "grip status", Annotations: ro,
		Description: "grip's own state: the host's version and the extension's, refs in use, the last snapshot, recent errors."}, nil, s.status)
	addTool(s, &Tool{Name: "browser_pause", Title: "Pause agents",
		Description: "Pause every agent's actions in this browser (reads go on) until the person resumes them."}, nil, s.pause)
	addTool(s, &Tool{Name: "browser_resume", Title: "Resume agents",
		Description: "Ask the person, in the browser, to let agents act again; it waits for their answer."}, nil, s.resume)
	addTool(s, &Tool{Name: "browser_log", Title: "What agents did", Annotations: ro,
		Description: "The record of agents' actions in this browser (never typed text), oldest first."},
		func(p map[string]*Schema) { p["tab"].Minimum = ptr(1.0); p["limit"].Minimum = ptr(0.0) }, s.agentLog)
	addTool(s, &Tool{Name: "browser_policy", Title: "The person's policy", Annotations: ro,
		Description: "The person's policy for agents in this browser (sites blocked, read-only, or asking before each action), and which rule a URL falls under."}, nil, s.policy)
}

func (s *Server) scroll(ctx context.Context, in scrollIn) (*CallToolResult, error) {
	args := protocol.ActArgs{Action: protocol.ActScroll, Target: normRef(in.Ref), Tab: in.Tab, Snapshot: in.Snapshot}
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

func (s *Server) status(ctx context.Context, _ noIn) (*CallToolResult, error) {
	st, err := s.ops.Status(ctx)
	if err != nil {
		return nil, err
	}
	text := fmt.Sprintf("grip host %s (pid %d), extension %s, profile %s\nrefs: %d live, %d stale, next @e%d\n",
		st.Host.HostVersion, st.Host.PID, st.Host.ExtensionVersion, st.Host.Profile, st.LiveRefs, st.InactiveRefs, st.NextRef)
	if st.Host.Warning != "" {
		text += "warning: " + st.Host.Warning + "\n"
	}
	for _, e := range st.LastErrors {
		text += "recent error: " + e + "\n"
	}
	return textResult(text), nil
}

func (s *Server) pause(ctx context.Context, _ noIn) (*CallToolResult, error) {
	if _, err := s.ops.Pause(ctx); err != nil {
		return nil, err
	}
	return textResult("Agents are paused in this browser; the person resumes them from grip's popup.\n"), nil
}

func (s *Server) resume(ctx context.Context, _ noIn) (*CallToolResult, error) {
	if _, err := s.ops.Resume(ctx); err != nil {
		return nil, err
	}
	return textResult("The person allowed agents to act again.\n"), nil
}

func (s *Server) agentLog(ctx context.Context, in logIn) (*CallToolResult, error) {
	limit := in.Limit
	if limit == 0 {
		limit = 50
	}
	res, err := s.ops.Log(ctx, protocol.LogArgs{Tab: in.Tab, Limit: limit})
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	for _, e := range res.Entries {
		b.WriteString(actlog.Line(e) + "\n")
	}
	if b.Len() == 0 {
		b.WriteString("No agent actions recorded.\n")
	}
	return textResult(b.String()), nil
}

func (s *Server) policy(ctx context.Context, in policyIn) (*CallToolResult, error) {
	res, err := s.ops.Policy(ctx, protocol.PolicyArgs{URL: in.URL})
	if err != nil {
		return nil, err
	}
	text := policy.Describe(*res)
	if res.Policy.Error != "" {
		text += "The policy file does not read well (the last good policy stays in force): " + res.Policy.Error + "\n"
	}
	return textResult(text), nil
}
