package mcp

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/grip-dev/grip/outdir"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/workflow"
)

// browser_record (docs/workflows.md, "Recorded workflows"): start,
// stop and status write what this session does as a workflow file (grip
// record); replay runs one with no model (grip replay).

// actReplay is browser_record's action that replays a file.
const actReplay = "replay"

type recordIn struct {
	Action string `json:"action"`
	File   string `json:"file,omitempty" jsonschema:"start, replay: the workflow's file (see Files)"`
	// Person waits for the person's Done at most
	// protocol.DefaultPersonRecordTimeoutMS (ten minutes).
	Person bool              `json:"person,omitempty" jsonschema:"start: the person shows it; saved at their Done"`
	Params map[string]string `json:"params,omitempty" jsonschema:"replay: the values of its {{NAME}} placeholders"`
	tabIn
}

func addWorkflowTools(s *Server) {
	addTool(s, &Tool{Name: "browser_record", ops: []string{protocol.OpRecord, protocol.OpSnapshot, protocol.OpAct, protocol.OpWait},
		Description: "Record what you do from start to stop as a workflow file a person can read and run with no model; secrets become {{NAME}} placeholders (param on browser_type makes one). " +
			"replay runs one; at the first step the page no longer matches it stops and answers replay_diverged with what it expected and the closest elements (live refs): take over there."},
		func(p map[string]*Schema) {
			p["action"].Enum = []any{protocol.RecordStart, protocol.RecordStop, protocol.RecordStatus, actReplay}
		}, s.recordTool)
}

func (s *Server) recordTool(ctx context.Context, in recordIn) (*CallToolResult, error) {
	if in.Person && in.Action != protocol.RecordStart {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "person is for action: start", "%s takes no person", in.Action)
	}
	if in.Action == actReplay {
		return s.replayTool(ctx, in)
	}
	if in.Params != nil || in.Tab != 0 {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "params and tab are for action: replay", "%s takes no params or tab", in.Action)
	}
	args := protocol.RecordArgs{Action: in.Action}
	switch in.Action {
	case protocol.RecordStart:
		if strings.TrimSpace(in.File) == "" {
			return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "pass file: \"statement.grip\"", "start needs a file")
		}
		d, err := s.outputDir(ctx)
		if err != nil {
			return nil, err
		}
		err = d.CheckNew(in.File)
		args.File = d.File(in.File)
		d.Close()
		if err != nil {
			return nil, err
		}
		if in.Person {
			args.Person = true
		}
	case protocol.RecordStop, protocol.RecordStatus:
	default:
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "use start, stop, status or replay", "unknown action %q", in.Action)
	}
	res, err := s.ops.Record(ctx, args)
	if err != nil {
		return nil, err
	}
	switch {
	case in.Action == protocol.RecordStop || args.Person:
		path, err := s.saveRecording(ctx, res.File, res.Text)
		if err != nil {
			return nil, err
		}
		msg := fmt.Sprintf("Wrote %d steps to %s.", res.Steps, path)
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

// saveRecording writes a stopped recording into the output folder, by the
// name its start gave. A recording the session's CLI started with a path
// elsewhere is written there by that path's last name, never to the path:
// the MCP server writes nowhere else.
func (s *Server) saveRecording(ctx context.Context, file, text string) (string, error) {
	d, err := s.outputDir(ctx)
	if err != nil {
		return "", err
	}
	defer d.Close()
	name := filepath.Base(file)
	path, err := d.WriteNew(name, []byte(text))
	if errors.Is(err, protocol.ErrBadRequest) && filepath.Dir(file) == d.Path() && outdir.CheckName(name) == nil {
		return "", protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "", "%s appeared while recording; the workflow was not written", file)
	}
	if err != nil {
		return "", fmt.Errorf("the workflow was not written: %w", err)
	}
	return path, nil
}

// replayTool runs a workflow file of the output folder: a regular file,
// not a link, at most workflow.MaxFile bytes, whose first line says it is
// a workflow. A refusal quotes nothing of a file that is not one.
func (s *Server) replayTool(ctx context.Context, in recordIn) (*CallToolResult, error) {
	if strings.TrimSpace(in.File) == "" {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "pass file: the workflow's name", "replay needs a file")
	}
	d, err := s.outputDir(ctx)
	if err != nil {
		return nil, err
	}
	text, err := d.ReadFile(in.File, workflow.MaxFile)
	d.Close()
	if errors.Is(err, protocol.ErrTooLarge) {
		return nil, protocol.Errorf(protocol.CodeTooLarge, protocol.BoundaryPayload, "give the file browser_record wrote", "%s: %v", in.File, workflow.ErrTooLarge)
	}
	if err != nil {
		return nil, err
	}
	w, err := workflow.Parse(strings.NewReader(string(text)))
	if errors.Is(err, workflow.ErrNotWorkflow) {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"give the file browser_record wrote", "%s: %v", in.File, err)
	}
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
