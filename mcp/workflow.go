package mcp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/grip-dev/grip/internal/privatefile"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/workflow"
)

// The tools of recorded workflows (docs/ARCHITECTURE.md, "Recorded
// workflows"): browser_record writes what this session does as a workflow
// file; browser_replay runs one with no model.

type recordIn struct {
	Action string `json:"action" jsonschema:"start, stop or status"`
	File   string `json:"file,omitempty" jsonschema:"start: the workflow file to write when the recording stops (a new file; absolute, or relative to the folder grip mcp runs in)"`
}

type replayIn struct {
	File   string            `json:"file" jsonschema:"The workflow file to run"`
	Params map[string]string `json:"params,omitempty" jsonschema:"The values of the workflow's {{NAME}} placeholders, by name"`
	Tab    int               `json:"tab,omitempty" jsonschema:"Tab id to replay in (default: the active tab)"`
}

func addWorkflowTools(s *Server) {
	addTool(s, &Tool{Name: "browser_record", Title: "Record a workflow",
		Description: "Record what you do from now on as a workflow file a person can read, edit and run again with no model (browser_replay, or grip replay FILE). " +
			"start with a file, act as usual, then stop: every action is written with its target as the snapshot showed it and what followed. " +
			"A secret field's text is written as a {{NAME}} placeholder, never the text; give param on browser_type or browser_fill to make any other text a placeholder too."},
		func(p map[string]*Schema) {
			p["action"].Enum = []any{protocol.RecordStart, protocol.RecordStop, protocol.RecordStatus}
		}, s.recordTool)
	addTool(s, &Tool{Name: "browser_replay", Title: "Replay a workflow",
		Description: "Run a recorded workflow file step by step with no model: each step finds its element as recorded, runs every check a ref gets, acts and waits for the recorded effect. " +
			"At the first step the page no longer matches it stops, does nothing more, and answers replay_diverged with the step, what it expected and the closest elements the page shows (their refs are live): take over from there."},
		func(p map[string]*Schema) { p["tab"].Minimum = ptr(1.0) }, s.replayTool)
}

func (s *Server) recordTool(ctx context.Context, in recordIn) (*CallToolResult, error) {
	args := protocol.RecordArgs{Action: in.Action}
	switch in.Action {
	case protocol.RecordStart:
		if strings.TrimSpace(in.File) == "" {
			return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "pass file: \"statement.grip\"", "start needs a file")
		}
		abs, err := filepath.Abs(in.File)
		if err != nil {
			return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "give an absolute path", "%s: %v", in.File, err)
		}
		if _, err := os.Lstat(abs); err == nil {
			return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
				"choose a new file name", "%s already exists; grip does not overwrite files", abs)
		}
		args.File = abs
	case protocol.RecordStop, protocol.RecordStatus:
	default:
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "use start, stop or status", "unknown action %q", in.Action)
	}
	res, err := s.ops.Record(ctx, args)
	if err != nil {
		return nil, err
	}
	switch {
	case in.Action == protocol.RecordStop:
		if err := privatefile.WriteNew(res.File, []byte(res.Text)); err != nil {
			if errors.Is(err, fs.ErrExist) {
				return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "", "%s appeared while recording; the workflow was not written", res.File)
			}
			return nil, err
		}
		msg := fmt.Sprintf("Wrote %d steps to %s.", res.Steps, res.File)
		if len(res.Params) > 0 {
			msg += " Parameters: " + strings.Join(res.Params, ", ") + "."
		}
		if res.Refused > 0 {
			msg += fmt.Sprintf(" %d refused action(s) while recording are not in it: read the file, and record again if a step is missing.", res.Refused)
		}
		return textResult(msg + "\n"), nil
	case res.Recording:
		return textResult(fmt.Sprintf("Recording into %s (%d steps so far).\n", res.File, res.Steps)), nil
	}
	return textResult("Not recording.\n"), nil
}

func (s *Server) replayTool(ctx context.Context, in replayIn) (*CallToolResult, error) {
	text, err := os.ReadFile(in.File)
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "give the file browser_record wrote", "%v", err)
	}
	w, err := workflow.Parse(strings.NewReader(string(text)))
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "fix that line of the file", "%s: %v", in.File, err)
	}
	res, err := workflow.Replay(ctx, s.ops, w, workflow.Options{Tab: in.Tab, Params: in.Params})
	if err != nil {
		if d := res.Diverged; d != nil {
			var b strings.Builder
			fmt.Fprintf(&b, "Replay stopped at step %d of %d (line %d): %s\nExpected: %s\nFound: %s\n", d.Step, res.Steps, d.Line, d.Text, d.Expected, d.Found)
			for _, c := range d.Candidates {
				b.WriteString("Closest: " + c + "\n")
			}
			b.WriteString("Nothing after it was done; take over from this step.\n")
			r := toolError(err)
			r.Content = append(r.Content, &TextContent{Text: b.String()})
			return r, nil
		}
		return nil, err
	}
	return textResult(fmt.Sprintf("Replayed %d steps of %s.\n", res.Done, in.File)), nil
}
