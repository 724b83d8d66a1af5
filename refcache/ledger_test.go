package refcache

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/grip-dev/grip/protocol"
)

const testProfile = "p"

func mustOpen(tb testing.TB, dir string, o Options) *Allocator {
	tb.Helper()
	if o.LockWait == 0 {
		o.LockWait = 200 * time.Millisecond
	}
	a, err := OpenWith(dir, testProfile, o)
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	return a
}

func mustClose(tb testing.TB, a *Allocator) {
	tb.Helper()
	if err := a.Close(); err != nil {
		tb.Fatalf("Close: %v", err)
	}
}

func TestRestoreKeepsRefs(t *testing.T) {
	dir := t.TempDir()
	a := mustOpen(t, dir, Options{})
	if err := a.LoadError(); err != nil {
		t.Fatalf("LoadError on an empty dir: %v", err)
	}
	refs, _ := a.Replace(412, []Observed{
		ob("doc-1", 0, 1, "button", "Accept cookies"),
		ob("doc-1", 0, 3, "textbox", `Email "work"`),
		ob("doc-2", 7, 1, "textbox", "Card\nnumber"),
	})
	a.Replace(413, []Observed{ob("doc-3", 0, 1, "link", "gone soon")})
	a.InvalidateTab(413)
	mustClose(t, a)

	for _, name := range []string{"p.json", "p.hwm"} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Fatalf("%s has mode %v, want 0600", name, fi.Mode().Perm())
		}
	}

	b := mustOpen(t, dir, Options{})
	defer mustClose(t, b)
	if err := b.LoadError(); err != nil {
		t.Fatalf("LoadError: %v", err)
	}
	checkInvariants(t, b)
	if e := mustResolve(t, b, 2); e.Sig != Signature("textbox", `Email "work"`) || e.Tab != 412 || e.Key != (Key{"doc-1", 0, 3}) {
		t.Fatalf("restored %+v", e)
	}
	wantRefused(t, b, 4, protocol.CodeStaleRef)
	// At host start the extension reports what is still live.
	b.InvalidateDocuments(map[string]bool{"doc-1": true, "doc-2": true})
	again, d := b.Replace(412, []Observed{
		ob("doc-1", 0, 1, "button", "Accept cookies"),
		ob("doc-1", 0, 3, "textbox", "Email"),
		ob("doc-2", 7, 1, "textbox", "Card number"),
		ob("doc-1", 0, 4, "button", "Submit"),
	})
	if !slices.Equal(again[:3], refs) || len(d.Added) != 1 || len(d.Gone) != 0 {
		t.Fatalf("after restore: refs %v (want %v first), diff %+v", again, refs, d)
	}
	if again[3] <= 4 {
		t.Fatalf("new key got %s, under the old counter", FormatRef(again[3]))
	}
}

func TestSaveSkipsUnchanged(t *testing.T) {
	dir := t.TempDir()
	var writes atomic.Int32
	count := func(name string, data []byte) error {
		if strings.HasSuffix(name, ".json") {
			writes.Add(1)
		}
		return writeFileAtomic(name, data)
	}
	a := mustOpen(t, dir, Options{WriteFile: count})
	defer mustClose(t, a)
	obs := []Observed{ob("d", 0, 1, "button", "A")}
	a.Replace(1, obs)
	for range 3 {
		if err := a.Save(); err != nil {
			t.Fatal(err)
		}
	}
	a.Replace(1, obs) // nothing new
	a.Merge(1, obs)
	if err := a.Save(); err != nil {
		t.Fatal(err)
	}
	if n := writes.Load(); n != 1 {
		t.Fatalf("%d ledger writes, want 1", n)
	}
	// A new name alone waits: it is written with the next change of
	// identity, or at Close.
	a.Replace(1, []Observed{ob("d", 0, 1, "button", "B")})
	if err := a.Save(); err != nil {
		t.Fatal(err)
	}
	if n := writes.Load(); n != 1 {
		t.Fatalf("%d ledger writes after a name changed, want 1", n)
	}
	a.Replace(1, []Observed{ob("d", 0, 1, "button", "B"), ob("d", 0, 2, "button", "C")}) // a new element
	if err := a.Save(); err != nil {
		t.Fatal(err)
	}
	if n := writes.Load(); n != 2 {
		t.Fatalf("%d ledger writes after an element was added, want 2", n)
	}
	a.Replace(1, []Observed{ob("d", 0, 1, "button", "D"), ob("d", 0, 2, "button", "C")})
	mustClose(t, a)
	if n := writes.Load(); n != 3 {
		t.Fatalf("%d ledger writes after Close, want 3", n)
	}
	b := mustOpen(t, dir, Options{})
	defer mustClose(t, b)
	if e := mustResolve(t, b, 1); e.Sig != Signature("button", "D") {
		t.Fatalf("after Close the ledger holds %+v, want the last name's signature", e)
	}
	if e := mustResolve(t, b, 2); e.Sig != Signature("button", "C") {
		t.Fatalf("after Close the ledger holds %+v", e)
	}
}

// ledgerCase is a ledger file and what Open must make of it.
type ledgerCase struct {
	name string
	data string
	// bad is true when the ledger must be refused.
	bad bool
	// floor is the least counter Open may start with.
	floor uint64
}

var ledgerCases = []ledgerCase{
	{name: "empty table", data: `{"version":1,"profile":"p","next":1,"documents":[],"entries":[]}`, floor: 1},
	{name: "version 2", data: `{"version":2,"profile":"p","next":9,"documents":["d1","d2"],"entries":[
[1,0,0,1,412,true,"0123456789abcdef",1],
[5,1,7,1,412,false,"ffffffffffffffff",2],
[8,0,-1,1,412,true,"0000000000000000",3]]}`, floor: 9},
	{name: "fields in another order", data: `{"entries":[[1,0,0,1,4,true,"0123456789abcdef",1]],"next":2,"profile":"p","documents":["d"],"version":2}`, floor: 2},
	{name: "version 2 sig of 15 digits", bad: true, floor: 10,
		data: `{"version":2,"profile":"p","next":10,"documents":["d"],"entries":[[2,0,0,1,1,true,"0123456789abcde",1]]}`},
	{name: "version 2 sig not hex", bad: true, floor: 10,
		data: `{"version":2,"profile":"p","next":10,"documents":["d"],"entries":[[2,0,0,1,1,true,"0123456789abcdeg",1]]}`},
	{name: "version 2 with a name", bad: true, floor: 10,
		data: `{"version":2,"profile":"p","next":10,"documents":["d"],"entries":[[2,0,0,1,1,true,"button","OK",1]]}`},
	{name: "version 1 without a name", bad: true, floor: 10,
		data: `{"version":1,"profile":"p","next":10,"documents":["d"],"entries":[[2,0,0,1,1,true,"0123456789abcdef",1]]}`},
	{name: "field twice", bad: true, floor: 10,
		data: `{"version":2,"version":2,"profile":"p","next":10,"documents":[],"entries":[]}`},
	{name: "good", data: `{"version":1,"profile":"p","next":9,"documents":["d1","d2"],"entries":[
[1,0,0,1,412,true,"button","OK",1],
[5,1,7,1,412,false,"textbox","Card \"no\"",2],
[8,0,-1,1,412,true,"","unknown frame",3]]}`, floor: 9},
	{name: "unsorted refs are sorted", data: `{"version":1,"profile":"p","next":9,"documents":["d1"],"entries":[[5,0,0,2,1,true,"",""  ,1],[1,0,0,1,1,true,"","",1]]}`, floor: 9},
	{name: "unknown keys may repeat", data: `{"version":1,"profile":"p","next":3,"documents":[""],"entries":[[1,0,0,1,1,false,"","",1],[2,0,0,1,1,false,"","",1]]}`, floor: 3},

	{name: "counter not above a ref", bad: true, floor: 2,
		data: `{"version":1,"profile":"p","next":1,"documents":["d"],"entries":[[1,0,0,1,1,true,"button","OK",1]]}`},
	{name: "counter below a ref", bad: true, floor: 41,
		data: `{"version":1,"profile":"p","next":3,"documents":["d"],"entries":[[40,0,0,1,1,true,"button","OK",1]]}`},
	{name: "duplicate refs", bad: true, floor: 10,
		data: `{"version":1,"profile":"p","next":10,"documents":["d"],"entries":[[2,0,0,1,1,true,"","",1],[2,0,0,2,1,true,"","",1]]}`},
	{name: "duplicate keys", bad: true, floor: 10,
		data: `{"version":1,"profile":"p","next":10,"documents":["d"],"entries":[[2,0,0,1,1,true,"","",1],[3,0,0,1,2,false,"","",1]]}`},
	{name: "duplicate documents", bad: true, floor: 10,
		data: `{"version":1,"profile":"p","next":10,"documents":["d","d"],"entries":[[2,0,0,1,1,true,"","",1],[3,1,0,1,1,true,"","",1]]}`},
	{name: "ref is a string", bad: true, floor: 10,
		data: `{"version":1,"profile":"p","next":10,"documents":["d"],"entries":[["2",0,0,1,1,true,"","",1]]}`},
	{name: "frame is a float", bad: true, floor: 10,
		data: `{"version":1,"profile":"p","next":10,"documents":["d"],"entries":[[2,0,0.5,1,1,true,"","",1]]}`},
	{name: "frame in exponent form", bad: true, floor: 10,
		data: `{"version":1,"profile":"p","next":10,"documents":["d"],"entries":[[2,0,1e2,1,1,true,"","",1]]}`},
	{name: "active is a string", bad: true, floor: 10,
		data: `{"version":1,"profile":"p","next":10,"documents":["d"],"entries":[[2,0,0,1,1,"yes","","",1]]}`},
	{name: "name is null", bad: true, floor: 10,
		data: `{"version":1,"profile":"p","next":10,"documents":["d"],"entries":[[2,0,0,1,1,true,"",null,1]]}`},
	{name: "document is a number", bad: true, floor: 10,
		data: `{"version":1,"profile":"p","next":10,"documents":[7],"entries":[[2,0,0,1,1,true,"","",1]]}`},
	{name: "document index out of range", bad: true, floor: 10,
		data: `{"version":1,"profile":"p","next":10,"documents":["d"],"entries":[[2,1,0,1,1,true,"","",1]]}`},
	{name: "ref zero", bad: true, floor: 10,
		data: `{"version":1,"profile":"p","next":10,"documents":["d"],"entries":[[0,0,0,1,1,true,"","",1]]}`},
	{name: "negative ref", bad: true, floor: 10,
		data: `{"version":1,"profile":"p","next":10,"documents":["d"],"entries":[[-2,0,0,1,1,true,"","",1]]}`},
	{name: "eight fields", bad: true, floor: 10,
		data: `{"version":1,"profile":"p","next":10,"documents":["d"],"entries":[[2,0,0,1,1,true,"",""]]}`},
	{name: "ten fields", bad: true, floor: 10,
		data: `{"version":1,"profile":"p","next":10,"documents":["d"],"entries":[[2,0,0,1,1,true,"","",1,1]]}`},
	{name: "entry is an object", bad: true, floor: 10,
		data: `{"version":1,"profile":"p","next":10,"documents":["d"],"entries":[{"ref":2}]}`},
	{name: "next is a string", bad: true, floor: 3,
		data: `{"version":1,"profile":"p","next":"10","documents":["d"],"entries":[[2,0,0,1,1,true,"","",1]]}`},
	{name: "next is negative", bad: true, floor: 3,
		data: `{"version":1,"profile":"p","next":-1,"documents":["d"],"entries":[[2,0,0,1,1,true,"","",1]]}`},
	{name: "missing next", bad: true, floor: 3,
		data: `{"version":1,"profile":"p","documents":["d"],"entries":[[2,0,0,1,1,true,"","",1]]}`},
	{name: "entries null", bad: true, floor: 10,
		data: `{"version":1,"profile":"p","next":10,"documents":[],"entries":null}`},
	{name: "unknown field", bad: true, floor: 10,
		data: `{"version":1,"profile":"p","next":10,"documents":[],"entries":[],"extra":true}`},
	{name: "other version", bad: true, floor: 10,
		data: `{"version":3,"profile":"p","next":10,"documents":[],"entries":[]}`},
	{name: "other profile", bad: true, floor: 10,
		data: `{"version":1,"profile":"q","next":10,"documents":[],"entries":[]}`},
	{name: "data after the object", bad: true, floor: 10,
		data: `{"version":1,"profile":"p","next":10,"documents":[],"entries":[]} {}`},
	{name: "truncated JSON", bad: true, floor: 12,
		data: `{"version":1,"profile":"p","next":12,"documents":["d"],"entries":[
[1,0,0,1,1,true,"button","OK",1],
[11,0,0,2,1,true,"butt`},
	{name: "truncated before next", bad: true, floor: 78,
		data: `{"version":1,"profile":"p","next":99,"documents":["d"],"entries":[[77,0,0,1,1,true,"button","OK",1]`},
	{name: "empty file", bad: true, floor: 1, data: ``},
	{name: "not JSON", bad: true, floor: 1, data: "\x00\x01garbage"},
}

func TestLedgerValidation(t *testing.T) {
	for _, tc := range ledgerCases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "p.json")
			if err := os.WriteFile(path, []byte(tc.data), 0o600); err != nil {
				t.Fatal(err)
			}
			a := mustOpen(t, dir, Options{})
			loadErr := a.LoadError()
			_, _, next := a.Stats()
			if next < tc.floor {
				t.Fatalf("counter %d, want at least %d", next, tc.floor)
			}
			checkInvariants(t, a)
			if !tc.bad {
				if loadErr != nil {
					t.Fatalf("LoadError: %v", loadErr)
				}
				mustClose(t, a)
				return
			}
			if !errors.Is(loadErr, ErrBadLedger) || !strings.Contains(loadErr.Error(), ".bad-") {
				t.Fatalf("LoadError = %v, want ErrBadLedger naming the moved-aside file", loadErr)
			}
			t.Logf("refused: %v", loadErr)
			if live, inactive, _ := a.Stats(); live+inactive != 0 {
				t.Fatalf("refused ledger left %d entries", live+inactive)
			}
			// Moved aside, byte for byte; nothing at the old name.
			if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("ledger still at %s: %v", path, err)
			}
			bad, _ := filepath.Glob(path + ".bad-*")
			if len(bad) != 1 {
				t.Fatalf("moved-aside files: %v", bad)
			}
			if got, _ := os.ReadFile(bad[0]); string(got) != tc.data {
				t.Fatalf("moved-aside file holds %q", got)
			}
			refs, _ := a.Replace(1, []Observed{ob("d", 0, 1, "", "")})
			if refs[0] < tc.floor {
				t.Fatalf("new ref %s, want at least %s", FormatRef(refs[0]), FormatRef(tc.floor))
			}
			mustClose(t, a)

			// A later Open takes the fresh ledger without complaint.
			b := mustOpen(t, dir, Options{})
			defer mustClose(t, b)
			if err := b.LoadError(); err != nil {
				t.Fatalf("LoadError after recovery: %v", err)
			}
			if e := mustResolve(t, b, refs[0]); e.Key != (Key{"d", 0, 1}) {
				t.Fatalf("restored %+v", e)
			}
		})
	}
}

func TestBadHWMFile(t *testing.T) {
	for _, tc := range []struct {
		name, data string
		floor      uint64
	}{
		{"truncated", `{"version":1,"profile":"p","reserved":5000`, 5000},
		{"reserved is a string", `{"version":1,"profile":"p","reserved":"5000"}`, 5000},
		{"garbage", "7777\x00", 7777},
		{"other profile", `{"version":1,"profile":"q","reserved":300}`, 300},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "p.hwm"), []byte(tc.data), 0o600); err != nil {
				t.Fatal(err)
			}
			a := mustOpen(t, dir, Options{})
			if err := a.LoadError(); !errors.Is(err, ErrBadLedger) || !strings.Contains(err.Error(), "p.hwm.bad-") {
				t.Fatalf("LoadError = %v", err)
			}
			refs, _ := a.Replace(1, []Observed{ob("d", 0, 1, "", "")})
			if refs[0] < tc.floor {
				t.Fatalf("new ref %s, want at least %d", FormatRef(refs[0]), tc.floor)
			}
			mustClose(t, a)
			b := mustOpen(t, dir, Options{})
			defer mustClose(t, b)
			if err := b.LoadError(); err != nil {
				t.Fatalf("LoadError after recovery: %v", err)
			}
		})
	}
}

func TestHWMSurvivesLostLedger(t *testing.T) {
	dir := t.TempDir()
	a := mustOpen(t, dir, Options{})
	refs, _ := a.Replace(1, []Observed{ob("d", 0, 1, "", ""), ob("d", 0, 2, "", "")})
	mustClose(t, a)
	if err := os.Remove(filepath.Join(dir, "p.json")); err != nil {
		t.Fatal(err)
	}
	b := mustOpen(t, dir, Options{})
	defer mustClose(t, b)
	if _, _, next := b.Stats(); next <= refs[1] {
		t.Fatalf("counter %d after the ledger was lost; %s was handed out", next, FormatRef(refs[1]))
	}
}

func TestSecondHostRefused(t *testing.T) {
	dir := t.TempDir()
	a := mustOpen(t, dir, Options{})
	start := time.Now()
	b, err := OpenWith(dir, testProfile, Options{LockWait: 150 * time.Millisecond})
	if !errors.Is(err, ErrLocked) || b != nil {
		t.Fatalf("second Open = %v, %v; want ErrLocked", b, err)
	}
	if !strings.Contains(err.Error(), "p.lock") || time.Since(start) < 150*time.Millisecond {
		t.Fatalf("second Open: %v after %v; want the lock named, after waiting", err, time.Since(start))
	}
	// Another profile is not affected.
	c, err := OpenWith(dir, "other", Options{LockWait: 150 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	mustClose(t, c)
	// The lock waits briefly: a host that lets go in time is followed.
	go func() {
		time.Sleep(100 * time.Millisecond)
		a.Close()
	}()
	d, err := OpenWith(dir, testProfile, Options{LockWait: 5 * time.Second})
	if err != nil {
		t.Fatalf("Open after the first host closed: %v", err)
	}
	mustClose(t, d)
}

func TestBadProfile(t *testing.T) {
	for _, p := range []string{"", ".", "..", "../x", "a/b", ".hidden", "a b", strings.Repeat("x", 129)} {
		if _, err := Open(t.TempDir(), p); !errors.Is(err, ErrBadProfile) {
			t.Errorf("Open(%q) = %v, want ErrBadProfile", p, err)
		}
	}
}

// failingDisk is an injected WriteFile that fails what match matches while
// full is set, the way a full disk fails.
type failingDisk struct {
	full  atomic.Bool
	match func(name string) bool
}

func (d *failingDisk) write(name string, data []byte) error {
	if d.full.Load() && d.match(name) {
		return &fs.PathError{Op: "write", Path: name, Err: syscall.ENOSPC}
	}
	return writeFileAtomic(name, data)
}

func TestDiskFull(t *testing.T) {
	for _, tc := range []struct {
		name  string
		match func(string) bool
		n     int // new entries while the disk is full
	}{
		// The big ledger no longer fits; the small hwm file still does.
		{"ledger fails", func(n string) bool { return strings.HasSuffix(n, ".json") }, 3000},
		// Nothing can be written, within the reserved block.
		{"everything fails within the block", func(string) bool { return true }, 500},
		// Nothing can be written, past the reserved block: numbers past it
		// are withheld (0), never handed out unrecorded; the disk recovers.
		{"everything fails past the block", func(string) bool { return true }, 3000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			disk := &failingDisk{match: tc.match}
			a := mustOpen(t, dir, Options{WriteFile: disk.write})
			before, _ := a.Replace(1, []Observed{ob("d", 0, 1, "", ""), ob("d", 0, 2, "", "")})
			if err := a.Save(); err != nil {
				t.Fatal(err)
			}
			disk.full.Store(true)
			obs := make([]Observed, tc.n)
			for i := range obs {
				obs[i] = ob("e", 0, i, "", "")
			}
			during, _ := a.Replace(2, obs)
			err := a.Save()
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatalf("Save on a full disk = %v, want ENOSPC", err)
			}
			// Still working, in memory, numbers never repeated; past the
			// reserved block none is handed out until it can be recorded.
			more, _ := a.Merge(3, []Observed{ob("f", 0, 1, "", "")})
			all := slices.Concat(before, during, more)
			withheld := slices.Index(during, 0)
			if tc.name == "everything fails past the block" {
				if withheld <= 0 || slices.ContainsFunc(during[withheld:], func(r uint64) bool { return r != 0 }) || more[0] != 0 {
					t.Fatalf("past the reserved block: first withheld at %d, more %v", withheld, more)
				}
				if _, _, next := a.Stats(); next > a.ledger.durable {
					t.Fatalf("counter %d above the reservation on disk %d", next, a.ledger.durable)
				}
				all = slices.DeleteFunc(all, func(r uint64) bool { return r == 0 })
			} else if withheld >= 0 || more[0] == 0 {
				t.Fatalf("a number was withheld within the reserved block")
			}
			seen := map[uint64]bool{}
			for _, r := range all {
				if seen[r] {
					t.Fatalf("%s handed out twice", FormatRef(r))
				}
				seen[r] = true
				mustResolve(t, a, r)
			}
			checkInvariants(t, a)
			if tc.name == "everything fails past the block" {
				disk.full.Store(false)
				// The withheld elements get numbers once the disk takes them.
				again, _ := a.Replace(2, obs)
				if slices.Contains(again, 0) {
					t.Fatal("numbers still withheld after the disk recovered")
				}
				for _, r := range again[withheld:] {
					if seen[r] {
						t.Fatalf("%s handed out twice", FormatRef(r))
					}
				}
				all = slices.Concat(all, again)
				if err := a.Save(); err != nil {
					t.Fatalf("Save after the disk recovered: %v", err)
				}
			}
			a.Close() // fails while the disk is full; the lock goes anyway
			disk.full.Store(false)

			b := mustOpen(t, dir, Options{})
			defer mustClose(t, b)
			if _, _, next := b.Stats(); next <= slices.Max(all) {
				t.Fatalf("counter %d after reopen; %s was handed out", next, FormatRef(slices.Max(all)))
			}
			mustResolve(t, b, before[0])
		})
	}
}

func TestUnwritableDir(t *testing.T) {
	// A state dir under a regular file can be neither created nor locked,
	// even by root.
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	a, err := Open(filepath.Join(blocker, "ledger"), testProfile)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	if err := a.LoadError(); !errors.Is(err, ErrNotLocked) {
		t.Fatalf("LoadError = %v, want ErrNotLocked", err)
	}
	r1, _ := a.Replace(1, []Observed{ob("d", 0, 1, "", "")})
	r2, _ := a.Merge(1, []Observed{ob("d", 0, 2, "", "")})
	if r1[0] == r2[0] {
		t.Fatal("a number was handed out twice")
	}
	if err := a.Save(); !errors.Is(err, ErrNotLocked) {
		t.Fatalf("Save = %v, want ErrNotLocked", err)
	}
	mustResolve(t, a, r1[0])
}

// crashEnv names the ledger dir for the child of TestKilledMidWrite.
const crashEnv = "GRIP_REFCACHE_CRASH_DIR"

// TestKilledMidWrite kills a host at random moments while it hands out
// refs and saves; the ledger must load afterwards with a counter above
// every ref the host printed.
func TestKilledMidWrite(t *testing.T) {
	if dir := os.Getenv(crashEnv); dir != "" {
		crashChild(dir)
		return
	}
	if testing.Short() {
		t.Skip("starts child processes")
	}
	dir := t.TempDir()
	var top uint64
	for round := range 4 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestKilledMidWrite$", "-test.count=1")
		cmd.Env = append(os.Environ(), crashEnv+"="+dir)
		cmd.Stderr = os.Stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		printed := make(chan uint64)
		started := make(chan struct{})
		go func() {
			var max uint64
			sc := bufio.NewScanner(out)
			first := true
			for sc.Scan() {
				if first {
					close(started)
					first = false
				}
				if n, err := strconv.ParseUint(strings.TrimPrefix(sc.Text(), "ref "), 10, 64); err == nil && n > max {
					max = n
				}
			}
			if first {
				close(started)
			}
			printed <- max
		}()
		<-started
		time.Sleep(time.Duration(rand.IntN(200)) * time.Millisecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		max := <-printed
		cmd.Wait()
		if max == 0 {
			t.Fatalf("round %d: the child printed no ref", round)
		}
		top = max

		a := mustOpen(t, dir, Options{})
		if err := a.LoadError(); err != nil {
			t.Fatalf("round %d: LoadError after the kill: %v", round, err)
		}
		checkInvariants(t, a)
		live, inactive, next := a.Stats()
		t.Logf("round %d: child printed up to %s; reopened with %d live, %d inactive, next %s",
			round, FormatRef(top), live, inactive, FormatRef(next))
		if next <= top {
			t.Fatalf("round %d: counter %d, but the child printed %s", round, next, FormatRef(top))
		}
		mustClose(t, a)
	}
}

// crashChild hands out refs, printing each, and saves, until killed.
func crashChild(dir string) {
	a, err := OpenWith(dir, testProfile, Options{LockWait: 10 * time.Second})
	if err != nil {
		fmt.Fprintln(os.Stderr, "child:", err)
		os.Exit(3)
	}
	deadline := time.Now().Add(20 * time.Second)
	var buf bytes.Buffer
	for batch := 0; time.Now().Before(deadline); batch++ {
		doc := fmt.Sprintf("doc-%d-%d", os.Getpid(), batch)
		obs := make([]Observed, 97)
		for i := range obs {
			obs[i] = ob(doc, 0, i, "button", "b")
		}
		refs, _ := a.Replace(batch%5, obs)
		buf.Reset()
		for _, r := range refs {
			fmt.Fprintf(&buf, "ref %d\n", r)
		}
		os.Stdout.Write(buf.Bytes()) // handed out, printed, not yet saved
		if batch%7 == 0 {
			a.InvalidateDocuments(map[string]bool{doc: true})
		}
		if err := a.Save(); err != nil {
			fmt.Fprintln(os.Stderr, "child:", err)
		}
	}
	os.Exit(4)
}

// FuzzLoad feeds arbitrary bytes to the ledger decoder: it must never
// panic, and any state it accepts must hold together and survive a round
// trip.
func FuzzLoad(f *testing.F) {
	for _, tc := range ledgerCases {
		f.Add([]byte(tc.data))
	}
	a := New()
	a.Replace(1, []Observed{ob("d", 0, 1, "button", "A\x00\"\\"), ob("", 0, 1, "", ""), ob("\xff", 2, 3, "x", "\xfe")})
	a.Replace(2, []Observed{ob("e", 1, 1, "", "")})
	a.InvalidateTab(2)
	a.ledger = &ledger{profile: testProfile}
	f.Add(a.encodeLocked(nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		salvage(data, ledgerNumbers)
		salvage(data, hwmNumbers)
		salvage(data, anyNumbers)
		decodeHWM(data, testProfile)
		a := newAllocator()
		a.ledger = &ledger{profile: testProfile}
		a.mu.Lock()
		_, err := a.decodeLocked(data, testProfile)
		a.mu.Unlock()
		if err != nil {
			return
		}
		checkInvariants(t, a)
		a.mu.Lock()
		again := a.encodeLocked(nil)
		a.mu.Unlock()
		b := newAllocator()
		b.ledger = a.ledger
		b.mu.Lock()
		_, err = b.decodeLocked(again, testProfile)
		b.mu.Unlock()
		if err != nil {
			t.Fatalf("re-encoded ledger refused: %v\n%s", err, again)
		}
		checkInvariants(t, b)
		if b.next != a.next || len(b.slots) != len(a.slots)-a.holes || b.live != a.live || b.inactive != a.inactive {
			t.Fatalf("round trip changed the table: next %d/%d, slots %d/%d", a.next, b.next, len(a.slots)-a.holes, len(b.slots))
		}
		kept := slices.DeleteFunc(slices.Clone(a.slots), func(s slot) bool { return s.trimmed })
		for i := range kept {
			if x, y := kept[i], b.slots[i]; x.ref != y.ref || x.sig != y.sig || x.seq != y.seq || x.active != y.active || x.tab != y.tab {
				t.Fatalf("round trip changed entry %d: %+v, then %+v", i, x, y)
			}
		}
		// Were this ledger damaged, the lenient scan would still see its
		// counter.
		if floor := salvage(again, ledgerNumbers); floor < min(a.next, MaxRef) {
			t.Fatalf("salvage found %d in a ledger with counter %d", floor, a.next)
		}
	})
}
