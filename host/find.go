package host

import (
	"context"
	"slices"
	"time"

	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/refcache"
)

// Long lists (docs/long-lists.md, "Long lists"): grip find brings an
// element into view by what it says, scrolling the page or a list step by
// step in the page (extension/kernel/find.js), and its reply names the
// element found instead of every row passed on the way; a scroll of a
// long list, and a find, say where the list stands ("rows 41–80 of
// 2,000") instead of a line for each row that appeared or went.

// findTimeout bounds a whole find, over all the kernel calls it takes
// (each within a slice of the injection deadline).
const findTimeout = 45 * time.Second

// shortList is how many of a list's lines a reply still lists: more are
// counted instead ("40 appeared, not listed").
const shortList = 5

// performFind runs a find in the page, calling the kernel again while it
// answers that its slice ended before the search did.
func (h *Host) performFind(ctx context.Context, a *action) (performed, error) {
	if a.args.Text == "" {
		return performed{}, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"grip find TEXT [--in @eN]", "find needs the text to look for")
	}
	deadline := time.Now().Add(findTimeout)
	var before []int
	for first := true; ; first = false {
		done, err := h.performInPage(ctx, a)
		if err != nil {
			return done, err
		}
		f := a.found
		if f == nil {
			return performed{}, protocol.Errorf(protocol.CodeInternal, protocol.BoundaryPage, "", "the page answered find without its result")
		}
		if first && a.list != nil {
			before = a.list.Before
		}
		if !f.More {
			if a.list != nil && before != nil {
				a.list.Before = before
			}
			return done, nil
		}
		if time.Now().After(deadline) {
			return performed{}, protocol.Errorf(protocol.CodeNotFound, protocol.BoundaryPage,
				"run grip find again to search on from there", "no element says %q yet: searched for %s, scrolled %s in %d steps",
				a.args.Text, findTimeout, f.Where, f.State.Steps)
		}
		st := f.State
		a.findState = &st
	}
}

// tellList is the step after the read back of a find or of a scroll that
// moved a list: the lines of the element found, and the list's rows
// counted rather than listed.
func (h *Host) tellList(a *action, res *protocol.ActionResult) {
	if res == nil || (a.list == nil && a.found == nil) {
		return
	}
	if a.list != nil {
		defer h.fitChanges(a, &res.Changes)
	}
	if a.doc == "" {
		return
	}
	view := h.tabs.viewElements(a.target.tab)
	byLocal := make(map[int]protocol.Element, len(view))
	for ref, el := range view {
		if e, ok := h.refs.Lookup(ref); ok && e.Key.DocumentID == a.doc {
			byLocal[e.Key.LocalID] = el
		}
	}
	if f := a.found; f != nil && f.Found {
		for _, id := range f.IDs {
			if el, ok := byLocal[id]; ok {
				res.Found = append(res.Found, el)
			}
		}
		for _, id := range f.Around {
			if len(res.Found) > 0 {
				break
			}
			if el, ok := byLocal[id]; ok {
				res.Found = append(res.Found, el)
			}
		}
	}
	found := map[string]bool{}
	for _, el := range res.Found {
		found[el.Ref] = true
	}
	l := a.list
	if l == nil || l.Unit == "" {
		// The page's own scroll: its lines stay, the element found said once.
		notFound := func(el protocol.Element) bool { return found[el.Ref] }
		res.Changes.Appeared = slices.DeleteFunc(res.Changes.Appeared, notFound)
		res.Changes.Changed = slices.DeleteFunc(res.Changes.Changed, notFound)
		return
	}
	inside := make(map[int]bool, len(l.Inside)+len(l.Before))
	for _, id := range l.Inside {
		inside[id] = true
	}
	for _, id := range l.Before {
		inside[id] = true
	}
	in := func(ref string) bool {
		n, err := refcache.ParseRef(ref)
		if err != nil {
			return false
		}
		e, ok := h.refs.Lookup(n)
		return ok && e.Key.DocumentID == a.doc && inside[e.Key.LocalID]
	}
	sum := &protocol.ListSummary{Unit: l.Unit, First: l.First, Last: l.Last, Total: l.Total, Estimated: l.Estimated}
	if a.target.ref != "" {
		sum.Ref = a.target.ref
	} else if el, ok := byLocal[l.ID]; ok && l.ID != 0 {
		sum.Ref = el.Ref
	}
	keep := func(els []protocol.Element, n *int) []protocol.Element {
		out := els[:0:0]
		for _, el := range els {
			switch {
			case found[el.Ref]: // said once, as what was found
			case in(el.Ref):
				*n++
			default:
				out = append(out, el)
			}
		}
		return out
	}
	c := &res.Changes
	inList := 0
	for _, els := range [][]protocol.Element{c.Appeared, c.Changed} {
		for _, el := range els {
			if !found[el.Ref] && in(el.Ref) {
				inList++
			}
		}
	}
	if inList <= shortList {
		// A few lines say more than a count: they stay, found said once.
		notFound := func(el protocol.Element) bool { return found[el.Ref] }
		c.Appeared = slices.DeleteFunc(c.Appeared, notFound)
		c.Changed = slices.DeleteFunc(c.Changed, notFound)
		res.List = sum
		return
	}
	c.Appeared = keep(c.Appeared, &sum.Appeared)
	c.Changed = keep(c.Changed, &sum.Changed)
	for _, ref := range c.Gone {
		if in(ref) {
			sum.Gone++
			sum.GoneRefs = append(sum.GoneRefs, ref)
		}
	}
	res.List = sum
}

// fitChanges cuts a reply's lines to the agent's budget: the read back of
// a list's scroll kept every line (runAction) so that tellList could take
// the list's rows out first.
func (h *Host) fitChanges(a *action, c *protocol.Changes) {
	budget := a.args.ChangesBudget
	if budget <= 0 {
		budget = protocol.DefaultChangesBudget
	}
	var after string
	c.Changed, c.Appeared, c.Omitted, after = frames.FitChanges(c.Changed, c.Appeared, budget-frames.ContextsCost(c.Contexts))
	c.More = ""
	if c.Omitted > 0 {
		mode := a.args.Mode
		if mode == "" {
			mode = h.tabs.lastMode(a.target.tab)
		}
		c.More = readOnCommand(after, mode, a.target.tab)
	}
}

// viewElements is a copy of the elements of tab's latest view, by ref.
func (q *tabQueues) viewElements(tab int) map[uint64]protocol.Element {
	q.mu.Lock()
	defer q.mu.Unlock()
	v := q.views[tab]
	out := make(map[uint64]protocol.Element, len(v.at))
	for ref, i := range v.at {
		out[ref] = v.list[i].el
	}
	return out
}
