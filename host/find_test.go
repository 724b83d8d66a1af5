package host

import (
	"slices"
	"testing"

	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/refcache"
)

// listHost is a host whose tab 4 has a view of 30 elements of document D
// (local ids 1–30) and one of another document (local id 5), and the
// refs of those, in that order.
func listHost(t *testing.T) (*Host, []uint64, []refcache.Observed) {
	t.Helper()
	h := &Host{refs: refcache.New(), tabs: newTabQueues()}
	var obs []refcache.Observed
	for id := 1; id <= 30; id++ {
		obs = append(obs, refcache.Observed{Key: refcache.Key{DocumentID: "D", LocalID: id}, Role: "option"})
	}
	obs = append(obs, refcache.Observed{Key: refcache.Key{DocumentID: "other", LocalID: 5}, Role: "option"})
	refs, _ := h.refs.Replace(4, obs)
	var read []shown
	for i, r := range refs {
		read = append(read, shown{ref: r, doc: obs[i].Key.DocumentID, el: protocol.Element{Ref: refcache.FormatRef(r), Role: "option", Name: "row"}})
	}
	h.tabs.swapView(4, protocol.ModeInteractive, read, nil, nil)
	return h, refs, obs
}

// tellList takes a long list's rows out of a reply's lines and counts
// them, names the element a find found once, keeps what is outside the
// list and other documents' elements, and keeps every ref for --json.
func TestTellListCountsTheListsRows(t *testing.T) {
	h, refs, obs := listHost(t)
	ref := func(i int) string { return refcache.FormatRef(refs[i]) }
	el := func(i int) protocol.Element { return protocol.Element{Ref: ref(i), Role: "option", Name: "row"} }
	// Local 1 is the list; 2–10 went (stale now); 11–20 came, 21 is a
	// toolbar button outside the list; the other document's 5 came too.
	h.refs.Replace(4, slices.Concat(obs[:1], obs[10:]))
	res := &protocol.ActionResult{Changes: protocol.Changes{Changed: []protocol.Element{el(0)}}}
	for i := 10; i <= 20; i++ {
		res.Changes.Added = append(res.Changes.Added, ref(i))
		res.Changes.Appeared = append(res.Changes.Appeared, el(i))
	}
	res.Changes.Appeared = append(res.Changes.Appeared, el(30))
	for i := 1; i <= 9; i++ {
		res.Changes.Gone = append(res.Changes.Gone, ref(i))
	}
	inside := []int{11, 12, 13, 14, 15, 16, 17, 18, 19, 20}
	a := &action{args: protocol.ActArgs{Target: ref(0)}, doc: "D", target: actTarget{tab: 4, ref: ref(0)},
		found: &protocol.FindReply{Found: true, IDs: []int{15}},
		list:  &protocol.ListView{ID: 1, Unit: "options", First: 11, Last: 20, Total: 2000, Inside: inside, Before: []int{2, 3, 4, 5, 6, 7, 8, 9, 10}}}
	h.tellList(a, res)

	if len(res.Found) != 1 || res.Found[0].Ref != ref(14) {
		t.Errorf("found %+v, want the element of local id 15 (%s)", res.Found, ref(14))
	}
	var appeared []string
	for _, e := range res.Changes.Appeared {
		appeared = append(appeared, e.Ref)
	}
	if want := []string{ref(20), ref(30)}; !slices.Equal(appeared, want) {
		t.Errorf("appeared %v, want the toolbar and the other document's element %v", appeared, want)
	}
	if len(res.Changes.Changed) != 1 || res.Changes.Changed[0].Ref != ref(0) {
		t.Errorf("changed %+v, want the list's own line", res.Changes.Changed)
	}
	l := res.List
	if l == nil || l.Ref != ref(0) || l.Appeared != 9 || l.Gone != 9 || l.Total != 2000 || !slices.Equal(l.GoneRefs, res.Changes.Gone) {
		t.Errorf("list %+v", l)
	}
	if len(res.Changes.Added) != 11 || len(res.Changes.Gone) != 9 {
		t.Errorf("the refs are not all kept for --json: %+v", res.Changes)
	}
}

// A short list's few lines stay: they say more than a count.
func TestTellListKeepsAFewLines(t *testing.T) {
	h, refs, _ := listHost(t)
	ref := func(i int) string { return refcache.FormatRef(refs[i]) }
	res := &protocol.ActionResult{Changes: protocol.Changes{Added: []string{ref(1), ref(2)},
		Appeared: []protocol.Element{{Ref: ref(1), Role: "option"}, {Ref: ref(2), Role: "option"}}}}
	a := &action{doc: "D", target: actTarget{tab: 4, ref: ref(0)},
		list: &protocol.ListView{ID: 1, Unit: "options", First: 1, Last: 3, Total: 3, Inside: []int{2, 3}}}
	h.tellList(a, res)
	if len(res.Changes.Appeared) != 2 || res.List == nil || res.List.Appeared != 0 || res.List.Last != 3 {
		t.Errorf("appeared %+v, list %+v: want the two lines kept and the list's place said", res.Changes.Appeared, res.List)
	}
}
