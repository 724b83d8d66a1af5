package host

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/workflow"
)

// Recording workflows (docs/workflows.md, "Recorded workflows"): while
// a session records, the action pipeline's last step (recordStep) turns
// each action it did into a workflow step — its target as the agent saw it
// (role, name, context, the frame's origin), its text or a {{NAME}}
// placeholder, and the effect that followed. The host keeps the steps in
// memory; `record stop` hands the text to the client, which writes the
// file. No secret value is kept in the text.

// recorders are the recordings in progress, one per session.
type recorders struct {
	mu sync.Mutex
	by map[string]*recording // guarded by mu; session → its recording
}

// recording is one session's.
type recording struct {
	file    string
	force   bool // the start's --force: the CLI may replace file
	session string
	started time.Time
	steps   []workflow.Step
	// refused counts the actions of the session that were refused while
	// it recorded: not steps, and `record stop` says so.
	refused int
	// values are the texts recorded as placeholders (value → name), so a
	// later target's name or URL that shows one records the placeholder
	// there too. They live in memory only, until the recording stops.
	values map[string]string
}

// get returns session's recording, or nil.
func (r *recorders) get(session string) *recording {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.by[session]
}

// record answers OpRecord.
func (h *Host) record(ctx context.Context, args protocol.RecordArgs) (protocol.RecordResult, error) {
	if args.Action == protocol.RecordStart && args.Person {
		return h.recordPerson(ctx, args) // host/person_record.go
	}
	session := sessionOf(ctx)
	r := &h.recorders
	r.mu.Lock()
	defer r.mu.Unlock()
	cur := r.by[session]
	switch args.Action {
	case protocol.RecordStart:
		if cur != nil {
			return protocol.RecordResult{}, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
				"stop it first with grip record stop", "this session is already recording into %s", cur.file)
		}
		if r.by == nil {
			r.by = map[string]*recording{}
		}
		r.by[session] = &recording{file: args.File, force: args.Force, session: session, started: time.Now(), values: map[string]string{}}
		return protocol.RecordResult{Recording: true, File: args.File, Force: args.Force}, nil
	case protocol.RecordStop:
		if cur == nil {
			return protocol.RecordResult{}, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
				"start one with grip record start FILE", "this session is not recording")
		}
		delete(r.by, session)
		w := cur.workflow()
		return protocol.RecordResult{File: cur.file, Steps: len(cur.steps), Refused: cur.refused, Params: w.Params(), Text: workflow.Format(w), Force: cur.force}, nil
	case protocol.RecordStatus, "":
		if cur == nil {
			return protocol.RecordResult{}, nil
		}
		return protocol.RecordResult{Recording: true, File: cur.file, Steps: len(cur.steps), Refused: cur.refused}, nil
	}
	return protocol.RecordResult{}, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
		"use start, stop or status", "unknown record action %q", args.Action)
}

// workflow is the recording as a file's contents.
func (rec *recording) workflow() *workflow.Workflow {
	w := &workflow.Workflow{Steps: rec.steps, Comments: []string{
		fmt.Sprintf("recorded %s (session %s)", rec.started.UTC().Format("2006-01-02 15:04 UTC"), rec.session),
		"Replay it with: grip replay FILE --param NAME=VALUE … (see the README, \"Recorded workflows\")",
	}}
	if ps := w.Params(); len(ps) > 0 {
		w.Comments = append(w.Comments, "parameters: "+strings.Join(ps, ", "))
	}
	return w
}

// seenTarget is what the recorder keeps of an action's target before the
// action runs: the element as the agent last saw it, and its frame's and
// the tab's URLs at that read.
type seenTarget struct {
	el            protocol.Element
	frameURL, top string
	to            *protocol.Element
}

// noteTarget keeps, while the session records, what the step will need of
// the target before the action changes the page.
func (h *Host) noteTarget(ctx context.Context, a *action) {
	if h.recorders.get(sessionOf(ctx)) == nil {
		return
	}
	s := &seenTarget{top: h.tabs.topURL(a.target.tab)}
	if e := a.target.entry; e != nil {
		if el, frameURL, top, ok := h.tabs.seen(e.Tab, e.Ref, e.Key.FrameID); ok {
			s.el, s.frameURL, s.top = el, frameURL, top
		}
	}
	if e := a.drop.entry; e != nil {
		if el, _, _, ok := h.tabs.seen(e.Tab, e.Ref, e.Key.FrameID); ok {
			s.to = &el
		}
	}
	a.seen = s
}

// secretName matches the name of a field whose text is a secret even
// when the page does not say so (a password field the page shows as
// text), whatever its case: "PIN code" is a secret's name, "Spinner" is
// not. Compiled on first use; the host runs in grip-host, whose start no
// agent command pays (docs/cli-cost.md, "The CLI's fixed cost").
var secretName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)pass(word|code|phrase)?\b|\bpin\b|one[- ]?time|\botp\b|2fa|secret|token|\bcvc\b|\bcvv\b|security code`)
})

// isSecretName says whether a field's name is a secret's (secretName).
func isSecretName(name string) bool { return secretName().MatchString(name) }

// recordRefused notes, while the session records, an action that was
// refused: it is no step of the workflow.
func (h *Host) recordRefused(ctx context.Context) {
	if rec := h.recorders.get(sessionOf(ctx)); rec != nil {
		h.recorders.mu.Lock()
		rec.refused++
		h.recorders.mu.Unlock()
	}
}

// recordStep is the recorder's place in the pipeline: a workflow being
// recorded gets each action that was done, with what the agent saw of its
// target and what followed.
// recording says whether the calling session is recording a workflow.
func (h *Host) recording(ctx context.Context) bool {
	return h.recorders.get(sessionOf(ctx)) != nil
}

func (h *Host) recordStep(ctx context.Context, a *action, res *protocol.ActionResult) {
	rec := h.recorders.get(sessionOf(ctx))
	if rec == nil || res == nil {
		return
	}
	h.recorders.mu.Lock()
	defer h.recorders.mu.Unlock()
	s := workflow.Step{Verb: a.spec.Name}
	seen := a.seen
	if seen == nil {
		seen = &seenTarget{}
	}
	switch {
	case a.target.entry != nil && seen.el.Role != "":
		s.Target = rec.target(seen.el)
		if o, ok := policy.ParseOrigin(seen.frameURL); ok {
			s.Origin = o.String()
		}
	case a.args.Target != "":
		s.Target = workflow.Target{CSS: workflow.Literal(a.args.Target)}
	}
	if seen.to != nil {
		s.To = rec.target(*seen.to)
	} else if a.args.To != "" {
		s.To = workflow.Target{CSS: workflow.Literal(a.args.To)}
	}
	switch {
	case a.spec.Files:
		s.Text, s.HasText = workflow.Literal(strings.Join(a.args.Files, "\n")), true
	case a.spec.Text != "" && (a.args.Text != "" || a.spec.Name == protocol.ActFill):
		s.Text, s.HasText = rec.text(a, seen), true
	}
	// A find is recorded for the steps after it: on replay, a row of a
	// virtualized list exists only once the find has brought it into
	// view. Its effect is the find itself, which refuses not_found when
	// the row is not there.
	before := seen.top
	if a.spec.Name == protocol.ActFind {
		// no effect to wait for
	} else if after := res.Tab.URL; after != "" && workflow.PathOf(after) != workflow.PathOf(before) {
		s.Effect.URL = rec.substituteURL(workflow.PathOf(after))
	} else if el, ok := salient(res.Changes.Appeared); ok {
		s.Effect.Appears = rec.target(el)
	}
	rec.steps = append(rec.steps, s)
}

// text is the step's text: a {{NAME}} placeholder for a secret field or
// where the agent named a parameter, else the text itself, with the
// values of earlier parameters replaced by their placeholders.
func (rec *recording) text(a *action, seen *seenTarget) string {
	secret := a.secret || (seen.el.Role != "" && isSecretName(seen.el.Name))
	return rec.textOf(a.args.Text, a.args.Param, secret, seen.el.Name)
}

// textOf is a step's text: a {{NAME}} placeholder for a secret (named
// after its field) or where a parameter was named, else the text itself,
// with the values of earlier parameters replaced by their placeholders.
func (rec *recording) textOf(text, param string, secret bool, field string) string {
	name := param
	if name == "" && secret {
		name = workflow.ParamName(field)
		if name == "VALUE" {
			name = "SECRET"
		}
	}
	if name != "" {
		if text != "" {
			rec.values[text] = name
		}
		return "{{" + name + "}}"
	}
	return rec.substitute(workflow.Literal(text))
}

// target is an element as a step names it.
func (rec *recording) target(el protocol.Element) workflow.Target {
	return workflow.Target{Role: el.Role, Name: rec.substitute(workflow.Literal(el.Name)), Context: rec.substitute(workflow.Literal(el.Context))}
}

// substitute replaces in a template the values recorded as parameters by
// their placeholders, the longest first (a value of three characters or
// more: shorter ones would match by chance).
func (rec *recording) substitute(tpl string) string {
	values := make([]string, 0, len(rec.values))
	for v := range rec.values {
		if len([]rune(v)) >= 3 {
			values = append(values, v)
		}
	}
	sort.Slice(values, func(i, j int) bool { return len(values[i]) > len(values[j]) })
	for _, v := range values {
		tpl = strings.ReplaceAll(tpl, workflow.Literal(v), "{{"+rec.values[v]+"}}")
	}
	return tpl
}

// substituteURL is a `then url` template of the URL a step went to: a
// parameter's value in any of its URL forms (a wiki's page name with its
// spaces as underscores, an escaped one) becomes its placeholder, which
// a replay matches in the same forms (docs/workflows.md).
func (rec *recording) substituteURL(raw string) string {
	type form struct{ text, name string }
	var forms []form
	for v, name := range rec.values {
		if len([]rune(v)) >= 3 {
			for _, f := range workflow.URLForms(v) {
				forms = append(forms, form{f, name})
			}
		}
	}
	sort.SliceStable(forms, func(i, j int) bool {
		return len(forms[i].text) > len(forms[j].text) || len(forms[i].text) == len(forms[j].text) && forms[i].text < forms[j].text
	})
	tpl := workflow.Literal(raw)
	for _, f := range forms {
		tpl = strings.ReplaceAll(tpl, workflow.Literal(f.text), "{{"+f.name+"}}")
	}
	return tpl
}

// salientRoles are what an agent would look for after an action, first.
var salientRoles = []string{"dialog", "alertdialog", "alert", "heading", "status"}

// salient picks the element that best says what an action made appear: a
// dialog, alert or heading first, else the first one with a name.
func salient(appeared []protocol.Element) (protocol.Element, bool) {
	for _, role := range salientRoles {
		if i := slices.IndexFunc(appeared, func(e protocol.Element) bool { return e.Role == role && strings.TrimSpace(e.Name) != "" }); i >= 0 {
			return appeared[i], true
		}
	}
	if i := slices.IndexFunc(appeared, func(e protocol.Element) bool { return strings.TrimSpace(e.Name) != "" }); i >= 0 {
		return appeared[i], true
	}
	return protocol.Element{}, false
}
