package host

import (
	"context"
	"maps"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/protocol"
)

// tabQueues serialises operations per tab and keeps each tab's epoch: a
// number that grows whenever the tab's top document changes, so a late
// operation from a task that saw an older document is refused before it
// is dispatched.
type tabQueues struct {
	mu     sync.Mutex
	queues map[int]chan struct{} // guarded by mu; a one-slot semaphore per tab
	epochs map[int]tabEpoch      // guarded by mu
	views  map[int]tabView       // guarded by mu; what the agent was last shown of each tab
	tops   map[int]string        // guarded by mu; the top document of each tab's last read
	// went holds the lines of refs that left each tab's view, so a
	// stale_ref can name the element of the same meaning that replaced
	// one (host/stale.go); guarded by mu, at most wentMax a tab.
	went  map[int]map[uint64]protocol.Element
	clock uint64 // guarded by mu; the last epoch handed out
}

// tabView is what the agent was last shown of a tab: the elements of its
// last read, with their refs, and the read's mode. A reply's added, gone
// and changed are relative to it.
type tabView struct {
	mode string
	// list is the read's elements in page order, each with its ref and
	// its document (for the reads after it in which a document does not
	// answer); at is where a ref's element is in list (its last place:
	// one node can be reported twice, along two open shadow paths). One
	// index beside a slice, not a map of elements: a read of 5,000
	// elements fills it on every snapshot (bench/RESULTS.md).
	list []shown
	at   map[uint64]int32
	// urls are the URLs of the frames the read answered from, by frame
	// id (0: the top frame): what a recorded step says of where its
	// target was and which page it acted on.
	urls map[int]string
}

// get is ref's element in the view.
func (v *tabView) get(ref uint64) (protocol.Element, bool) {
	i, ok := v.at[ref]
	if !ok {
		return protocol.Element{}, false
	}
	return v.list[i].el, true
}

type tabEpoch struct {
	epoch  uint64
	topDoc string
}

func newTabQueues() *tabQueues {
	return &tabQueues{queues: map[int]chan struct{}{}, epochs: map[int]tabEpoch{}, views: map[int]tabView{}, tops: map[int]string{},
		went: map[int]map[uint64]protocol.Element{}}
}

// lock waits for the tab's turn; the returned func releases it.
func (q *tabQueues) lock(ctx context.Context, tab int) (func(), error) {
	q.mu.Lock()
	ch := q.queues[tab]
	if ch == nil {
		ch = make(chan struct{}, 1)
		q.queues[tab] = ch
	}
	q.mu.Unlock()
	select {
	case ch <- struct{}{}:
		return func() { <-ch }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// observe records the tab's top document and returns its epoch, starting
// a new epoch when the document is not the one seen before.
func (q *tabQueues) observe(tab int, topDoc string) uint64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	e, ok := q.epochs[tab]
	if !ok || (topDoc != "" && e.topDoc != topDoc) {
		q.clock++
		e = tabEpoch{epoch: q.clock, topDoc: topDoc}
		q.epochs[tab] = e
	}
	return e.epoch
}

// current returns the tab's epoch, 0 when the tab was never seen.
func (q *tabQueues) current(tab int) uint64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.epochs[tab].epoch
}

// forget drops a closed tab and returns the refs it last showed, ascending.
func (q *tabQueues) forget(tab int) []uint64 {
	q.mu.Lock()
	defer q.mu.Unlock()
	delete(q.epochs, tab)
	gone := slices.Sorted(maps.Keys(q.views[tab].at))
	delete(q.views, tab)
	delete(q.tops, tab)
	delete(q.went, tab)
	return gone
}

// swapTop records the top document of a read of tab ("" when the top
// frame did not answer: the last one known stays) and reports whether it
// replaced another: the tab went to a new page, and every ref of the old
// one went with it.
func (q *tabQueues) swapTop(tab int, doc string) bool {
	if doc == "" {
		return false
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	prev := q.tops[tab]
	q.tops[tab] = doc
	return prev != "" && prev != doc
}

// lastMode is the mode of the tab's last read, "" when it was never read:
// the host's own reads after an action use it, so that what they report
// as gone or added compares like with like.
func (q *tabQueues) lastMode(tab int) string {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.views[tab].mode
}

// shown is one element of a read, with its ref as a number.
type shown struct {
	ref   uint64
	frame int
	doc   string
	el    protocol.Element
}

// viewDiff is how a read differs from what the agent was shown before:
// refs added and gone (ascending), and the elements that appeared and the
// known ones whose role, name, value, states or context changed, in page
// order.
type viewDiff struct {
	added, gone       []uint64
	appeared, changed []protocol.Element
	// contexts are the runs of known elements whose only change is their
	// context, taken out of changed (contextRuns).
	contexts []protocol.ContextChange
	// navigated says the read is of a new top document: everything gone
	// was the old page's.
	navigated bool
	// prev is the view this read replaced, which the lines gone were in
	// (asBefore reads it).
	prev tabView
}

// asBefore says, for each appeared line, whether it looks as a line gone
// with this read did (lookKey): a new page's header, a list drawn again.
// An action's reply leaves those out first when its lines do not all fit
// (frames.FitChangesFresh), and asks only then: a snapshot never does,
// and a read of a new page of 5,000 lines would make 10,000 keys for it.
func (d *viewDiff) asBefore() []bool {
	if len(d.gone) == 0 || len(d.appeared) == 0 {
		return nil
	}
	looks := make(map[string]bool, len(d.gone))
	for _, ref := range d.gone {
		if el, ok := d.prev.get(ref); ok {
			looks[lookKey(el)] = true
		}
	}
	out := make([]bool, len(d.appeared))
	for i := range d.appeared {
		out[i] = looks[lookKey(d.appeared[i])]
	}
	return out
}

// lookKey is what a line shows but its ref and context: two elements with
// the same key read the same to an agent.
func lookKey(e protocol.Element) string {
	v := "\x00-"
	if e.Value != nil {
		v = "\x00=" + *e.Value
	}
	return e.Role + "\x00" + e.Name + "\x00" + e.Href + v + "\x00" + strings.Join(e.States, " ")
}

// swapView records a read in mode as the tab's latest view and returns how
// it differs from the previous one. What the previous view showed of the
// documents in unread (frames that did not answer this time) is carried
// over: neither gone nor changed.
func (q *tabQueues) swapView(tab int, mode string, read []shown, urls map[int]string, unread map[string]bool) viewDiff {
	q.mu.Lock()
	prev := q.views[tab]
	cur := tabView{mode: mode, list: read, urls: urls}
	same := len(unread) == 0 && sameRefs(&prev, read)
	if same {
		// A read of the same elements in the same order as the last (a
		// page re-read unchanged, or after a change of text): the last
		// view's index holds for this one, and is never written once
		// made, so it is shared rather than built again.
		cur.at = prev.at
	} else {
		cur.at = make(map[uint64]int32, len(read))
		for i, s := range read {
			cur.at[s.ref] = int32(i)
		}
	}
	if len(unread) > 0 && prev.mode == mode {
		for ref, i := range prev.at {
			if _, read := cur.at[ref]; !read && unread[prev.list[i].doc] {
				cur.at[ref] = int32(len(cur.list))
				cur.list = append(cur.list, prev.list[i])
			}
		}
	}
	q.views[tab] = cur
	if same {
		q.mu.Unlock()
		return sameRefsDiff(&prev, &cur)
	}
	w := q.went[tab]
	if w == nil || len(w) > wentMax {
		w = map[uint64]protocol.Element{}
		q.went[tab] = w
	}
	for ref, i := range prev.at {
		if _, ok := cur.at[ref]; !ok {
			w[ref] = prev.list[i].el
		}
	}
	q.mu.Unlock()
	d := viewDiff{added: []uint64{}, gone: []uint64{}}
	var changedRefs []uint64
	var twice map[uint64]bool // refs read again later in read (rare)
	for i, s := range read {
		if twice[s.ref] {
			continue // one node reported twice (two open shadow paths): the first counts
		}
		if int(cur.at[s.ref]) != i {
			if twice == nil {
				twice = map[uint64]bool{}
			}
			twice[s.ref] = true
		}
		was, ok := prev.get(s.ref)
		switch {
		case !ok:
			d.added = append(d.added, s.ref)
			d.appeared = append(d.appeared, s.el)
		case !sameState(was, s.el):
			d.changed = append(d.changed, changedLine(was, s.el))
			changedRefs = append(changedRefs, s.ref)
		}
	}
	d.changed, d.contexts = contextRuns(&prev, &cur, changedRefs, d.changed)
	slices.Sort(d.added)
	for ref := range prev.at {
		if _, ok := cur.at[ref]; !ok {
			d.gone = append(d.gone, ref)
		}
	}
	slices.Sort(d.gone)
	d.prev = prev
	return d
}

// sameRefs says whether read lists the refs prev listed, in its order,
// each once: prev's index then maps each ref of read to its place.
func sameRefs(prev *tabView, read []shown) bool {
	if len(prev.list) != len(read) || len(prev.at) != len(read) {
		return false
	}
	for i := range read {
		if prev.list[i].ref != read[i].ref {
			return false
		}
	}
	return true
}

// sameRefsDiff is swapView's diff when cur lists prev's refs in prev's
// order: nothing added or gone, the changes line by line.
func sameRefsDiff(prev, cur *tabView) viewDiff {
	d := viewDiff{added: []uint64{}, gone: []uint64{}, prev: *prev}
	var changedRefs []uint64
	for i := range cur.list {
		was, s := prev.list[i].el, cur.list[i]
		if !sameState(was, s.el) {
			d.changed = append(d.changed, changedLine(was, s.el))
			changedRefs = append(changedRefs, s.ref)
		}
	}
	d.changed, d.contexts = contextRuns(prev, cur, changedRefs, d.changed)
	return d
}

// changedLine is el, whose state differs from was, as a diff lists it:
// with where its value first differs when both have one.
func changedLine(was, el protocol.Element) protocol.Element {
	if was.Value != nil && el.Value != nil {
		el.ValueFrom = firstDifference(*was.Value, *el.Value)
	}
	return el
}

// contextRunMin is how many lines moved from one context to the same
// other make a run a reply says once (docs/snapshot.md, "Snapshot
// format"): fewer read as well line by line, each on its own.
const contextRunMin = 3

// contextRuns takes out of changed (in page order; refs[i] is changed[i]'s
// ref as a number) the lines whose only change is their context, where at
// least contextRunMin of them moved from one context to the same other (a
// card's title renamed under its buttons), and says each such run once:
// its refs, and All when they are every element prev showed in that
// context that cur still has, but those changed lines list as a whole.
// The rest of changed is returned in its order.
func contextRuns(prev, cur *tabView, refs []uint64, changed []protocol.Element) ([]protocol.Element, []protocol.ContextChange) {
	type move struct{ from, to string }
	runs := map[move][]int{}
	var order []move
	for i, el := range changed {
		was, _ := prev.get(refs[i])
		if was.Context == el.Context {
			continue
		}
		m := move{was.Context, el.Context}
		was.Context = el.Context
		if !sameState(was, el) {
			continue // more than its context changed: its line says it
		}
		if _, ok := runs[m]; !ok {
			order = append(order, m)
		}
		runs[m] = append(runs[m], i)
	}
	inRun := map[uint64]bool{}
	var out []protocol.ContextChange
	for _, m := range order {
		idx := runs[m]
		if len(idx) < contextRunMin {
			continue
		}
		c := protocol.ContextChange{From: m.from, To: m.to, Refs: make([]string, 0, len(idx))}
		for _, i := range idx {
			inRun[refs[i]] = true
			c.Refs = append(c.Refs, changed[i].Ref)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return changed, nil
	}
	listed := map[uint64]bool{}
	rest := make([]protocol.Element, 0, len(changed)-len(inRun))
	for i, el := range changed {
		if !inRun[refs[i]] {
			rest = append(rest, el)
			listed[refs[i]] = true
		}
	}
	for i := range out {
		c := &out[i]
		if c.From == "" {
			continue // "every line with no context" tells the agent nothing
		}
		own := map[string]bool{}
		for _, r := range c.Refs {
			own[r] = true
		}
		c.All = true
		for ref, j := range prev.at {
			if prev.list[j].el.Context != c.From || listed[ref] {
				continue
			}
			if now, ok := cur.get(ref); ok && !own[now.Ref] {
				c.All = false
				break
			}
		}
	}
	return rest, out
}

// sameState reports whether an element still reads the same. Its context
// counts: it comes and goes as another element with its role and name
// appears or goes, and an agent that writes a target as the line reads
// must know which lines now need it (docs/snapshot.md, "Snapshot
// format").
func sameState(a, b protocol.Element) bool {
	if a.Role != b.Role || a.Name != b.Name || a.Href != b.Href || a.Context != b.Context || !slices.Equal(a.States, b.States) {
		return false
	}
	if (a.Value == nil) != (b.Value == nil) {
		return false
	}
	return a.Value == nil || *a.Value == *b.Value
}

// firstDifference is the character (code point) of b at which it first
// differs from a: where a field's value changed, so that its line can
// show the change rather than a start the agent has seen (frames.Line).
func firstDifference(a, b string) int {
	n := 0
	for len(a) > 0 && len(b) > 0 {
		ra, sa := utf8.DecodeRuneInString(a)
		rb, sb := utf8.DecodeRuneInString(b)
		if ra != rb {
			break
		}
		a, b = a[sa:], b[sb:]
		n++
	}
	return n
}

// shownLine is the line of ref as the agent last saw it in tab, without
// its value (a field's value may be what the agent typed).
func (q *tabQueues) shownLine(tab int, ref uint64) (string, bool) {
	q.mu.Lock()
	v := q.views[tab]
	el, ok := v.get(ref)
	q.mu.Unlock()
	if !ok {
		return "", false
	}
	el.Value = nil
	return frames.Line(el), true
}

// seen is ref's element as the agent last saw it in tab, with the URLs of
// its frame and of the tab's top frame at that read.
func (q *tabQueues) seen(tab int, ref uint64, frame int) (el protocol.Element, frameURL, topURL string, ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	v := q.views[tab]
	el, ok = v.get(ref)
	return el, v.urls[frame], v.urls[0], ok
}

// topURL is the tab's top frame's URL at its last read.
func (q *tabQueues) topURL(tab int) string {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.views[tab].urls[0]
}
