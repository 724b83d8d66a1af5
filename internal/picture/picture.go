// Package picture measures how true the picture of a page stays that an
// agent keeps from action replies alone (bench/RESULTS.md, "What the agent
// is told"). From a true picture of the page (a snapshot), the agent acts,
// removes the reply's gone refs and puts in the lines the reply says
// changed or appeared. The picture is true when it equals a fresh snapshot
// taken right after the reply: the same refs, each with the same role,
// name, value, states and context. Each action is measured so, from the
// page as that snapshot shows it. A reply cut by its budget
// says so and names the command that reads on (a snapshot from after the
// last line it showed); the agent follows it and reads those lines too,
// which the measure counts apart.
package picture

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/protocol"
)

// Step is one action of a task. Line picks its element: the first one of
// the page, in snapshot order, whose line (as frames.Line writes it,
// without its ref) starts with Line, e.g. "[button 'new tiddler'" or
// "[textbox value='New Tiddler'"; empty for a press, which goes to the
// focused element. Text is what fill, type and select take, or press's key.
type Step struct {
	Action string
	Line   string
	Text   string
}

// Do is a step that acts on the element line names with no text: click,
// check, uncheck.
func Do(action, line string) Step { return Step{Action: action, Line: line} }

// With is a step that gives text to the element line names: fill, type,
// select.
func With(action, line, text string) Step { return Step{Action: action, Line: line, Text: text} }

// Press is a step that presses key on the focused element.
func Press(key string) Step { return Step{Action: protocol.ActPress, Text: key} }

// Result is what a run of tasks came to.
type Result struct {
	// Actions counts the actions made; True those after which the
	// agent's picture was true.
	Actions, True int
	// Cut counts the replies cut by their budget (read on), and CutTrue
	// those of them after which the picture was true.
	Cut, CutTrue int
	// CutShort counts the tasks that stopped because the picture had no
	// element for the next step.
	CutShort int
	// ReplyTokens is what the replies cost, ReadOnTokens what reading on
	// after the cut ones cost, SnapshotTokens what a snapshot after each
	// action would have cost (tokens as grip counts them).
	ReplyTokens, ReadOnTokens, SnapshotTokens int
	// Misses says, for each action that left the picture wrong, how.
	Misses []string
}

// Add adds o's counts to r.
func (r *Result) Add(o Result) {
	r.Actions += o.Actions
	r.True += o.True
	r.Cut += o.Cut
	r.CutTrue += o.CutTrue
	r.CutShort += o.CutShort
	r.ReplyTokens += o.ReplyTokens
	r.ReadOnTokens += o.ReadOnTokens
	r.SnapshotTokens += o.SnapshotTokens
	r.Misses = append(r.Misses, o.Misses...)
}

// Rate is the share of actions that left the picture true.
func (r Result) Rate() float64 {
	if r.Actions == 0 {
		return 0
	}
	return float64(r.True) / float64(r.Actions)
}

// String is the result in one line, as bench/RESULTS.md quotes it.
func (r Result) String() string {
	return fmt.Sprintf("%d of %d actions left a true picture (%.0f%%), %d tasks cut short; %d replies were cut and read on (%d of them true); "+
		"tokens read: %d by replies, %d reading on, %d with a snapshot after each action instead",
		r.True, r.Actions, 100*r.Rate(), r.CutShort, r.Cut, r.CutTrue,
		r.ReplyTokens, r.ReadOnTokens, r.ReplyTokens+r.SnapshotTokens)
}

// Key is what the agent knows of an element: its line's parts.
func Key(e protocol.Element) string {
	v := "-"
	if e.Value != nil {
		v = *e.Value
	}
	return fmt.Sprint(e.Role, "|", e.Name, "|", v, "|", e.States, "|", e.Context)
}

// A picture is what the agent knows of a page: each ref's element, as it
// last learnt it.
type picture map[string]protocol.Element

func of(snap protocol.Snapshot) picture {
	p := picture{}
	for _, f := range snap.Frames {
		for _, e := range f.Elements {
			p[e.Ref] = e
		}
	}
	return p
}

// Run makes the steps of one task on tab, which shows the task's page,
// and measures each reply (read at once when noSettle is set). A step
// whose element the agent's picture lacks ends the task (cut short); an
// action the page refuses ends the run with its error.
func Run(ctx context.Context, c client.Caller, tab int, steps []Step, noSettle bool) (Result, error) {
	var r Result
	snap, err := read(ctx, c, protocol.SnapshotArgs{Tab: tab})
	if err != nil {
		return r, err
	}
	// The agent's picture: where each step finds its element.
	known := of(snap)
	for i, st := range steps {
		args := protocol.ActArgs{Action: st.Action, Tab: tab, Text: st.Text, NoSettle: noSettle}
		target := "the focused element"
		if st.Line != "" {
			ref := known.find(snap, st.Line)
			if ref == "" {
				r.CutShort++
				r.Misses = append(r.Misses, fmt.Sprintf("step %d: the picture has no %s… to %s", i+1, st.Line, st.Action))
				break
			}
			args.Target, target = ref, ref
		}
		var res protocol.ActionResult
		if err := c.Call(ctx, protocol.OpAct, args, &res); err != nil {
			return r, fmt.Errorf("step %d: %s %s (%s): %w", i+1, st.Action, target, st.Line, err)
		}
		r.Actions++
		r.ReplyTokens += frames.Tokens(frames.ActionText(frames.Done(st.Action, target), res))
		known.apply(res.Changes)
		if res.Changes.Omitted > 0 {
			r.Cut++
			more, err := read(ctx, c, protocol.SnapshotArgs{Tab: tab, After: afterRef(res.Changes.More)})
			if err != nil {
				return r, err
			}
			r.ReadOnTokens += more.Tokens
			shown := shownRefs(more.Text)
			for _, f := range more.Frames {
				for _, e := range f.Elements {
					if shown[e.Ref] {
						known[e.Ref] = e
					}
				}
			}
		}
		if snap, err = read(ctx, c, protocol.SnapshotArgs{Tab: tab}); err != nil {
			return r, err
		}
		r.SnapshotTokens += snap.Tokens
		now := of(snap)
		if known.same(now) {
			r.True++
			if res.Changes.Omitted > 0 {
				r.CutTrue++
			}
		} else {
			r.Misses = append(r.Misses, fmt.Sprintf("step %d, %s %s: %s", i+1, st.Action, st.Line, known.diff(now)))
		}
		// Each action is measured on its own, from a true picture: a miss
		// is not counted again in the actions after it.
		known = now
	}
	return r, nil
}

// WaitIdle waits until the page in tab has stopped changing on its own
// (a notice that fades after the page loaded): until two snapshots a
// second apart read the same, for at most bound. A task starts from such
// a page, so that what the measure sees change is the actions' doing.
func WaitIdle(ctx context.Context, c client.Caller, tab int, bound time.Duration) error {
	deadline := time.Now().Add(bound)
	last, err := read(ctx, c, protocol.SnapshotArgs{Tab: tab})
	if err != nil {
		return err
	}
	for time.Now().Before(deadline) {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Second):
		}
		now, err := read(ctx, c, protocol.SnapshotArgs{Tab: tab})
		if err != nil {
			return err
		}
		if of(last).same(of(now)) {
			return nil
		}
		last = now
	}
	return fmt.Errorf("tab %d still changed after %v", tab, bound)
}

func read(ctx context.Context, c client.Caller, args protocol.SnapshotArgs) (protocol.Snapshot, error) {
	var snap protocol.Snapshot
	err := c.Call(ctx, protocol.OpSnapshot, args, &snap)
	return snap, err
}

// find returns the ref of the first element of the picture whose line,
// as the agent knows it, starts with line ("[button 'Save'"), in the
// page's order as snap has it; "" for none.
func (p picture) find(snap protocol.Snapshot, line string) string {
	for _, f := range snap.Frames {
		for _, e := range f.Elements {
			known, ok := p[e.Ref]
			if !ok {
				continue
			}
			if l := frames.Line(known); strings.HasPrefix(strings.TrimPrefix(l, known.Ref+": "), line) {
				return e.Ref
			}
		}
	}
	return ""
}

// apply puts a reply's changes into the picture: the runs of lines that
// changed only their context first, as the reply's text says them (a
// run of all the lines in a context by that context, the others by
// their refs; all at once, so two cards that swapped titles swap their
// lines' contexts), then the refs gone, then the lines that changed and
// appeared.
func (p picture) apply(c protocol.Changes) {
	byRef, byContext := map[string]string{}, map[string]string{}
	for _, m := range c.Contexts {
		if m.All {
			byContext[m.From] = m.To
			continue
		}
		for _, r := range m.Refs {
			byRef[r] = m.To
		}
	}
	for r, e := range p {
		to, ok := byRef[r]
		if !ok {
			to, ok = byContext[e.Context]
		}
		if ok {
			e.Context = to
			p[r] = e
		}
	}
	for _, g := range c.Gone {
		delete(p, g)
	}
	for _, e := range slices.Concat(c.Changed, c.Appeared) {
		p[e.Ref] = e
	}
}

// same reports whether the picture is the page's.
func (p picture) same(page picture) bool {
	if len(p) != len(page) {
		return false
	}
	for r, e := range p {
		if pe, ok := page[r]; !ok || Key(pe) != Key(e) {
			return false
		}
	}
	return true
}

// diff says how the picture differs from the page.
func (p picture) diff(page picture) string {
	var d []string
	for r, e := range page {
		if known, ok := p[r]; !ok {
			d = append(d, r+" is "+Key(e)+", not in the picture")
		} else if Key(known) != Key(e) {
			d = append(d, r+" is "+Key(e)+", the picture has "+Key(known))
		}
	}
	for r, e := range p {
		if _, ok := page[r]; !ok {
			d = append(d, r+" is gone, the picture has "+Key(e))
		}
	}
	slices.Sort(d)
	return strings.Join(d, "; ")
}

var afterArg = regexp.MustCompile(`--after (@e\d+)`)

// afterRef is the ref a reply's read-on command starts after ("" to read
// from the start).
func afterRef(more string) string {
	if m := afterArg.FindStringSubmatch(more); m != nil {
		return m[1]
	}
	return ""
}

var refLine = regexp.MustCompile(`(?m)^(@e\d+): `)

// shownRefs are the refs whose lines a snapshot's text shows.
func shownRefs(text string) map[string]bool {
	refs := map[string]bool{}
	for _, m := range refLine.FindAllStringSubmatch(text, -1) {
		refs[m[1]] = true
	}
	return refs
}

// Picture is the agent's picture of a page, for measures outside this
// package (the walker, walk/): each ref's element as the agent last learnt
// it.
type Picture = picture

// Of is the picture a snapshot gives.
func Of(snap protocol.Snapshot) Picture { return of(snap) }

// Apply puts a reply's changes into the picture.
func (p picture) Apply(c protocol.Changes) { p.apply(c) }

// Same reports whether the picture is the page's.
func (p picture) Same(page Picture) bool { return p.same(page) }

// Diff says how the picture differs from the page.
func (p picture) Diff(page Picture) string { return p.diff(page) }

// Shown are the refs whose lines a snapshot's text shows.
func Shown(text string) map[string]bool { return shownRefs(text) }

// AfterRef is the ref a reply's read-on command starts after.
func AfterRef(more string) string { return afterRef(more) }
