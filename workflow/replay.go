package workflow

import (
	"cmp"
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/protocol"
)

// Browser is what a replay needs of grip: client.Ops has it. Every step
// goes through it like an agent's own call, so the person's policy, pause,
// questions and record apply to a replay as to any session.
type Browser interface {
	Act(ctx context.Context, args protocol.ActArgs) (*protocol.ActionResult, error)
	Wait(ctx context.Context, args protocol.WaitArgs) (*protocol.ActionResult, error)
	Snapshot(ctx context.Context, args protocol.SnapshotArgs) (*protocol.Snapshot, error)
}

// Options are a replay's settings.
type Options struct {
	// Tab is the tab to replay in (0: the session's default tab).
	Tab int
	// Params are the placeholders' values.
	Params map[string]string
	// EffectTimeout bounds the wait for each step's recorded effect (0:
	// ten seconds).
	EffectTimeout time.Duration
	// Step, if set, is told of each step done.
	Step func(n int, s Step, res *protocol.ActionResult)
}

// Result is how far a replay got: `--json` prints it.
type Result struct {
	Steps    int         `json:"steps"`
	Done     int         `json:"done"`
	Diverged *Divergence `json:"diverged,omitempty"`
}

// Divergence is the first step the page no longer matched: nothing after
// it was done.
type Divergence struct {
	Step int    `json:"step"` // 1 for the first step
	Line int    `json:"line"` // its line in the file
	Text string `json:"text"` // the step as the file says it
	// Expected is what the step looked for; Found what the page shows
	// there instead; Candidates the lines of the elements closest to what
	// was expected, with refs an agent can act on to take over.
	Expected   string   `json:"expected"`
	Found      string   `json:"found"`
	Candidates []string `json:"candidates,omitempty"`
	// Code is the refusal the step met, when one was behind it.
	Code protocol.Code `json:"code,omitempty"`
	// Hint, when set, is what to do instead of taking over from here.
	Hint string `json:"hint,omitempty"`
}

// divergent are the refusals that mean the page is not the one recorded:
// the element is not there, not once, not the same, or cannot be acted on.
var divergent = []protocol.Code{
	protocol.CodeNotFound, protocol.CodeAmbiguous, protocol.CodeStaleRef, protocol.CodeUnknownRef,
	protocol.CodeMeaningChanged, protocol.CodeNotActionable, protocol.CodeDocumentChanged, protocol.CodeEpochSuperseded,
}

// Replay runs w's steps in order through b. It returns the result and,
// at a divergence, a protocol.CodeReplayDiverged error; any other refusal
// (the policy, the pause, the person's No) ends the replay with that
// refusal, the result saying how far it got. A parameter with no value is
// refused before the first step.
func Replay(ctx context.Context, b Browser, w *Workflow, opt Options) (*Result, error) {
	res := &Result{Steps: len(w.Steps)}
	var missing []string
	for _, p := range w.Params() {
		if _, ok := opt.Params[p]; !ok {
			missing = append(missing, p)
		}
	}
	if len(missing) > 0 {
		return res, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"give each with --param NAME=VALUE (or --params FILE)", "no value for %s", strings.Join(missing, ", "))
	}
	timeout := cmp.Or(opt.EffectTimeout, 10*time.Second)
	tab := opt.Tab
	for i, s := range w.Steps {
		r := &replayer{b: b, step: s, n: i + 1, tab: tab, params: opt.Params, timeout: timeout}
		out, err := r.run(ctx)
		if err != nil {
			if d := r.diverged; d != nil {
				res.Diverged = d
				return res, protocol.Errorf(protocol.CodeReplayDiverged, protocol.BoundaryPage,
					cmp.Or(d.Hint, "the page no longer matches the workflow: take over from this step (its candidates' refs are live), or record it again"),
					"step %d (line %d) diverged: expected %s; %s", d.Step, d.Line, d.Expected, d.Found)
			}
			pe := *protocol.AsError(err)
			pe.Message = fmt.Sprintf("step %d (line %d, %s): %s", i+1, s.Line, s.Verb, pe.Message)
			return res, &pe
		}
		if out != nil && out.Tab.ID > 0 && s.Verb == protocol.ActTabNew {
			tab = out.Tab.ID // the steps after it act in the tab it opened
		}
		res.Done++
		if opt.Step != nil {
			opt.Step(i+1, s, out)
		}
	}
	return res, nil
}

// replayer runs one step.
type replayer struct {
	b        Browser
	step     Step
	n        int
	tab      int
	params   map[string]string
	timeout  time.Duration
	diverged *Divergence
}

func (r *replayer) expand(s string) string {
	out, _ := Expand(s, r.params) // every placeholder has a value: Replay checked
	return out
}

func (r *replayer) target(t Target) Target {
	return Target{Role: t.Role, Name: r.expand(t.Name), Context: r.expand(t.Context), CSS: r.expand(t.CSS)}
}

func (r *replayer) run(ctx context.Context) (*protocol.ActionResult, error) {
	s := r.step
	args := protocol.ActArgs{Action: s.Verb, Tab: r.tab, Origin: s.Origin}
	if !s.Target.IsZero() {
		args.Target = r.target(s.Target).Locator()
		args.Tab = r.tab
	}
	if !s.To.IsZero() {
		args.To = r.target(s.To).Locator()
	}
	if s.HasText {
		args.Text = r.expand(s.Text)
	}
	if s.Verb == protocol.ActUpload {
		// An upload's text is the file to put in, a parameter's value
		// (the person's own file was never named: docs/workflows.md,
		// "Recorded workflows"); the host reads it by an absolute path.
		path := strings.TrimSpace(args.Text)
		if path == "" {
			return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
				"pass the file with --param NAME=/path/to/file", "the upload names no file")
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "give an absolute path", "%s: %v", path, err)
		}
		args.Text, args.Files = "", []string{abs}
	}
	res, err := r.b.Act(ctx, args)
	if err != nil {
		if e := protocol.AsError(err); slices.Contains(divergent, e.Code) {
			r.diverge(ctx, s.Target, "the element "+r.target(s.Target).String()+atOrigin(s.Origin), e)
		}
		return nil, err
	}
	if err := r.effect(ctx, res); err != nil {
		return nil, err
	}
	return res, nil
}

func atOrigin(o string) string {
	if o == "" {
		return ""
	}
	return " in a frame of " + o
}

// effect waits for what followed the step when it was recorded.
func (r *replayer) effect(ctx context.Context, res *protocol.ActionResult) error {
	e := r.step.Effect
	tab := cmp.Or(res.Tab.ID, r.tab)
	switch {
	case e.URL != "":
		want := r.expand(e.URL)
		match := URLPattern(e.URL, r.params)
		if match.MatchString(res.Tab.URL) || match.MatchString(res.Changes.URL) {
			return nil
		}
		now, err := r.waitURL(ctx, tab, want, match)
		if err == nil || protocol.AsError(err).Code != protocol.CodeTimeout {
			return err
		}
		r.diverged = r.wentElsewhere(want, res, now)
		return err
	case !e.Appears.IsZero():
		want := r.target(e.Appears)
		if slices.ContainsFunc(res.Changes.Appeared, func(el protocol.Element) bool { return matches(el, want) }) {
			return nil
		}
		// Not in the reply (it came later, or the element was there
		// already): wait for its name on the page, then look for it.
		if want.Name != "" {
			if _, err := r.b.Wait(ctx, protocol.WaitArgs{Tab: tab, Text: want.Name, TimeoutMS: int(r.timeout.Milliseconds())}); err != nil &&
				protocol.AsError(err).Code != protocol.CodeTimeout {
				return err
			}
		}
		// In content mode: what appeared may be a heading or a status, which
		// an interactive read leaves out.
		snap, err := r.b.Snapshot(ctx, protocol.SnapshotArgs{Tab: tab, Mode: protocol.ModeContent, Budget: 1 << 20})
		if err != nil {
			return err
		}
		if n := count(snap, want); n == 1 {
			return nil
		} else {
			found := "nothing like it appeared"
			if n > 1 {
				found = fmt.Sprintf("%d elements match it", n)
			}
			r.diverged = &Divergence{Step: r.n, Line: r.step.Line, Text: FormatStep(r.step),
				Expected: want.String() + " to appear", Found: found, Candidates: closest(snap, want, 3)}
			return protocol.Errorf(protocol.CodeNotFound, protocol.BoundaryPage, "", "%s did not appear", want.String())
		}
	}
	return nil
}

// waitURL waits, within the step's timeout, for the tab's URL to match:
// a template with no placeholder is wait --url's own condition; one with
// placeholders (which may show in any of their URL forms) is polled. It
// returns the URL the tab shows at the end, "" when unknown.
func (r *replayer) waitURL(ctx context.Context, tab int, want string, match *URLRule) (string, error) {
	if !strings.Contains(r.step.Effect.URL, "{{") {
		_, err := r.b.Wait(ctx, protocol.WaitArgs{Tab: tab, URL: want, TimeoutMS: int(r.timeout.Milliseconds())})
		if err != nil && protocol.AsError(err).Code == protocol.CodeTimeout {
			return r.tabURL(ctx, tab), err
		}
		return "", err
	}
	deadline := time.Now().Add(r.timeout)
	for {
		now := r.tabURL(ctx, tab)
		if match.MatchString(now) {
			return now, nil
		}
		if !time.Now().Before(deadline) {
			return now, protocol.Errorf(protocol.CodeTimeout, protocol.BoundaryTask, "", "the page did not go to %s", want)
		}
		if _, err := r.b.Wait(ctx, protocol.WaitArgs{Tab: tab, MS: 200}); err != nil {
			return now, err
		}
	}
}

// tabURL is the URL the tab shows now, "" when grip may not name it.
func (r *replayer) tabURL(ctx context.Context, tab int) string {
	snap, err := r.b.Snapshot(ctx, protocol.SnapshotArgs{Tab: tab, Budget: 1})
	if err != nil {
		return ""
	}
	return snap.Tab.URL
}

// wentElsewhere is the divergence of a step whose action was done but
// whose page did not go to want: it says where the page is (moved or
// stayed), and that the action itself is not to be done again.
func (r *replayer) wentElsewhere(want string, res *protocol.ActionResult, now string) *Divergence {
	after := cmp.Or(res.Changes.URL, res.Tab.URL)
	at := cmp.Or(now, after)
	went := res.Changes.Navigated || (now != "" && after != "" && PathOf(now) != PathOf(after))
	d := &Divergence{Step: r.n, Line: r.step.Line, Text: FormatStep(r.step), Expected: "the page to go to " + want}
	if !went {
		d.Found = fmt.Sprintf("the %s was done, and the page stayed at %s", r.step.Verb, cmp.Or(at, "a page grip may not name"))
		return d
	}
	d.Found = fmt.Sprintf("the %s was done, and the page went to %s instead", r.step.Verb, cmp.Or(at, "a page grip may not name"))
	d.Hint = fmt.Sprintf("step %d's %s was done: do not do it again. Read the page it went to; if it is the right one, go on from step %d, else take over from there (or record the workflow again)", r.n, r.step.Verb, r.n+1)
	return d
}

// diverge records the divergence at the step's target, with the closest
// candidates the page shows.
func (r *replayer) diverge(ctx context.Context, want Target, expected string, e *protocol.Error) {
	d := &Divergence{Step: r.n, Line: r.step.Line, Text: FormatStep(r.step), Expected: expected, Found: e.Message, Code: e.Code}
	if snap, err := r.b.Snapshot(ctx, protocol.SnapshotArgs{Tab: r.tab, Budget: 1 << 20}); err == nil {
		if o := r.step.Origin; o != "" && !showsOrigin(snap, o) {
			// The wrong tab, most often: its elements are no candidates.
			d.Found = fmt.Sprintf("tab %d shows %s, and none of its frames is a page of %s", snap.Tab.ID, cmp.Or(snap.Tab.URL, "a page grip may not name"), o)
			d.Hint = "replay in the tab the workflow is for: --tab ID (grip tabs lists them), or navigate it first"
		} else {
			d.Candidates = closest(snap, r.target(want), 3)
		}
	}
	r.diverged = d
}

// showsOrigin reports whether a frame of snap is a page of origin.
func showsOrigin(snap *protocol.Snapshot, origin string) bool {
	for _, f := range snap.Frames {
		if u, err := url.Parse(f.URL); err == nil && u.Scheme+"://"+u.Host == origin {
			return true
		}
	}
	return false
}

// matches reports whether el is the element t names.
func matches(el protocol.Element, t Target) bool {
	if t.CSS != "" {
		return false
	}
	return el.Role == t.Role && foldName(el.Name) == foldName(t.Name) && (t.Context == "" || foldName(el.Context) == foldName(t.Context))
}

// foldName compares names as snapshot lines show them.
func foldName(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

func count(snap *protocol.Snapshot, t Target) int {
	n := 0
	for _, f := range snap.Frames {
		for _, el := range f.Elements {
			if matches(el, t) {
				n++
			}
		}
	}
	return n
}

// closest returns the lines of the n elements most like t: the same role
// first, then by how much of the name they share.
func closest(snap *protocol.Snapshot, t Target, n int) []string {
	type scored struct {
		line  string
		score float64
	}
	var all []scored
	for _, f := range snap.Frames {
		for _, el := range f.Elements {
			sc := similarity(foldName(el.Name), foldName(t.Name))
			if el.Role == t.Role {
				sc += 1
			}
			if t.Context != "" && foldName(el.Context) == foldName(t.Context) {
				sc += 0.5
			}
			if sc < 0.3 {
				continue
			}
			all = append(all, scored{frames.Line(el), sc})
		}
	}
	slices.SortStableFunc(all, func(a, b scored) int { return cmp.Compare(b.score, a.score) })
	var out []string
	for _, s := range all[:min(n, len(all))] {
		out = append(out, s.line)
	}
	return out
}

// similarity is 1 for equal names and falls with the edit distance, case
// ignored.
func similarity(a, b string) float64 {
	a, b = strings.ToLower(a), strings.ToLower(b)
	if a == b {
		return 1
	}
	ra, rb := []rune(a), []rune(b)
	if len(ra) > 200 || len(rb) > 200 {
		ra, rb = ra[:min(200, len(ra))], rb[:min(200, len(rb))]
	}
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			c := 1
			if ra[i-1] == rb[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev, cur = cur, prev
	}
	return 1 - float64(prev[len(rb)])/float64(max(len(ra), len(rb), 1))
}

// PathOf is the URL a step records as its effect: scheme, host and path,
// without the query and fragment, which often hold a session's own ids.
func PathOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return raw
	}
	u.RawQuery, u.Fragment, u.RawFragment = "", "", ""
	return u.String()
}
