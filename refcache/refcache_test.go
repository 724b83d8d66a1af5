package refcache

import (
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/grip-dev/grip/protocol"
)

func ob(doc string, frame, local int, role, name string) Observed {
	return Observed{Key: Key{DocumentID: doc, FrameID: frame, LocalID: local}, Role: role, Name: name}
}

// checkInvariants fails tb when a's table contradicts itself.
func checkInvariants(tb testing.TB, a *Allocator) {
	tb.Helper()
	a.mu.Lock()
	defer a.mu.Unlock()
	live, inactive, indexed := 0, 0, 0
	docActive := make([]int, len(a.docs))
	listed := map[int]map[uint32]bool{} // tab → the slots its list holds
	for tab, tl := range a.tabs {
		listed[tab] = map[uint32]bool{}
		for _, idx := range tl.slots {
			listed[tab][idx] = true
		}
	}
	for i := range a.slots {
		s := &a.slots[i]
		if s.ref == 0 || s.ref >= a.next {
			tb.Fatalf("slot %d: ref %d, counter %d", i, s.ref, a.next)
		}
		if i > 0 && a.slots[i-1].ref >= s.ref {
			tb.Fatalf("slot %d: refs not ascending: %d then %d", i, a.slots[i-1].ref, s.ref)
		}
		if s.trimmed {
			continue
		}
		if s.indexed {
			indexed++
			if got, ok := a.byKey[skey{s.doc, s.frame, s.local}]; !ok || got != uint32(i) {
				tb.Fatalf("slot %d (%s): byKey has %d, %v", i, FormatRef(s.ref), got, ok)
			}
		}
		if s.indexed != (a.docs[s.doc].valid && s.frame >= 0) {
			tb.Fatalf("slot %d: indexed %v for doc %q frame %d", i, s.indexed, a.docs[s.doc].id, s.frame)
		}
		if s.active {
			live++
			docActive[s.doc]++
			if !listed[s.tab][uint32(i)] {
				tb.Fatalf("slot %d: active in tab %d but not in its list", i, s.tab)
			}
		} else {
			inactive++
		}
	}
	if live != a.live || inactive != a.inactive {
		tb.Fatalf("counts: live %d/%d inactive %d/%d", live, a.live, inactive, a.inactive)
	}
	if inactive > MaxInactive {
		tb.Fatalf("%d inactive entries kept", inactive)
	}
	if indexed != len(a.byKey) {
		tb.Fatalf("byKey has %d keys, %d slots indexed", len(a.byKey), indexed)
	}
	for i, d := range a.docs {
		if d.active != docActive[i] {
			tb.Fatalf("doc %q: active %d, counted %d", d.id, d.active, docActive[i])
		}
		if a.docIdx[d.id] != uint32(i) {
			tb.Fatalf("doc %q: docIdx %d, want %d", d.id, a.docIdx[d.id], i)
		}
	}
}

func mustResolve(tb testing.TB, a *Allocator, ref uint64) Entry {
	tb.Helper()
	e, err := a.Resolve(ref)
	if err != nil {
		tb.Fatalf("Resolve(%s): %v", FormatRef(ref), err)
	}
	return e
}

// wantRefused fails tb unless Resolve(ref) is refused with code.
func wantRefused(tb testing.TB, a *Allocator, ref uint64, code protocol.Code) {
	tb.Helper()
	e, err := a.Resolve(ref)
	var pe *protocol.Error
	if !errors.As(err, &pe) || pe.Code != code || pe.Boundary != protocol.BoundaryRef || pe.Hint == "" {
		tb.Fatalf("Resolve(%s) = %+v, %v; want %s at %s with a hint", FormatRef(ref), e, err, code, protocol.BoundaryRef)
	}
}

// TestFormatRefs: the refs written into one shared string are each
// FormatRef's, and parse back to their numbers.
func TestFormatRefs(t *testing.T) {
	refs := []uint64{1, 9, 10, 12, 99, 100, 4096, MaxRef, 7}
	got := FormatRefs(refs)
	if len(got) != len(refs) {
		t.Fatalf("FormatRefs gave %d refs for %d", len(got), len(refs))
	}
	for i, n := range refs {
		if got[i] != FormatRef(n) {
			t.Errorf("FormatRefs[%d] = %q, want %q", i, got[i], FormatRef(n))
		}
		if back, err := ParseRef(got[i]); err != nil || back != n {
			t.Errorf("ParseRef(%q) = %d, %v; want %d", got[i], back, err, n)
		}
	}
	if len(FormatRefs(nil)) != 0 {
		t.Error("FormatRefs(nil) is not empty")
	}
}

func TestParseRef(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want uint64
		ok   bool
	}{
		{"@e1", 1, true},
		{"@e12", 12, true},
		{"@e9007199254740991", MaxRef, true},
		{"@e9007199254740992", 0, false},
		{"@e99999999999999999999999", 0, false},
		{"@e0", 0, false},
		{"@e01", 0, false},
		{"@ex", 0, false},
		{"@e1x", 0, false},
		{"@e-1", 0, false},
		{"@e+1", 0, false},
		{"@e", 0, false},
		{"e5", 0, false},
		{"@E5", 0, false},
		{" @e5", 0, false},
		{"", 0, false},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseRef(tc.in)
			if tc.ok {
				if err != nil || got != tc.want {
					t.Fatalf("ParseRef(%q) = %d, %v; want %d", tc.in, got, err, tc.want)
				}
				if s := FormatRef(got); s != tc.in {
					t.Fatalf("FormatRef(%d) = %q", got, s)
				}
				return
			}
			var pe *protocol.Error
			if !errors.As(err, &pe) || pe.Code != protocol.CodeInvalidLocator || pe.Boundary != protocol.BoundaryPayload {
				t.Fatalf("ParseRef(%q) = %d, %v; want invalid_locator at payload", tc.in, got, err)
			}
		})
	}
}

// step is one call in a scripted table test.
type step struct {
	op       string // replace, merge, docs, tab
	tab      int
	obs      []Observed
	live     []string // for docs
	refs     []uint64 // want; nil skips the check
	added    []uint64
	gone     []uint64
	active   []uint64          // must resolve afterwards
	stale    []uint64          // must answer stale_ref
	sigs     map[uint64]uint64 // ref → Signature(role, name)
	tabs     map[uint64]int
	wantNext uint64
}

func TestAllocator(t *testing.T) {
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{
			name: "same node in two frames gets two refs",
			steps: []step{
				{op: "replace", tab: 1, obs: []Observed{
					ob("docA", 0, 42, "button", "Buy"),
					ob("docB", 7, 42, "button", "Buy"),
					ob("docA", 3, 42, "button", "Buy"), // same doc id, another frame
				}, refs: []uint64{1, 2, 3}, added: []uint64{1, 2, 3}, active: []uint64{1, 2, 3}},
			},
		},
		{
			name: "partial snapshot in another order keeps the refs",
			steps: []step{
				{op: "replace", tab: 1, obs: []Observed{
					ob("d", 0, 1, "link", "a"), ob("d", 0, 2, "link", "b"), ob("d", 0, 3, "link", "c"),
				}, refs: []uint64{1, 2, 3}, added: []uint64{1, 2, 3}},
				{op: "merge", tab: 1, obs: []Observed{
					ob("d", 0, 3, "link", "c"), ob("d", 0, 1, "link", "a"),
				}, refs: []uint64{3, 1}, added: []uint64{}, gone: []uint64{}, active: []uint64{1, 2, 3}},
				{op: "merge", tab: 1, obs: []Observed{
					ob("d", 0, 9, "link", "new"), ob("d", 0, 2, "link", "b"),
				}, refs: []uint64{4, 2}, added: []uint64{4}, active: []uint64{1, 2, 3, 4}},
			},
		},
		{
			name: "a new name or role keeps the ref",
			steps: []step{
				{op: "replace", tab: 1, obs: []Observed{ob("d", 0, 5, "button", "Add to cart")}, refs: []uint64{1}},
				{op: "replace", tab: 1, obs: []Observed{ob("d", 0, 5, "link", "Added ✓")}, refs: []uint64{1},
					added: []uint64{}, gone: []uint64{}, sigs: map[uint64]uint64{1: Signature("link", "Added ✓")}},
			},
		},
		{
			name: "a new document makes only that frame's refs stale",
			steps: []step{
				{op: "replace", tab: 1, obs: []Observed{
					ob("top1", 0, 1, "link", "Home"), ob("top1", 0, 2, "link", "Next"), ob("pay", 7, 1, "textbox", "Card"),
				}, refs: []uint64{1, 2, 3}},
				// The top frame navigated: the host drops its old document.
				{op: "docs", live: []string{"top2", "pay"}, gone: []uint64{1, 2}, stale: []uint64{1, 2}, active: []uint64{3}},
				// Local id 1 again, in the new document: a new ref.
				{op: "replace", tab: 1, obs: []Observed{ob("top2", 0, 1, "link", "Home"), ob("pay", 7, 1, "textbox", "Card")},
					refs: []uint64{4, 3}, added: []uint64{4}, gone: []uint64{}, stale: []uint64{1, 2}, active: []uint64{3, 4}},
			},
		},
		{
			name: "a full snapshot of a new document expires the old one",
			steps: []step{
				{op: "replace", tab: 1, obs: []Observed{ob("top1", 0, 1, "link", "Home"), ob("pay", 7, 1, "textbox", "Card")}, refs: []uint64{1, 2}},
				{op: "replace", tab: 1, obs: []Observed{ob("top2", 0, 1, "link", "Home"), ob("pay", 7, 1, "textbox", "Card")},
					refs: []uint64{3, 2}, added: []uint64{3}, gone: []uint64{1}, stale: []uint64{1}},
			},
		},
		{
			name: "a re-attached node comes back with its old ref",
			steps: []step{
				{op: "replace", tab: 1, obs: []Observed{ob("d", 0, 1, "button", "A"), ob("d", 0, 2, "dialog", "B")}, refs: []uint64{1, 2}},
				{op: "replace", tab: 1, obs: []Observed{ob("d", 0, 1, "button", "A")}, refs: []uint64{1}, gone: []uint64{2}, stale: []uint64{2}},
				{op: "replace", tab: 1, obs: []Observed{ob("d", 0, 1, "button", "A"), ob("d", 0, 2, "dialog", "B")},
					refs: []uint64{1, 2}, added: []uint64{2}, gone: []uint64{}, active: []uint64{1, 2}, wantNext: 3},
			},
		},
		{
			name: "an unknown document or frame never matches",
			steps: []step{
				{op: "replace", tab: 1, obs: []Observed{ob("", 0, 1, "button", "A"), ob("d", -1, 1, "button", "B"), ob("\xff", 0, 1, "button", "C")},
					refs: []uint64{1, 2, 3}},
				{op: "replace", tab: 1, obs: []Observed{ob("", 0, 1, "button", "A"), ob("d", -1, 1, "button", "B"), ob("\xff", 0, 1, "button", "C")},
					refs: []uint64{4, 5, 6}, added: []uint64{4, 5, 6}, gone: []uint64{1, 2, 3}, stale: []uint64{1, 2, 3}},
			},
		},
		{
			name: "the same key twice in one snapshot is one ref",
			steps: []step{
				{op: "replace", tab: 1, obs: []Observed{ob("d", 0, 1, "button", "A"), ob("d", 0, 1, "button", "A")},
					refs: []uint64{1, 1}, added: []uint64{1}, wantNext: 2},
			},
		},
		{
			name: "an entry seen in another tab moves there",
			steps: []step{
				{op: "replace", tab: 1, obs: []Observed{ob("d", 0, 1, "button", "A"), ob("e", 0, 1, "button", "B")}, refs: []uint64{1, 2}},
				{op: "replace", tab: 2, obs: []Observed{ob("d", 0, 1, "button", "A")}, refs: []uint64{1}, added: []uint64{1}, tabs: map[uint64]int{1: 2}},
				// A full snapshot of tab 1 no longer owns ref 1.
				{op: "replace", tab: 1, obs: nil, gone: []uint64{2}, active: []uint64{1}, stale: []uint64{2}},
				{op: "tab", tab: 2, gone: []uint64{1}, stale: []uint64{1, 2}},
				{op: "tab", tab: 2, gone: []uint64{}},
			},
		},
		{
			name: "merge expires nothing, closing the tab expires everything",
			steps: []step{
				{op: "merge", tab: 4, obs: []Observed{ob("d", 0, 1, "", "A")}, refs: []uint64{1}},
				{op: "merge", tab: 4, obs: []Observed{ob("d", 0, 2, "", "B")}, refs: []uint64{2}, active: []uint64{1, 2}},
				{op: "tab", tab: 4, gone: []uint64{1, 2}, stale: []uint64{1, 2}},
				{op: "merge", tab: 4, obs: []Observed{ob("d", 0, 2, "", "B")}, refs: []uint64{2}, added: []uint64{2}, active: []uint64{2}, stale: []uint64{1}},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := New()
			for i, st := range tc.steps {
				var refs []uint64
				var d Diff
				switch st.op {
				case "replace":
					refs, d = a.Replace(st.tab, st.obs)
				case "merge":
					refs, d = a.Merge(st.tab, st.obs)
				case "docs":
					live := map[string]bool{}
					for _, id := range st.live {
						live[id] = true
					}
					d.Gone = a.InvalidateDocuments(live)
				case "tab":
					d.Gone = a.InvalidateTab(st.tab)
				default:
					t.Fatalf("step %d: op %q", i, st.op)
				}
				if st.refs != nil && !slices.Equal(refs, st.refs) {
					t.Fatalf("step %d: refs %v, want %v", i, refs, st.refs)
				}
				if st.added != nil && !slices.Equal(d.Added, st.added) {
					t.Fatalf("step %d: added %v, want %v", i, d.Added, st.added)
				}
				if st.gone != nil && !slices.Equal(d.Gone, st.gone) {
					t.Fatalf("step %d: gone %v, want %v", i, d.Gone, st.gone)
				}
				for _, r := range st.active {
					if e := mustResolve(t, a, r); !e.Active || e.Ref != r {
						t.Fatalf("step %d: Resolve(%d) = %+v", i, r, e)
					}
				}
				for _, r := range st.stale {
					wantRefused(t, a, r, protocol.CodeStaleRef)
				}
				for r, sig := range st.sigs {
					if e := mustResolve(t, a, r); e.Sig != sig {
						t.Fatalf("step %d: %s has signature %x, want %x", i, FormatRef(r), e.Sig, sig)
					}
				}
				for r, tab := range st.tabs {
					if e := mustResolve(t, a, r); e.Tab != tab {
						t.Fatalf("step %d: %s is in tab %d, want %d", i, FormatRef(r), e.Tab, tab)
					}
				}
				if _, _, next := a.Stats(); st.wantNext != 0 && next != st.wantNext {
					t.Fatalf("step %d: next %d, want %d", i, next, st.wantNext)
				}
				checkInvariants(t, a)
			}
		})
	}
}

func TestResolveEntry(t *testing.T) {
	a := New()
	a.Replace(412, []Observed{ob("doc-1", 7, 42, "textbox", "Email")})
	got := mustResolve(t, a, 1)
	want := Entry{Ref: 1, Key: Key{"doc-1", 7, 42}, Tab: 412, Sig: Signature("textbox", "Email"), Active: true}
	if got != want {
		t.Fatalf("Resolve = %+v, want %+v", got, want)
	}
	wantRefused(t, a, 2, protocol.CodeUnknownRef)
	wantRefused(t, a, 0, protocol.CodeUnknownRef)
	if _, err := a.Resolve(2); !errors.Is(err, protocol.ErrUnknownRef) {
		t.Fatalf("errors.Is(%v, ErrUnknownRef) = false", err)
	}
}

// A read in which one document did not answer keeps that document's refs
// active; one in which it is simply absent makes them stale.
func TestReplaceReadKeepsUnreadDocuments(t *testing.T) {
	a := New()
	a.Replace(1, []Observed{ob("top", 0, 1, "button", "Pay"), ob("card", 3, 1, "textbox", "Card number")})
	_, d := a.ReplaceRead(1, []Observed{ob("top", 0, 1, "button", "Pay")}, map[string]bool{"card": true}, nil)
	if len(d.Gone) != 0 {
		t.Fatalf("gone %v after a read the card frame did not answer", d.Gone)
	}
	if e := mustResolve(t, a, 2); !e.Active || e.Key.DocumentID != "card" {
		t.Fatalf("the card's ref after the unread read: %+v", e)
	}
	checkInvariants(t, a)
	// Read again with the card: the same ref, nothing added.
	refs, d := a.ReplaceRead(1, []Observed{ob("top", 0, 1, "button", "Pay"), ob("card", 3, 1, "textbox", "Card number")}, nil, nil)
	if fmt.Sprint(refs) != "[1 2]" || len(d.Added)+len(d.Gone) != 0 {
		t.Fatalf("the card answering again: refs %v, %+v", refs, d)
	}
	// Absent without being unread: stale.
	if _, d = a.Replace(1, []Observed{ob("top", 0, 1, "button", "Pay")}); fmt.Sprint(d.Gone) != "[2]" {
		t.Fatalf("the card gone: %+v", d)
	}
	wantRefused(t, a, 2, protocol.CodeStaleRef)
	checkInvariants(t, a)
}

func TestTrimOldestFirst(t *testing.T) {
	a := New()
	const n = MaxInactive + 1
	obs := make([]Observed, n)
	for i := range obs {
		obs[i] = ob("d", 0, i+1, "button", "b")
	}
	refs, _ := a.Replace(1, obs)
	if refs[0] != 1 || refs[n-1] != n {
		t.Fatalf("refs run %d..%d", refs[0], refs[n-1])
	}
	if gone := a.InvalidateTab(1); len(gone) != n {
		t.Fatalf("%d refs went inactive, want %d", len(gone), n)
	}
	wantRefused(t, a, 1, protocol.CodeUnknownRef)
	wantRefused(t, a, 2, protocol.CodeStaleRef)
	wantRefused(t, a, n, protocol.CodeStaleRef)
	if live, inactive, next := a.Stats(); live != 0 || inactive != MaxInactive || next != 10002 {
		t.Fatalf("Stats = %d live, %d inactive, next %d; want 0, %d, 10002", live, inactive, next, MaxInactive)
	}

	// Active entries are never trimmed.
	keep, _ := a.Replace(2, []Observed{ob("e", 0, 1, "button", "kept")})
	// The forgotten key is new again: a new number, never 1.
	if r, _ := a.Replace(1, []Observed{ob("d", 0, 1, "button", "b")}); r[0] != 10003 {
		t.Fatalf("forgotten key got %s, want @e10003", FormatRef(r[0]))
	}
	// Entries that go inactive later outlive older ones, whatever their number.
	a.Replace(1, nil)
	a.Replace(3, []Observed{ob("f", 0, 1, "", "x"), ob("f", 0, 2, "", "y")})
	a.InvalidateTab(3)
	for _, r := range []uint64{2, 3, 4} {
		wantRefused(t, a, r, protocol.CodeUnknownRef)
	}
	for _, r := range []uint64{5, n, 10003, 10004, 10005} {
		wantRefused(t, a, r, protocol.CodeStaleRef)
	}
	mustResolve(t, a, keep[0])
	if live, inactive, next := a.Stats(); live != 1 || inactive != MaxInactive || next != 10006 {
		t.Fatalf("Stats = %d live, %d inactive, next %d", live, inactive, next)
	}
	checkInvariants(t, a)
}

func TestTrimCompacts(t *testing.T) {
	a := New()
	// Many rounds of navigation in one tab: each page's refs go stale and
	// the oldest are forgotten, while one entry stays active throughout.
	a.Replace(9, []Observed{ob("pinned", 0, 1, "", "pinned")})
	var last []uint64
	for round := 0; round < 40; round++ {
		obs := make([]Observed, 1000)
		doc := fmt.Sprintf("page-%d", round)
		for i := range obs {
			obs[i] = ob(doc, 0, i, "link", "l")
		}
		last, _ = a.Replace(1, obs)
		a.InvalidateDocuments(map[string]bool{doc: true, "pinned": true})
	}
	checkInvariants(t, a)
	live, inactive, next := a.Stats()
	if live != 1001 || inactive != MaxInactive || next != 40002 {
		t.Fatalf("Stats = %d, %d, %d", live, inactive, next)
	}
	mustResolve(t, a, 1)
	mustResolve(t, a, last[999])
	if len(a.docs) > 15 {
		t.Fatalf("%d documents kept after compaction", len(a.docs))
	}
	wantRefused(t, a, 2, protocol.CodeUnknownRef)
}

func TestConcurrentUse(t *testing.T) {
	a := New()
	var wg sync.WaitGroup
	results := make([][]uint64, 4)
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				doc := fmt.Sprintf("g%d-%d", g, i)
				refs, _ := a.Replace(g, []Observed{ob(doc, 0, 1, "", ""), ob(doc, 0, 2, "", "")})
				results[g] = append(results[g], refs...)
				a.Resolve(refs[0])
				if i%50 == 0 {
					a.InvalidateDocuments(map[string]bool{doc: true})
				}
			}
		}()
	}
	wg.Wait()
	seen := map[uint64]bool{}
	for _, rs := range results {
		for _, r := range rs {
			if seen[r] {
				t.Fatalf("%s handed out twice", FormatRef(r))
			}
			seen[r] = true
		}
	}
	checkInvariants(t, a)
}

// TestBytesPerEntry keeps the table within its memory target: under 200
// bytes per live entry.
func TestBytesPerEntry(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates 100,000 entries")
	}
	per := bytesPerEntry(100_000)
	t.Logf("%.1f bytes per live entry", per)
	if per >= 200 {
		t.Fatalf("%.1f bytes per live entry, want < 200", per)
	}
}

// bytesPerEntry measures the heap one allocator holds for n live entries in
// 100 documents over 10 tabs.
func bytesPerEntry(n int) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	a := New()
	for d := 0; d < 100; d++ {
		obs := make([]Observed, n/100)
		doc := fmt.Sprintf("%032X", d*7919)
		for i := range obs {
			obs[i] = ob(doc, d%3, i+1, "button", fmt.Sprintf("Item %d", d*n+i))
		}
		a.Merge(d%10, obs)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	live, _, _ := a.Stats()
	runtime.KeepAlive(a)
	return float64(after.HeapAlloc-before.HeapAlloc) / float64(live)
}

// A read that does not list an element the page still holds (a read in
// another mode, a hidden element) keeps its ref active; once the page no
// longer has it, the next read makes it stale.
func TestReplaceReadKeepsAliveElements(t *testing.T) {
	a := New()
	a.Replace(1, []Observed{ob("top", 0, 1, "button", "Save"), ob("top", 0, 2, "text", "Issue #12 is open")})
	_, d := a.ReplaceRead(1, []Observed{ob("top", 0, 1, "button", "Save")}, nil, map[Key]bool{{DocumentID: "top", FrameID: 0, LocalID: 2}: true})
	if len(d.Gone) != 0 {
		t.Fatalf("gone %v after a read that left out an element still on the page", d.Gone)
	}
	if e := mustResolve(t, a, 2); !e.Active {
		t.Fatalf("the text's ref after an interactive read: %+v", e)
	}
	checkInvariants(t, a)
	if _, d = a.ReplaceRead(1, []Observed{ob("top", 0, 1, "button", "Save")}, nil, nil); fmt.Sprint(d.Gone) != "[2]" {
		t.Fatalf("the text removed from the page: %+v", d)
	}
	wantRefused(t, a, 2, protocol.CodeStaleRef)
	checkInvariants(t, a)
}

// A ref of a closed tab says so; one whose element left the page says that.
func TestStaleSaysWhy(t *testing.T) {
	a := New()
	a.Replace(1, []Observed{ob("d1", 0, 1, "button", "Save")})
	a.Replace(2, []Observed{ob("d2", 0, 1, "button", "Send"), ob("d2", 0, 2, "button", "Undo")})
	a.Replace(2, []Observed{ob("d2", 0, 1, "button", "Send")})
	a.InvalidateTab(1)
	_, err := a.Resolve(1)
	if err == nil || !strings.Contains(err.Error(), "its tab was closed") {
		t.Errorf("a closed tab's ref: %v", err)
	}
	_, err = a.Resolve(3)
	if err == nil || !strings.Contains(err.Error(), "no longer on the page") {
		t.Errorf("a removed element's ref: %v", err)
	}
}
