package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/grip-dev/grip/actlog"
	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
)

// The tools of grip's own state and the person's controls:
// browser_status (grip status, log, policy, downloads: all read-only) and
// browser_pause (grip pause, resume).

// statusIn is browser_status' input: grip's state, or with show one of
// the other listings.
type statusIn struct {
	Show  string `json:"show,omitempty" jsonschema:"log: this session's actions; policy: the person's rules for agents; downloads: id, state, size, tab, location, URL"`
	URL   string `json:"url,omitempty" jsonschema:"policy: the rule this URL falls under"`
	Tab   int    `json:"tab,omitempty" jsonschema:"log, downloads: only this tab's"`
	Limit int    `json:"limit,omitempty" jsonschema:"log, downloads: at most this many, newest (default 50, 20)"`
}

type pauseIn struct {
	Resume bool `json:"resume,omitempty" jsonschema:"Ask the person to let agents act again instead; waits for their answer"`
}

// addPersonTools registers browser_status and browser_pause.
func (s *Server) addPersonTools() {
	addTool(s, &Tool{Name: "browser_status", ops: []string{protocol.OpStatus, protocol.OpLog, protocol.OpPolicy, protocol.OpDownloads},
		Description: "grip's state (versions, refs, errors, output_dir: see Files), or another listing (show)."},
		func(p map[string]*Schema) {
			p["show"].Enum = []any{"log", "policy", "downloads"}
			p["limit"].Minimum = ptr(0.0)
		}, s.statusTool)
	addTool(s, &Tool{Name: "browser_pause", ops: []string{protocol.OpPause, protocol.OpResume},
		Description: "Pause every agent's actions in this browser (reads go on) until resumed: by the person, or in a headless browser grip launch started by whoever launched it (the reply says how)."}, nil, s.pause)
}

// statusTool answers browser_status: the status, or the listing show names.
func (s *Server) statusTool(ctx context.Context, in statusIn) (*CallToolResult, error) {
	if in.URL != "" && in.Show != "policy" || (in.Tab != 0 || in.Limit != 0) && in.Show != "log" && in.Show != "downloads" {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"url goes with show: policy; tab and limit with show: log or downloads", "browser_status: a parameter of another show")
	}
	switch in.Show {
	case "log":
		return s.agentLog(ctx, in)
	case "policy":
		return s.policy(ctx, in)
	case "downloads":
		return s.downloads(ctx, in) // mcp/files.go
	}
	return s.status(ctx)
}

func (s *Server) status(ctx context.Context) (*CallToolResult, error) {
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
	text += s.outputDirLine(ctx)
	return textResult(text), nil
}

func (s *Server) pause(ctx context.Context, in pauseIn) (*CallToolResult, error) {
	if in.Resume {
		return s.resume(ctx)
	}
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

func (s *Server) resume(ctx context.Context) (*CallToolResult, error) {
	if _, err := s.ops.Resume(ctx); err != nil {
		return nil, err
	}
	return textResult("The person allowed agents to act again.\n"), nil
}

func (s *Server) agentLog(ctx context.Context, in statusIn) (*CallToolResult, error) {
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
		b.WriteString("No actions of this session recorded.\n")
	}
	return textResult(b.String()), nil
}

func (s *Server) policy(ctx context.Context, in statusIn) (*CallToolResult, error) {
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
