package host

import (
	"slices"
	"testing"

	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/refcache"
)

// tellList takes a list's rows out of a reply's lines and counts them,
// names the element a find found once, keeps what is outside the list,
// and leaves other documents' elements alone.
func TestTellListCountsTheListsRows(t *testing.T) {
	h := &Host{refs: refcache.New(), tabs: newTabQueues()}
	const tab = 4
	// Local ids 1 (the list), 2–4 rows before the scroll, 5–7 rows after,
	// 8 a toolbar button outside the list; 5 in another document too.
	obs := []refcache.Observed{}
	for id := 1; id <= 8; id++ {
		obs = append(obs, refcache.Observed{Key: refcache.Key{DocumentID: "D", LocalID: id}, Role: "option"})
	}
	obs = append(obs, refcache.Observed{Key: refcache.Key{DocumentID: "other", LocalID: 5}, Role: "option"})
	refs, _ := h.refs.Replace(tab, obs)
	ref := func(i int) string { return refcache.FormatRef(refs[i]) }
	var read []shown
	for i, r := range refs {
		read = append(read, shown{ref: r, doc: obs[i].Key.DocumentID, el: protocol.Element{Ref: ref(i), Role: "option", Name: "row"}})
	}
	h.tabs.swapView(tab, protocol.ModeInteractive, read, nil, nil)
	// Rows 2–4 went (stale now).
	h.refs.Replace(tab, slices.Concat(obs[:1], obs[4:]))

	el := func(i int) protocol.Element { return protocol.Element{Ref: ref(i), Role: "option", Name: "row"} }
	res := &protocol.ActionResult{Changes: protocol.Changes{
		Added:    []string{ref(4), ref(5), ref(6), ref(7), ref(8)},
		Gone:     []string{ref(1), ref(2), ref(3)},
		Changed:  []protocol.Element{el(0)},
		Appeared: []protocol.Element{el(4), el(5), el(6), el(7), el(8)},
	}}
	a := &action{args: protocol.ActArgs{Target: ref(0)}, doc: "D",
		target: actTarget{tab: tab, ref: ref(0)},
		found:  &protocol.FindReply{Found: true, IDs: []int{6}},
		list:   &protocol.ListView{ID: 1, Unit: "options", First: 5, Last: 7, Total: 2000, Inside: []int{5, 6, 7}, Before: []int{2, 3, 4}}}
	h.tellList(a, res)

	if len(res.Found) != 1 || res.Found[0].Ref != ref(5) {
		t.Errorf("found %+v, want the element of local id 6 (%s)", res.Found, ref(5))
	}
	var appeared []string
	for _, e := range res.Changes.Appeared {
		appeared = append(appeared, e.Ref)
	}
	// The toolbar (8) and the other document's 5 stay; the list's rows go.
	if want := []string{ref(7), ref(8)}; !slices.Equal(appeared, want) {
		t.Errorf("appeared %v, want %v", appeared, want)
	}
	if len(res.Changes.Changed) != 1 || res.Changes.Changed[0].Ref != ref(0) {
		t.Errorf("changed %+v, want the list's own line", res.Changes.Changed)
	}
	l := res.List
	if l == nil || l.Ref != ref(0) || l.Appeared != 2 || l.Gone != 3 || l.Total != 2000 || !slices.Equal(l.GoneRefs, res.Changes.Gone) {
		t.Errorf("list %+v", l)
	}
	if len(res.Changes.Added) != 5 || len(res.Changes.Gone) != 3 {
		t.Errorf("the refs are not all kept for --json: %+v", res.Changes)
	}
}
