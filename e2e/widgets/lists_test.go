package widgets_test

import (
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/grip-dev/grip/internal/apptest"
)

// Long, virtualized lists (docs/long-lists.md, "Long lists"): grip find
// brings a row into view by what it says, scrolling the list step by step,
// and replies with that row rather than every row passed on the way; a
// scroll of such a list says where it stands instead of listing its rows.

// elementLines counts the element lines of text with role.
func elementLines(text, role string) int {
	n := 0
	for _, e := range apptest.Elements(text) {
		if e.Role == role {
			n++
		}
	}
	return n
}

// TanStack Virtual (@tanstack/virtual-core) renders 22 of 2,000 orders,
// as options that declare their place. The task: choose ORD-1500.
func TestTanStackVirtualFindsAnOrderAndChoosesIt(t *testing.T) {
	a := suite.Open(t, "/testdata/tanstack.html")
	snap := a.Until("listbox", "Orders")
	list := a.Find(snap, "listbox", "Orders")
	if _, ok := apptest.Lookup(snap, "option", "ORD-1500"); ok {
		t.Fatalf("ORD-1500 is rendered before any scroll; the test proves nothing:\n%s", snap)
	}
	before := a.Tokens()
	out := a.Must("find", "ORD-1500", "--in", list.Ref)
	if cost := a.Tokens() - before; cost > 150 {
		t.Errorf("find's reply cost %d tokens, want it to name the row found, not the rows passed:\n%s", cost, out)
	}
	found, ok := apptest.Lookup(out, "option", "ORD-1500")
	if !ok || !strings.Contains(out, "found:\n") {
		t.Fatalf("find's reply does not name the option found:\n%s", out)
	}
	if n := elementLines(out, "option"); n != 1 {
		t.Errorf("find's reply lists %d options, want only the one found:\n%s", n, out)
	}
	if !strings.Contains(out, "list "+list.Ref+": options ") || !strings.Contains(out, " of 2,000 in view") {
		t.Errorf("find's reply does not say where the list stands:\n%s", out)
	}
	// The component's own state: the order found is in its visible range.
	if got := apptest.Eval[bool](a, "(r => r.startIndex <= 1499 && 1499 <= r.endIndex)(virtualizer.range)"); !got {
		t.Errorf("TanStack's range %v does not hold ORD-1500 (index 1499)", apptest.Eval[any](a, "virtualizer.range"))
	}
	a.Must("click", found.Ref)
	if got := apptest.Eval[string](a, "window.chosen"); got != "ORD-1500" {
		t.Fatalf("the page chose %q, want ORD-1500", got)
	}

	// A scroll of the list says which options it shows of how many,
	// from the options' aria-posinset and aria-setsize, and lists none.
	out = a.Must("scroll", list.Ref)
	if n := elementLines(out, "option"); n != 0 {
		t.Errorf("scroll's reply lists %d options, want them counted:\n%s", n, out)
	}
	first, last := apptest.Eval[int](a, "virtualizer.range.startIndex + 1"), apptest.Eval[int](a, "virtualizer.range.endIndex + 1")
	want := "list " + list.Ref + ": options " + count(first) + "–" + count(last) + " of 2,000 in view"
	if !strings.Contains(out, want) {
		t.Errorf("scroll's reply does not say %q (TanStack's range):\n%s", want, out)
	}
	if !strings.Contains(out, "appeared") || !strings.Contains(out, "grip find TEXT --in "+list.Ref) {
		t.Errorf("scroll's reply does not count what appeared or say how to find a row:\n%s", out)
	}

	// A row that is not there: refused, saying how far the find scrolled.
	res, code := a.Run("find", "--in", list.Ref, "ORD-9999")
	if code != 1 || !strings.Contains(res, "not_found") || !strings.Contains(res, "then from the top") || !strings.Contains(res, " steps") {
		t.Errorf("find of a missing order: exit %d\n%s", code, res)
	}
}

// Clusterize.js renders clusters of rows of a 5,000-row table between
// spacer rows, and declares no places. The task: open invoice INV-03456,
// finding it on the page (no list named: the one that scrolls).
func TestClusterizeFindsAnInvoiceAndOpensIt(t *testing.T) {
	a := suite.Open(t, "/testdata/clusterize.html")
	snap := a.Until("button", "Open")
	if strings.Contains(snap, "INV-03456") {
		t.Fatalf("INV-03456 is rendered before any scroll; the test proves nothing")
	}
	out := a.Must("find", "INV-03456")
	open, ok := apptest.Lookup(out, "button", "Open")
	if !ok || !strings.Contains(out, "INV-03456") {
		t.Fatalf("find's reply does not name the row's button:\n%s", out)
	}
	if n := elementLines(out, "button"); n != 1 {
		t.Errorf("find's reply lists %d buttons, want the found row's only:\n%s", n, out)
	}
	// Counted from the rows' heights: about where the row is, of about
	// how many.
	m := regexp.MustCompile(`list: rows about ([0-9,]+)–([0-9,]+) of about ([0-9,]+) in view`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("find's reply does not say, counted, where the list stands:\n%s", out)
	}
	num := func(s string) int { n, _ := strconv.Atoi(strings.ReplaceAll(s, ",", "")); return n }
	if lo, hi, total := num(m[1]), num(m[2]), num(m[3]); lo-20 > 3456 || hi+20 < 3456 || total < 4900 || total > 5100 {
		t.Errorf("the reply places the rows in view at %d–%d of %d, want about 3,456 of 5,000:\n%s", lo, hi, total, out)
	}
	a.Must("click", open.Ref)
	if got := apptest.Eval[string](a, "window.opened"); got != "INV-03456" {
		t.Fatalf("the page opened %q, want INV-03456", got)
	}
	if got := apptest.Eval[int](a, "clusterize.getRowsAmount()"); got != 5000 {
		t.Errorf("Clusterize holds %d rows, want 5000", got)
	}
}

// count writes n as the replies do: 1,500.
func count(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// A recorded find is a step of the workflow: replayed on a fresh page,
// the find brings the row into view again, so the click recorded after it
// finds its option (without it, the row is not rendered and the click
// would diverge).
func TestTanStackFindIsRecordedAndReplayed(t *testing.T) {
	a := suite.Open(t, "/testdata/tanstack.html")
	list := a.Find(a.Until("listbox", "Orders"), "listbox", "Orders")
	file := t.TempDir() + "/choose.grip"
	a.Must("record", "start", file)
	found, ok := apptest.Lookup(a.Must("find", "ORD-0250", "--in", list.Ref), "option", "ORD-0250")
	if !ok {
		t.Fatal("find did not name ORD-0250")
	}
	a.Must("click", found.Ref)
	a.Must("record", "stop")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "find listbox 'Orders' with 'ORD-0250'") {
		t.Fatalf("the workflow does not keep the find:\n%s", b)
	}
	fresh := suite.Open(t, "/testdata/tanstack.html?replay")
	fresh.Until("listbox", "Orders")
	fresh.Must("replay", file, "--tab", fresh.Tab)
	if got := apptest.Eval[string](fresh, "window.chosen"); got != "ORD-0250" {
		t.Fatalf("after the replay the page chose %q, want ORD-0250\n%s", got, b)
	}
}
