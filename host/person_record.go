package host

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/grip-dev/grip/outdir"
	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/workflow"
)

// Recording by demonstration (docs/workflows.md, "Recorded workflows"):
// the person shows a task once in their own tab. The extension keeps what
// they did as protocol.PersonSteps — each one's target as a snapshot of
// its document names it, its frame's URL, the tab's URL before and after —
// and the person drops steps or makes a typed value a parameter in the
// popup. At Done the host turns them into workflow steps with the same
// machinery as an agent's recording (recording.target, textOf,
// substitute): a step on a site the policy blocks is left out, and a
// secret field's text never reaches the host at all (the kernel sends
// none), so the file holds a {{NAME}} placeholder there.

// personVerbs are the verbs a person's step may have: the actions the
// kernel and the worker record.
var personVerbs = map[string]bool{
	protocol.ActClick: true, protocol.ActDblClick: true, protocol.ActRightClick: true, protocol.ActType: true, protocol.ActFill: true,
	protocol.ActSelect: true, protocol.ActCheck: true, protocol.ActUncheck: true, protocol.ActPress: true,
	protocol.ActDrag: true, protocol.ActUpload: true, protocol.ActNavigate: true, protocol.ActBack: true,
	protocol.ActForward: true, protocol.ActReload: true,
}

// recordPerson answers `record start --person`: it asks the person in the
// popup to show the task, waits for their Done (or refusal, or the
// timeout), and answers as a stop does, with the workflow's text for the
// client to write.
func (h *Host) recordPerson(ctx context.Context, args protocol.RecordArgs) (protocol.RecordResult, error) {
	timeout := time.Duration(args.TimeoutMS) * time.Millisecond
	switch {
	case args.TimeoutMS < 0:
		return protocol.RecordResult{}, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "give a positive --timeout", "timeout %d ms", args.TimeoutMS)
	case args.TimeoutMS == 0:
		timeout = protocol.DefaultPersonRecordTimeoutMS * time.Millisecond
	case args.TimeoutMS > protocol.MaxPersonRecordTimeoutMS:
		timeout = protocol.MaxPersonRecordTimeoutMS * time.Millisecond
	}
	if h.noOneToAsk() {
		return protocol.RecordResult{}, protocol.Errorf(protocol.CodeNotConfirmed, protocol.BoundaryUser,
			"record it yourself (grip record start FILE without --person), or ask in a browser the person uses (grip launch --headed)",
			"no one can show the task in this headless browser grip launch started: there is no window or popup")
	}
	if h.recorders.get(sessionOf(ctx)) != nil {
		return protocol.RecordResult{}, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"stop it first with grip record stop", "this session is already recording")
	}
	name := args.File
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	params := protocol.RecordPersonParams{ID: randomID(), Client: clientOf(ctx), Session: sessionOf(ctx), File: name,
		TimeoutMS: int(timeout / time.Millisecond)}
	// The extension answers TimedOut itself at the timeout; the extra
	// seconds only cover a worker that cannot.
	cctx, cancel := context.WithTimeout(ctx, timeout+5*time.Second)
	defer cancel()
	var rep protocol.RecordPersonReply
	err := extCall(cctx, h.port, protocol.ExtRecordPerson, params, &rep)
	switch {
	case err != nil && ctx.Err() != nil:
		return protocol.RecordResult{}, ctx.Err()
	case err == nil && rep.TimedOut, err != nil && cctx.Err() == context.DeadlineExceeded:
		return protocol.RecordResult{}, protocol.Errorf(protocol.CodeNotConfirmed, protocol.BoundaryUser,
			"the person may be away: ask them again later, with a longer --timeout",
			"the person did not show the task within %s", timeout)
	case err != nil:
		return protocol.RecordResult{}, protocol.Errorf(protocol.CodeNotConfirmed, protocol.BoundaryUser,
			"this needs the person in the browser; try again when the extension is connected",
			"could not ask the person to show the task: %s", protocol.AsError(err).Message)
	case !rep.Done:
		return protocol.RecordResult{}, protocol.Errorf(protocol.CodeNotConfirmed, protocol.BoundaryUser,
			"the person will not show this task now: ask them what they want instead",
			"the person did not record the task")
	}
	w, refused := h.personWorkflow(rep.Steps, sessionOf(ctx))
	return protocol.RecordResult{File: args.File, Steps: len(w.Steps), Refused: refused, Params: w.Params(),
		Text: workflow.Format(w), Force: args.Force}, nil
}

// saveRecording answers HostSaveRecording: a recording the person started
// from the popup goes into grip's output folder (the one the MCP tools
// read by name), as a new file, never over one.
func (h *Host) saveRecording(p protocol.SaveRecordingParams) (protocol.SavedRecording, error) {
	w, refused := h.personWorkflow(p.Steps, "")
	dir, err := outdir.ForProfile(h.info.Profile)
	if err != nil {
		return protocol.SavedRecording{}, protocol.Errorf(protocol.CodeInternal, protocol.BoundaryHost, "", "grip's output folder: %v", err)
	}
	d, err := outdir.Open(dir)
	if err != nil {
		return protocol.SavedRecording{}, protocol.Errorf(protocol.CodeInternal, protocol.BoundaryHost, "", "grip's output folder: %v", err)
	}
	defer d.Close()
	name := strings.TrimSpace(p.Name)
	if name == "" {
		name = "shown-" + time.Now().Format("2006-01-02-150405") + ".grip"
	}
	if err := outdir.CheckName(name); err != nil {
		return protocol.SavedRecording{}, err
	}
	path, err := d.WriteNew(name, []byte(workflow.Format(w)))
	if err != nil {
		return protocol.SavedRecording{}, err
	}
	h.log.Info("the person recorded a workflow", "file", path, "steps", len(w.Steps))
	return protocol.SavedRecording{Path: path, Steps: len(w.Steps), Refused: refused, Params: w.Params()}, nil
}

// personWorkflow turns the person's steps into a workflow, and counts the
// steps it left out: on a site the policy blocks, or that do not read as a
// step.
func (h *Host) personWorkflow(steps []protocol.PersonStep, session string) (*workflow.Workflow, int) {
	var p *policy.Policy
	if h.person != nil {
		p = h.person.policy.Current()
	}
	return personWorkflow(p, steps, session)
}

// personWorkflow is the person's steps as a workflow under the policy p.
func personWorkflow(p *policy.Policy, steps []protocol.PersonStep, session string) (*workflow.Workflow, int) {
	rec := &recording{session: session, started: time.Now(), values: map[string]string{}}
	refused := 0
	for _, ps := range steps {
		s, ok := rec.personStep(p, ps)
		if !ok {
			refused++
			continue
		}
		rec.steps = append(rec.steps, s)
	}
	w := rec.workflow()
	who := "shown by the person"
	if session != "" {
		who += " at the request of session " + session
	}
	w.Comments[0] = fmt.Sprintf("recorded %s, %s", rec.started.UTC().Format("2006-01-02 15:04 UTC"), who)
	return w, refused
}

// blocked says whether the policy closes rawURL to agents: the person's
// steps there are not recorded, as an agent could not replay them. A
// document with no origin of its own (about:blank) is judged by the tab's
// URL, which is checked too.
func blocked(p *policy.Policy, rawURL string) bool {
	return p != nil && rawURL != "" && !policy.Inherits(rawURL) && p.Decide(rawURL).Rule == policy.Block
}

// personStep is one of the person's steps as a workflow's, or false when
// it is not to be recorded.
func (rec *recording) personStep(p *policy.Policy, ps protocol.PersonStep) (workflow.Step, bool) {
	// A navigation is judged by where it goes (below), what it leaves
	// does not matter.
	if !personVerbs[ps.Verb] || ps.Verb != protocol.ActNavigate && (blocked(p, ps.TabURL) || blocked(p, ps.FrameURL)) {
		return workflow.Step{}, false
	}
	s := workflow.Step{Verb: ps.Verb}
	field := ""
	if t := ps.Target; t != nil {
		if t.Role == "" {
			return workflow.Step{}, false
		}
		s.Target = rec.target(protocol.Element{Role: t.Role, Name: t.Name, Context: t.Ctx})
		field = t.Name
		if o, ok := policy.ParseOrigin(ps.FrameURL); ok {
			s.Origin = o.String()
		}
	}
	if t := ps.To; t != nil && t.Role != "" {
		s.To = rec.target(protocol.Element{Role: t.Role, Name: t.Name, Context: t.Ctx})
	}
	switch ps.Verb {
	case protocol.ActNavigate:
		if ps.Text == "" || (p != nil && p.DecideNavigation(ps.Text).Rule == policy.Block) {
			return workflow.Step{}, false
		}
		s.Text, s.HasText = rec.substitute(workflow.Literal(ps.Text)), true
	case protocol.ActUpload:
		// The person's file is theirs: the step names a parameter, never
		// a path on their machine.
		name := ps.Param
		if name == "" {
			name = workflow.ParamName(field)
			if name == "VALUE" {
				name = "FILE"
			}
		}
		s.Text, s.HasText = "{{"+name+"}}", true
	case protocol.ActType, protocol.ActFill:
		s.Text, s.HasText = rec.textOf(ps.Text, ps.Param, ps.Secret || isSecretName(field), field), true
	case protocol.ActSelect, protocol.ActPress:
		if ps.Text == "" {
			return workflow.Step{}, false
		}
		s.Text, s.HasText = rec.textOf(ps.Text, ps.Param, false, field), true
	}
	if s.Target.IsZero() && (ps.Verb != protocol.ActNavigate && ps.Verb != protocol.ActPress &&
		ps.Verb != protocol.ActBack && ps.Verb != protocol.ActForward && ps.Verb != protocol.ActReload) {
		return workflow.Step{}, false
	}
	if ps.Verb == protocol.ActDrag && s.To.IsZero() {
		return workflow.Step{}, false
	}
	if after := ps.AfterURL; after != "" && workflow.PathOf(after) != workflow.PathOf(ps.TabURL) {
		if !blocked(p, after) {
			s.Effect.URL = rec.substituteURL(workflow.PathOf(after))
		}
	} else if a := ps.Appeared; a != nil && strings.TrimSpace(a.Name) != "" && a.Role != "" {
		s.Effect.Appears = rec.target(protocol.Element{Role: a.Role, Name: a.Name})
	}
	return s, true
}
