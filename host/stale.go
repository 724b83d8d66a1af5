package host

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/refcache"
)

// A stale_ref names the element that took the stale one's place
// (docs/acting.md): when a list re-renders, the element a
// ref named is gone, and a new one of the same role, name, link and
// context is often there. The refusal says which ref that one has, so the
// agent saves a snapshot; it is never acted on by itself, since an action
// on a guessed element is the one thing grip must not do.

// wentMax bounds the lines kept of refs that left a tab's view.
const wentMax = 4096

// staleHint is the one next step of every stale_ref (the kernel's, the
// ref cache's, a document's).
const staleHint = "take a new snapshot with grip snapshot and use the ref it gives"

// went is the line ref had when it was last shown in tab, whether it is
// still in the view or left it.
func (q *tabQueues) wentLine(tab int, ref uint64) (protocol.Element, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	v := q.views[tab]
	if el, ok := v.get(ref); ok {
		return el, true
	}
	el, ok := q.went[tab][ref]
	return el, ok
}

// likeShown is the refs of the tab's view whose line means what old did:
// the same role, name and link.
func (q *tabQueues) likeShown(tab int, old protocol.Element, not uint64) []likeEl {
	return q.shownWhere(tab, func(ref uint64, el *protocol.Element) bool {
		return ref != not && el.Role == old.Role && el.Name == old.Name && el.Href == old.Href
	})
}

// shownWhere is the refs of the tab's view whose element keep takes, in
// no order (sortedLike orders them as they were first shown).
func (q *tabQueues) shownWhere(tab int, keep func(ref uint64, el *protocol.Element) bool) []likeEl {
	q.mu.Lock()
	defer q.mu.Unlock()
	var out []likeEl
	v := q.views[tab]
	for ref, i := range v.at {
		if el := v.list[i].el; keep(ref, &el) {
			out = append(out, likeEl{ref, el})
		}
	}
	return out
}

type likeEl struct {
	ref uint64
	el  protocol.Element
}

// staleRefusal is err, a stale_ref of ref, in the one wording every
// stale_ref has, naming the live element of the same meaning when there
// is one; any other error is returned as it is.
func (h *Host) staleRefusal(ref uint64, err error) error {
	pe := protocol.AsError(err)
	if ref == 0 || pe.Code != protocol.CodeStaleRef {
		return err
	}
	c := *pe
	c.Hint = staleHint
	name := refcache.FormatRef(ref)
	if strings.Contains(c.Message, "the drop target") {
		return &c // the drop target's ref is the stale one, not ref
	}
	if !strings.HasPrefix(c.Message, name+" is stale: ") {
		c.Message = name + " is stale: " + strings.TrimPrefix(c.Message, name+": ")
	}
	old, ok := h.refs.Lookup(ref)
	if !ok {
		return &c
	}
	line, ok := h.tabs.wentLine(old.Tab, ref)
	if !ok || line.Name == "" {
		return &c
	}
	var live []likeEl
	for _, l := range h.tabs.likeShown(old.Tab, line, ref) {
		if e, err := h.refs.Resolve(l.ref); err == nil && e.Key.FrameID == old.Key.FrameID {
			live = append(live, l)
		}
	}
	if len(live) > 1 && line.Context != "" {
		var same []likeEl
		for _, l := range live {
			if l.el.Context == line.Context {
				same = append(same, l)
			}
		}
		live = same
	}
	shown := line
	shown.Ref, shown.Value, shown.States = "", nil, nil
	what := strings.TrimPrefix(frames.Line(shown), ": ")
	switch {
	case len(live) == 1:
		c.Message += fmt.Sprintf("; the same %s is now %s", what, refcache.FormatRef(live[0].ref))
		c.Hint = "act on " + refcache.FormatRef(live[0].ref) + " if it is the one you meant, or " + staleHint
	case len(live) > 1:
		refs := make([]string, 0, 4)
		for i, l := range sortedLike(live) {
			if i == 4 {
				refs = append(refs, "…")
				break
			}
			ln := l.el
			ln.Value, ln.States = nil, nil
			refs = append(refs, frames.Line(ln))
		}
		c.Message += fmt.Sprintf("; %d elements like %s are on the page: %s", len(live), what, strings.Join(refs, ", "))
		c.Hint = "act on the one you meant (its context says which), or " + staleHint
	}
	return &c
}

func sortedLike(l []likeEl) []likeEl {
	slices.SortFunc(l, func(a, b likeEl) int { return cmp.Compare(a.ref, b.ref) })
	return l
}
