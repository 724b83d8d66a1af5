package host

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/workflow"
)

// Recording workflows (docs/ARCHITECTURE.md, "Recorded workflows"): while
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
		r.by[session] = &recording{file: args.File, session: session, started: time.Now(), values: map[string]string{}}
		return protocol.RecordResult{Recording: true, File: args.File}, nil
	case protocol.RecordStop:
		if cur == nil {
			return protocol.RecordResult{}, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
				"start one with grip record start FILE", "this session is not recording")
		}
		delete(r.by, session)
		w := cur.workflow()
		return protocol.RecordResult{File: cur.file, Steps: len(cur.steps), Refused: cur.refused, Params: w.Params(), Text: workflow.Format(w)}, nil
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
		fmt.Sprintf("grip workflow, recorded %s (session %s)", rec.started.UTC().Format("2006-01-02 15:04 UTC"), rec.session),
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

// secretWords mark the name of a field whose text is a secret even when
// the page does not say so (a password field the page shows as text),
// whatever their case. Where start or end is set, the word must begin or
// end at a word boundary (wordBoundary): "PIN code" is a secret's name,
// "Spinner" is not.
//
// isSecretName reads them by hand, rather than with the regexp
// `(?i)pass(word|code|phrase)?\b|\bpin\b|one[- ]?time|\botp\b|2fa|secret|token|\bcvc\b|\bcvv\b|security code`
// whose alternatives they spell out (secretname_test.go holds the two
// equal): linking package regexp alone costs every start of the binary,
// whatever the command (docs/ARCHITECTURE.md, "The CLI's fixed cost").
var secretWords = [...]struct {
	word       string // lower case
	start, end bool
}{
	{"pass", false, true},
	{"password", false, true},
	{"passcode", false, true},
	{"passphrase", false, true},
	{"pin", true, true},
	{"onetime", false, false},
	{"one-time", false, false},
	{"one time", false, false},
	{"otp", true, true},
	{"2fa", false, false},
	{"secret", false, false},
	{"token", false, false},
	{"cvc", true, true},
	{"cvv", true, true},
	{"security code", false, false},
}

// isSecretName says whether a field's name holds one of secretWords.
func isSecretName(name string) bool {
	for i := range name { // at each rune, as a regexp reads UTF-8
		for _, w := range secretWords {
			if w.start && !wordBoundary(name, i) {
				continue
			}
			if end, ok := foldedWordAt(name, i, w.word); ok && (!w.end || wordBoundary(name, end)) {
				return true
			}
		}
	}
	return false
}

// foldedWordAt says whether s holds word, in any case, at s[i], and where
// it ends there.
func foldedWordAt(s string, i int, word string) (end int, ok bool) {
	for k := 0; k < len(word); k++ {
		if i == len(s) {
			return 0, false
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if foldToASCII(r) != rune(word[k]) {
			return 0, false
		}
		i += size
	}
	return i, true
}

// foldToASCII lowers an ASCII letter, and maps the two other runes that
// Unicode's simple case folding makes one with an ASCII letter, the long
// s (ſ) and the Kelvin sign (K), to s and k: the case a regexp's (?i)
// ignores.
func foldToASCII(r rune) rune {
	switch {
	case 'A' <= r && r <= 'Z':
		return r + 'a' - 'A'
	case r == 'ſ':
		return 's'
	case r == '\u212A': // the Kelvin sign
		return 'k'
	}
	return r
}

// wordBoundary says whether s[i] is a word boundary, as a regexp's \b: a
// word character (an ASCII letter, digit or _) on one side only, the
// text's ends counting as none. A byte of 0x80 or more is part of a
// non-ASCII rune, or not UTF-8, which is no word character either, so the
// bytes on each side say it.
func wordBoundary(s string, i int) bool {
	before := i > 0 && isWordByte(s[i-1])
	after := i < len(s) && isWordByte(s[i])
	return before != after
}

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

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
		s.Effect.URL = rec.substitute(workflow.Literal(workflow.PathOf(after)))
	} else if el, ok := salient(res.Changes.Appeared); ok {
		s.Effect.Appears = rec.target(el)
	}
	rec.steps = append(rec.steps, s)
}

// text is the step's text: a {{NAME}} placeholder for a secret field or
// where the agent named a parameter, else the text itself, with the
// values of earlier parameters replaced by their placeholders.
func (rec *recording) text(a *action, seen *seenTarget) string {
	name := a.args.Param
	secret := a.secret || (seen.el.Role != "" && isSecretName(seen.el.Name))
	if name == "" && secret {
		name = workflow.ParamName(seen.el.Name)
		if name == "VALUE" {
			name = "SECRET"
		}
	}
	if name != "" {
		if a.args.Text != "" {
			rec.values[a.args.Text] = name
		}
		return "{{" + name + "}}"
	}
	return rec.substitute(workflow.Literal(a.args.Text))
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
