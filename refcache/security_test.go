package refcache

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/protocol"
)

// Findings of the security review about the ledger: its size and memory
// on load, the page text it keeps, and its kept-aside copies.

// allocDuring returns how many bytes f allocated on the heap.
func allocDuring(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// v1Ledger writes a ledger in the first format (names kept) with n active
// entries in one document, each named name, and returns its size.
func v1Ledger(tb testing.TB, dir string, n int, name string) int {
	tb.Helper()
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"version":1,"profile":"p","next":%d,"documents":["doc-1"],"entries":[`, n+1)
	for i := 1; i <= n; i++ {
		if i > 1 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "\n[%d,0,0,%d,7,true,\"button\",%q,%d]", i, i, name, i)
	}
	b.WriteString("\n]}\n")
	if err := os.WriteFile(filepath.Join(dir, "p.json"), b.Bytes(), 0o600); err != nil {
		tb.Fatal(err)
	}
	return b.Len()
}

// TestBigLedgerLoadsInBoundedMemory: a large, valid ledger whose names are
// full of '[' loads in memory proportional to what it holds. Decoding once
// reserved a slot per '[' byte: this 9.5 MB file cost 855 MiB, and a 60 MB
// one ran the host out of memory on every start.
func TestBigLedgerLoadsInBoundedMemory(t *testing.T) {
	dir := t.TempDir()
	const n = 20_000
	size := v1Ledger(t, dir, n, strings.Repeat("[", 470))
	var a *Allocator
	got := allocDuring(func() { a = mustOpen(t, dir, Options{}) })
	defer mustClose(t, a)
	t.Logf("a %.1f MB ledger of %d entries: Open allocated %.1f MiB", float64(size)/1e6, n, float64(got)/(1<<20))
	if err := a.LoadError(); err != nil {
		t.Fatalf("LoadError: %v", err)
	}
	if live, _, next := a.Stats(); live != n || next != n+1 {
		t.Fatalf("Stats = %d live, next %d; want %d, %d", live, next, n, n+1)
	}
	if limit := uint64(4*size + 16<<20); got > limit {
		t.Fatalf("Open of a %d-byte ledger allocated %d bytes, want at most %d", size, got, limit)
	}
}

// TestOversizeLedgerMovedAside: a ledger larger than any the allocator can
// write is refused without being read whole, moved aside, and the host
// starts above every number it reserved.
func TestOversizeLedgerMovedAside(t *testing.T) {
	dir := t.TempDir()
	a := mustOpen(t, dir, Options{})
	refs, _ := a.Replace(1, []Observed{ob("d", 0, 1, "button", "OK")})
	mustClose(t, a)
	path := filepath.Join(dir, "p.json")
	// A sparse file: it takes no disk space, and reading it whole would
	// take 200 MB of memory.
	if err := os.Truncate(path, 200<<20); err != nil {
		t.Fatal(err)
	}
	var b *Allocator
	got := allocDuring(func() { b = mustOpen(t, dir, Options{}) })
	defer mustClose(t, b)
	t.Logf("Open of a 200 MB ledger allocated %.1f MiB: %v", float64(got)/(1<<20), b.LoadError())
	if err := b.LoadError(); !errors.Is(err, ErrBadLedger) || !strings.Contains(err.Error(), "larger than") {
		t.Errorf("LoadError = %v, want ErrBadLedger for its size", err)
	}
	if moved, _ := filepath.Glob(path + ".bad-*"); len(moved) != 1 {
		t.Errorf("moved aside: %v", moved)
	}
	if got > 16<<20 {
		t.Errorf("Open allocated %d bytes for a ledger it refused", got)
	}
	if _, _, next := b.Stats(); next <= refs[0] {
		t.Errorf("counter %d, but %s was handed out", next, FormatRef(refs[0]))
	}
}

// TestLedgerKeepsNoPageText: names (page text, in content mode whole
// paragraphs) never reach the disk; a changed name still counts as a
// change of meaning.
func TestLedgerKeepsNoPageText(t *testing.T) {
	const secret = "Zq9 Dear Alice, your statement"
	dir := t.TempDir()
	a := mustOpen(t, dir, Options{})
	refs, _ := a.Replace(1, []Observed{ob("d", 0, 1, "paragraph", secret), ob("d", 0, 2, "secret-role-"+secret, "x")})
	mustClose(t, a)
	data, err := os.ReadFile(filepath.Join(dir, "p.json"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte("Zq9")) {
		t.Fatalf("the ledger holds page text:\n%s", data)
	}
	b := mustOpen(t, dir, Options{})
	defer mustClose(t, b)
	if err := b.LoadError(); err != nil {
		t.Fatal(err)
	}
	if e := mustResolve(t, b, refs[0]); e.Sig != Signature("paragraph", secret) || e.Key != (Key{"d", 0, 1}) {
		t.Fatalf("restored %+v", e)
	}
}

// TestOldLedgerMigrates: a ledger of the first format, names and all,
// loads with every ref and the counter, and is rewritten at once without
// its names.
func TestOldLedgerMigrates(t *testing.T) {
	dir := t.TempDir()
	const name = "Zq9 old page text"
	v1Ledger(t, dir, 3, name)
	if err := os.WriteFile(filepath.Join(dir, "p.hwm"), encodeHWM("p", 1500), 0o600); err != nil {
		t.Fatal(err)
	}
	a := mustOpen(t, dir, Options{})
	if err := a.LoadError(); err != nil {
		t.Fatalf("LoadError: %v", err)
	}
	for r := uint64(1); r <= 3; r++ {
		if e := mustResolve(t, a, r); e.Key != (Key{"doc-1", 0, int(r)}) || e.Tab != 7 || e.Sig != Signature("button", name) {
			t.Fatalf("%s after migration: %+v", FormatRef(r), e)
		}
	}
	if _, _, next := a.Stats(); next < 1500 {
		t.Fatalf("counter %d, below the reservation 1500", next)
	}
	data, err := os.ReadFile(filepath.Join(dir, "p.json"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(data, []byte("Zq9")) || !bytes.HasPrefix(data, []byte(`{"version":2,`)) {
		t.Fatalf("after Open the ledger still reads:\n%s", data)
	}
	// The same element keeps its ref; a new one is numbered above the
	// old reservation.
	got, _ := a.Replace(7, []Observed{ob("doc-1", 0, 2, "button", name), ob("doc-1", 0, 9, "button", "new")})
	if got[0] != 2 || got[1] < 1500 {
		t.Fatalf("after migration: refs %v", got)
	}
	mustClose(t, a)
	b := mustOpen(t, dir, Options{})
	defer mustClose(t, b)
	if err := b.LoadError(); err != nil {
		t.Fatalf("LoadError after migration: %v", err)
	}
	mustResolve(t, b, 2)
}

// TestKeptAsideCopiesBounded: refused ledgers are kept for a bug report,
// the newest keepBad of each file, not forever.
func TestKeptAsideCopiesBounded(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "p.json")
	var last string
	for i := range keepBad + 3 {
		last = fmt.Sprintf("garbage %d", i)
		if err := os.WriteFile(path, []byte(last), 0o600); err != nil {
			t.Fatal(err)
		}
		a := mustOpen(t, dir, Options{})
		if !errors.Is(a.LoadError(), ErrBadLedger) {
			t.Fatalf("round %d: LoadError = %v", i, a.LoadError())
		}
		mustClose(t, a)
		time.Sleep(2 * time.Millisecond) // distinct names, whatever the clock's resolution
	}
	moved, _ := filepath.Glob(path + ".bad-*")
	if len(moved) != keepBad {
		t.Fatalf("%d copies kept aside, want %d: %v", len(moved), keepBad, moved)
	}
	slices.Sort(moved)
	if data, _ := os.ReadFile(moved[len(moved)-1]); string(data) != last {
		t.Fatalf("the newest copy holds %q, want %q", data, last)
	}
}

// TestMaxActive: past MaxActive active entries, the tabs read least
// recently go inactive first, whole (and get their refs back when read
// again, as long as they are kept); a tab that alone holds MaxActive gets
// no ref for the rest, and Save says why. This bound is what bounds the
// ledger's size.
func TestMaxActive(t *testing.T) {
	if testing.Short() {
		t.Skip("allocates MaxActive entries")
	}
	obs := func(doc string, n int) []Observed {
		o := make([]Observed, n)
		for i := range o {
			o[i] = Observed{Key: Key{DocumentID: doc, LocalID: i + 1}, Role: "button"}
		}
		return o
	}
	a := mustOpen(t, t.TempDir(), Options{})
	defer mustClose(t, a)
	first, _ := a.Replace(1, obs("one", 5))
	a.Replace(2, obs("two", MaxActive-10))
	third, _ := a.Replace(3, obs("three", 10)) // tab 1, read first, makes room
	if n, _, _ := a.Stats(); n != MaxActive {
		t.Fatalf("%d live after tab 3, want %d", n, MaxActive)
	}
	wantRefused(t, a, first[0], protocol.CodeStaleRef)
	mustResolve(t, a, third[9])
	// Tab 1 read again gets its refs back; now tab 2, read least recently,
	// goes. Tab 3, read since, stays.
	again, _ := a.Replace(1, obs("one", 5))
	if !slices.Equal(again, first) {
		t.Fatalf("tab 1 read again got %v, want %v", again, first)
	}
	if n, _, _ := a.Stats(); n != 15 {
		t.Fatalf("%d live, want 15 (tabs 1 and 3)", n)
	}
	mustResolve(t, a, third[0])
	if err := a.Save(); err != nil {
		t.Fatalf("Save: %v", err)
	}
	// One tab with more than MaxActive elements: the rest get no ref.
	refs, _ := a.Replace(4, obs("four", MaxActive+2))
	if refs[MaxActive-1] == 0 || refs[MaxActive] != 0 || refs[MaxActive+1] != 0 {
		t.Fatalf("refs past MaxActive: %v", refs[MaxActive-1:])
	}
	if n, _, _ := a.Stats(); n != MaxActive {
		t.Fatalf("%d live, want %d", n, MaxActive)
	}
	if err := a.Save(); err == nil || !strings.Contains(err.Error(), "2 elements of tab 4 got no ref") {
		t.Fatalf("Save = %v, want it to say why 2 elements got no ref", err)
	}
	checkInvariants(t, a)
}

// TestLedgerSizeBound: an entry at its widest, with its document, fits in
// maxEntryBytes, so that no ledger the allocator writes exceeds
// maxLedgerSize.
func TestLedgerSizeBound(t *testing.T) {
	a := New()
	a.ledger = &ledger{profile: strings.Repeat("p", 128)}
	empty := len(a.encodeLocked(nil))
	a.Replace(math.MinInt, []Observed{{Key: Key{DocumentID: strings.Repeat("D", maxDocID), FrameID: math.MaxInt, LocalID: math.MinInt}}})
	a.InvalidateTab(math.MinInt)
	a.slots[0].ref, a.slots[0].seq, a.slots[0].frame, a.next = MaxRef, maxSeq, math.MinInt, MaxRef+1
	one := len(a.encodeLocked(nil))
	widestDocIndex := len(strconv.Itoa(maxEntries)) - 1 // written: "0"
	if per := one - empty + widestDocIndex + 1; per > maxEntryBytes {
		t.Fatalf("an entry with its document takes %d bytes, more than maxEntryBytes %d", per, maxEntryBytes)
	}
	if empty > 4096 {
		t.Fatalf("an empty ledger takes %d bytes", empty)
	}
}
