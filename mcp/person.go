package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/grip-dev/grip/actlog"
	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
)

// The tools of grip's own state and the person's controls: status, pause,
// resume, the log of what agents did, the policy.

type logIn struct {
	Tab   int `json:"tab,omitempty" jsonschema:"Only this tab's actions"`
	Limit int `json:"limit,omitempty" jsonschema:"The latest N actions (default 50)"`
}

type policyIn struct {
	URL string `json:"url,omitempty" jsonschema:"A URL: say which rule of the person's policy it falls under"`
}

type noIn struct{}

// addPersonTools registers browser_status, browser_pause, browser_resume,
// browser_log and browser_policy.
func (s *Server) addPersonTools() {
	ro := &ToolAnnotations{ReadOnlyHint: true}
	addTool(s, &Tool{Name: "browser_status", Title: "grip status", Annotations: ro,
		Description: "grip's own state: the host's version and the extension's, refs in use, the last snapshot, recent errors."}, nil, s.status)
	addTool(s, &Tool{Name: "browser_pause", Title: "Pause agents",
		Description: "Pause every agent's actions in this browser (reads go on) until they are resumed: by the person, or in a headless browser grip launch started by whoever launched it (the reply says how)."}, nil, s.pause)
	addTool(s, &Tool{Name: "browser_resume", Title: "Resume agents",
		Description: "Ask the person, in the browser, to let agents act again; it waits for their answer (refused at once in a headless browser grip launch started, where no one can answer)."}, nil, s.resume)
	addTool(s, &Tool{Name: "browser_log", Title: "What agents did", Annotations: ro,
		Description: "The record of agents' actions in this browser (never typed text), oldest first."},
		func(p map[string]*Schema) { p["tab"].Minimum = ptr(1.0); p["limit"].Minimum = ptr(0.0) }, s.agentLog)
	addTool(s, &Tool{Name: "browser_policy", Title: "The person's policy", Annotations: ro,
		Description: "The person's policy for agents in this browser (sites blocked, read-only, or asking before each action), and which rule a URL falls under."}, nil, s.policy)
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
	if st.Paused {
		text += pauseText(st.PausedBy, st.Lift) + "\n"
	}
	for _, e := range st.LastErrors {
		text += "recent error: " + e + "\n"
	}
	return textResult(text), nil
}

func (s *Server) pause(ctx context.Context, _ noIn) (*CallToolResult, error) {
	st, err := s.ops.Pause(ctx)
	if err != nil {
		return nil, err
	}
	return textResult(pauseText(st.PausedBy, st.Lift) + "; reads go on.\n"), nil
}

// pauseText says whose the pause is (the person's, or the agent session's
// that paused: browser_pause, grip pause) and how it is lifted in this
// browser, as grip status does.
func pauseText(by, lift string) string {
	who := "by the person"
	if by != "" {
		who = "by agent session " + by
	}
	return "Agents are paused " + who + ": every action is refused until the pause is lifted (" + lift + ")"
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
