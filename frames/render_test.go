package frames

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/grip-dev/grip/protocol"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// designText is the example of docs/snapshot.md's "Snapshot format",
// with the closing line.
const designText = `Tab 412 · 'Checkout — Shop' · https://shop.example/checkout
=== Frame: 0 (Top: https://shop.example/checkout) ===
@e1: [button 'Accept cookies']
@e3: [textbox 'Email' value='a@b.c' required]
@e4: [checkbox 'Remember me' checked]
@e5: [combobox 'Country' value='France']
=== Frame: 7 (https://pay.example.net/card) ===
@e7: [textbox 'Card number']
… 312 more elements omitted (grip snapshot --after @e7)
(2 frames did not answer)
`

var designTab = protocol.TabRef{ID: 412, Title: "Checkout — Shop", URL: "https://shop.example/checkout"}

// designResults are the frames behind designText, in the order Chrome
// might return them: top first, the rest unordered.
func designResults() []FrameResult {
	card := []protocol.Element{{Ref: "@e7", Role: "textbox", Name: "Card number"}}
	for i := 8; i < 8+312; i++ {
		card = append(card, protocol.Element{Ref: fmt.Sprintf("@e%d", i), Role: "button", Name: fmt.Sprintf("Pay %d", i)})
	}
	return []FrameResult{
		{FrameID: 0, DocumentID: "D0", URL: "https://shop.example/checkout", Elements: []protocol.Element{
			{Ref: "@e1", Role: "button", Name: "Accept cookies"},
			{Ref: "@e3", Role: "textbox", Name: "Email", Value: ptr("a@b.c"), States: []string{"required"}},
			{Ref: "@e4", Role: "checkbox", Name: "Remember me", States: []string{"checked"}},
			{Ref: "@e5", Role: "combobox", Name: "Country", Value: ptr("France")},
		}},
		{FrameID: 9, DocumentID: "D9", URL: "https://ads.example/x", Err: "Frame with ID 9 was removed."},
		{FrameID: 7, DocumentID: "D7", URL: "https://pay.example.net/card", Elements: card},
		{FrameID: 3, DocumentID: "D3", URL: "about:blank"},
	}
}

// budgetFor is the budget the lines of text cost exactly.
func budgetFor(text string) int {
	n := 0
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		n += Cost(l)
	}
	return n
}

func mustRender(tb testing.TB, tab protocol.TabRef, results []FrameResult, opt Options) protocol.Snapshot {
	tb.Helper()
	answered, skipped := Merge(results)
	snap, err := Render(tab, answered, skipped, opt)
	if err != nil {
		tb.Fatalf("Render: %v", err)
	}
	checkSnapshot(tb, snap, answered)
	return snap
}

// checkSnapshot checks what every snapshot must hold: Tokens is the sum of
// the line costs, Frames and the text list the same elements, Omitted and
// Next agree with the trailer.
func checkSnapshot(tb testing.TB, snap protocol.Snapshot, answered []protocol.Frame) {
	tb.Helper()
	if !strings.HasSuffix(snap.Text, "\n") {
		tb.Fatalf("text has no trailing newline: %q", snap.Text)
	}
	lines := strings.Split(strings.TrimSuffix(snap.Text, "\n"), "\n")
	if got := budgetFor(snap.Text); got != snap.Tokens {
		tb.Errorf("Tokens = %d, lines cost %d", snap.Tokens, got)
	}
	var want []string
	for _, f := range snap.Frames {
		want = append(want, string(appendFrameHeader(nil, &f)))
		for _, e := range f.Elements {
			want = append(want, Line(e))
		}
	}
	body := lines[1:]
	if n := len(snap.SkippedFrames); n > 0 {
		body = body[:len(body)-1]
	}
	if snap.Omitted > 0 {
		trailer := body[len(body)-1]
		body = body[:len(body)-1]
		if !strings.HasSuffix(trailer, "(grip snapshot --after "+snap.Next+")") ||
			!strings.HasPrefix(trailer, fmt.Sprintf("… %d more ", snap.Omitted)) {
			tb.Errorf("trailer %q does not match Omitted %d, Next %q", trailer, snap.Omitted, snap.Next)
		}
	} else if snap.Next != "" {
		tb.Errorf("Next = %q with nothing omitted", snap.Next)
	}
	if !slices.Equal(body, want) {
		tb.Errorf("text and Frames disagree:\ntext:\n%s\nframes:\n%s", strings.Join(body, "\n"), strings.Join(want, "\n"))
	}
}

func TestRenderDesignExample(t *testing.T) {
	snap := mustRender(t, designTab, designResults(), Options{Budget: budgetFor(designText)})
	if snap.Text != designText {
		t.Fatalf("text =\n%s\nwant\n%s", snap.Text, designText)
	}
	if snap.Omitted != 312 || snap.Next != "@e7" || snap.Tokens != snap.Budget {
		t.Errorf("Omitted, Next, Tokens, Budget = %d, %q, %d, %d", snap.Omitted, snap.Next, snap.Tokens, snap.Budget)
	}
	want := []protocol.SkippedFrame{{FrameID: 3, Reason: ReasonBlank}, {FrameID: 9, Reason: "Frame with ID 9 was removed."}}
	if !slices.Equal(snap.SkippedFrames, want) {
		t.Errorf("SkippedFrames = %v, want %v", snap.SkippedFrames, want)
	}
	// One token less and @e7 no longer fits with its trailer.
	snap = mustRender(t, designTab, designResults(), Options{Budget: budgetFor(designText) - 1})
	if snap.Next != "@e5" || snap.Omitted != 313 || snap.Tokens > snap.Budget {
		t.Errorf("budget-1: Next %q, Omitted %d, Tokens %d", snap.Next, snap.Omitted, snap.Tokens)
	}
}

func TestRenderGolden(t *testing.T) {
	twoFrames := func(n int) []FrameResult {
		var a, b []protocol.Element
		for i := 1; i <= n; i++ {
			e := protocol.Element{Ref: fmt.Sprintf("@e%d", i), Role: "link", Name: fmt.Sprintf("Item %d", i)}
			if i <= n/2 {
				a = append(a, e)
			} else {
				b = append(b, e)
			}
		}
		return []FrameResult{
			{FrameID: 4, DocumentID: "D4", URL: "https://b.example/", Elements: b},
			{FrameID: 0, DocumentID: "D0", URL: "https://a.example/", Elements: a},
		}
	}
	tab := protocol.TabRef{ID: 7, Title: "Shop", URL: "https://a.example/"}
	tests := []struct {
		name    string
		tab     protocol.TabRef
		results []FrameResult
		opt     Options
	}{
		{"design", designTab, designResults(), Options{Budget: budgetFor(designText)}},
		{"design_default_budget", designTab, designResults(), Options{}},
		{"design_after_e7", designTab, designResults(), Options{Budget: 120, After: "@e7"}},
		{"design_after_e4", designTab, designResults(), Options{Budget: 60, After: "@e4"}},
		{"after_last", tab, twoFrames(6), Options{After: "@e6"}},
		{"after_frame_end", tab, twoFrames(6), Options{After: "@e3"}},
		{"all_fit", tab, twoFrames(6), Options{}},
		{"tiny_budget", designTab, designResults(), Options{Budget: 1}},
		{"tiny_budget_after", designTab, designResults(), Options{Budget: 1, After: "@e5"}},
		// The trailer costs less than the long last line: it is cut.
		{"one_left", tab, longLast(twoFrames(6)), Options{Budget: budgetFor("Tab 7 · 'Shop' · https://a.example/\n" +
			"=== Frame: 0 (Top: https://a.example/) ===\n@e1: [link 'Item 1']\n@e2: [link 'Item 2']\n@e3: [link 'Item 3']\n" +
			"=== Frame: 4 (https://b.example/) ===\n@e4: [link 'Item 4']\n@e5: [link 'Item 5']\n" +
			"… 1 more element omitted (grip snapshot --after @e5)\n")}},
		// The last line costs less than a trailer: the page ends
		// without one, though the trailer would not have fitted.
		{"short_last_fits", tab, twoFrames(6), Options{Budget: budgetFor("Tab 7 · 'Shop' · https://a.example/\n" +
			"=== Frame: 0 (Top: https://a.example/) ===\n@e1: [link 'Item 1']\n@e2: [link 'Item 2']\n@e3: [link 'Item 3']\n" +
			"=== Frame: 4 (https://b.example/) ===\n@e4: [link 'Item 4']\n@e5: [link 'Item 5']\n@e6: [link 'Item 6']\n")}},
		{"empty_frames", tab, []FrameResult{
			{FrameID: 0, DocumentID: "D0", URL: "https://a.example/"},
			{FrameID: 2, DocumentID: "D2", URL: "https://b.example/", Elements: []protocol.Element{{Ref: "@e1", Role: "button", Name: "Go"}}},
			{FrameID: 5, DocumentID: "D5", URL: "about:srcdoc"},
			{FrameID: 6, DocumentID: "D6", URL: "about:blank"},
			{FrameID: 8, DocumentID: "D8", URL: "https://c.example/", Err: "Cannot access contents of the page."},
		}, Options{}},
		{"no_elements", protocol.TabRef{ID: 1, URL: "about:blank"}, []FrameResult{{FrameID: 0, URL: "about:blank"}}, Options{}},
		{"no_frames", protocol.TabRef{ID: 1, Title: "New Tab"}, nil, Options{}},
		{"escaping", protocol.TabRef{ID: 3, Title: "  Line\none\ttwo  " + strings.Repeat("long ", 30), URL: "https://x.example/a b"},
			[]FrameResult{{FrameID: 0, URL: "https://x.example/a\nb", Elements: []protocol.Element{
				{Ref: "@e1", Role: "textbox", Name: "O'Brien \\ Sons", Value: ptr("it's\n\"quoted\"")},
				{Ref: "@e2", Role: "button", States: []string{"disabled"}},
				{Ref: "@e3", Role: "link", Name: strings.Repeat("Ω", 120)},
				{Ref: "@e4", Role: "textbox", Name: "Password", Value: ptr("")},
			}}}, Options{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			snap := mustRender(t, tt.tab, tt.results, tt.opt)
			if snap.Omitted > 0 && snap.Tokens > snap.Budget && len(flatten(snap.Frames)) > 1 {
				t.Errorf("Tokens %d > Budget %d with more than the forced element shown", snap.Tokens, snap.Budget)
			}
			golden(t, tt.name+".golden", []byte(snap.Text))
			if tt.name == "design" || tt.name == "empty_frames" {
				js, err := json.MarshalIndent(snap, "", "  ")
				if err != nil {
					t.Fatal(err)
				}
				golden(t, tt.name+".json.golden", append(js, '\n'))
			}
			again := mustRender(t, tt.tab, tt.results, tt.opt)
			if again.Text != snap.Text {
				t.Errorf("second rendering differs")
			}
		})
	}
}

// longLast gives the last element of results a long name.
func longLast(results []FrameResult) []FrameResult {
	els := results[0].Elements
	els[len(els)-1].Name = strings.Repeat("Long name ", 12)
	return results
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs (run go test -update if the change is intended)\ngot:\n%s\nwant:\n%s", path, got, want)
	}
}

func flatten(frames []protocol.Frame) []string {
	var refs []string
	for _, f := range frames {
		for _, e := range f.Elements {
			refs = append(refs, e.Ref)
		}
	}
	return refs
}

// bigResults builds n elements over frames frame ids (ids 0, 3, 6, …),
// given out in reverse order so Merge has to sort them.
func bigResults(n, frames int) []FrameResult {
	res := make([]FrameResult, frames)
	for i := range res {
		res[frames-1-i] = FrameResult{FrameID: 3 * i, DocumentID: fmt.Sprintf("D%d", i), URL: fmt.Sprintf("https://f%d.example/page", i)}
	}
	per := n / frames
	ref := 1
	for i := 0; i < n; i++ {
		fi := min(i/per, frames-1)
		f := &res[frames-1-fi]
		e := protocol.Element{Ref: fmt.Sprintf("@e%d", ref), Role: "link", Name: fmt.Sprintf("Result number %d — a longer name", i)}
		switch i % 4 {
		case 1:
			e.Role, e.Value, e.States = "textbox", ptr("some text"), []string{"required"}
		case 2:
			e.Role, e.States = "checkbox", []string{"checked"}
		}
		f.Elements = append(f.Elements, e)
		ref += 1 + i%3 // refs are not dense
	}
	return res
}

func TestPagingVisitsEveryElementOnce(t *testing.T) {
	results := bigResults(1000, 3)
	answered, _ := Merge(results)
	all := flatten(answered)
	for _, budget := range []int{1, 40, 97, 200, 1000} {
		t.Run(fmt.Sprint(budget), func(t *testing.T) {
			var seen []string
			after := ""
			for page := 0; ; page++ {
				if page > len(all) {
					t.Fatalf("paging does not end")
				}
				snap := mustRender(t, designTab, results, Options{Budget: budget, After: after})
				got := flatten(snap.Frames)
				if len(got) == 0 && snap.Omitted > 0 {
					t.Fatalf("page %d shows nothing but omits %d", page, snap.Omitted)
				}
				if len(got) > 1 && snap.Tokens > budget {
					t.Fatalf("page %d: Tokens %d > budget %d", page, snap.Tokens, budget)
				}
				seen = append(seen, got...)
				if snap.Omitted != len(all)-len(seen) {
					t.Fatalf("page %d: Omitted %d, want %d", page, snap.Omitted, len(all)-len(seen))
				}
				if snap.Omitted == 0 {
					break
				}
				after = snap.Next
			}
			if !slices.Equal(seen, all) {
				t.Fatalf("paging saw %d elements, want the %d in order", len(seen), len(all))
			}
		})
	}
}

// TestBudgetNeverExceeded renders at every budget around the interesting
// edges and checks the invariants.
func TestBudgetNeverExceeded(t *testing.T) {
	small := bigResults(40, 4)
	small[1].Elements = nil // an empty frame in the middle
	small = append(small, FrameResult{FrameID: 50, URL: "https://empty.example/"}, FrameResult{FrameID: 60, Err: "gone"})
	fixtures := map[string][]FrameResult{
		"design": designResults(),
		"small":  small,
		"long":   longLast(bigResults(10, 2)),
	}
	for name, results := range fixtures {
		full := mustRender(t, designTab, results, Options{Budget: 1 << 20})
		answered, _ := Merge(results)
		all := flatten(answered)
		for _, after := range []string{"", all[0], all[len(all)/2]} {
			prev := 0
			for budget := 1; budget <= full.Tokens+5; budget++ {
				snap := mustRender(t, designTab, results, Options{Budget: budget, After: after})
				shown := len(flatten(snap.Frames))
				if shown > 1 && snap.Tokens > budget {
					t.Fatalf("%s after %q budget %d: Tokens %d", name, after, budget, snap.Tokens)
				}
				if after == "" && budget >= full.Tokens && snap.Text != full.Text {
					t.Fatalf("%s: budget %d ≥ full cost %d but text differs", name, budget, full.Tokens)
				}
				if shown == 0 || shown < prev {
					t.Fatalf("%s after %q budget %d: %d shown, %d at budget-1", name, after, budget, shown, prev)
				}
				prev = shown
			}
		}
	}
}

func TestRenderEmptyFrameReservedAtEnd(t *testing.T) {
	results := []FrameResult{
		{FrameID: 0, URL: "https://a.example/", Elements: []protocol.Element{{Ref: "@e1", Role: "button", Name: "A"}, {Ref: "@e2", Role: "button", Name: "B"}}},
		{FrameID: 1, URL: "https://empty.example/"},
	}
	full := mustRender(t, designTab, results, Options{Budget: 1000})
	// With exactly enough for everything, the empty frame's header is
	// printed; one token less and @e2 gives way, not the header alone.
	if s := mustRender(t, designTab, results, Options{Budget: full.Tokens}); s.Text != full.Text {
		t.Fatalf("exact budget:\n%s", s.Text)
	}
	s := mustRender(t, designTab, results, Options{Budget: full.Tokens - 1})
	if s.Next != "@e1" || s.Omitted != 1 {
		t.Fatalf("budget-1: Next %q Omitted %d\n%s", s.Next, s.Omitted, s.Text)
	}
}

func TestRenderErrors(t *testing.T) {
	answered, skipped := Merge(designResults())
	for _, after := range []string{"@e2", "@e999", "e7", "@E7", " @e7"} {
		_, err := Render(designTab, answered, skipped, Options{After: after})
		var pe *protocol.Error
		if !errors.As(err, &pe) {
			t.Fatalf("After %q: err = %v, want *protocol.Error", after, err)
		}
		if pe.Code != protocol.CodeBadRequest || pe.Boundary != protocol.BoundaryPayload || pe.Hint != AfterHint ||
			!strings.Contains(pe.Message, "no element") {
			t.Errorf("After %q: %+v", after, pe)
		}
		if !errors.Is(err, protocol.ErrBadRequest) {
			t.Errorf("After %q: not errors.Is ErrBadRequest", after)
		}
	}
	if _, err := Render(designTab, answered, skipped, Options{Budget: -1}); !errors.Is(err, protocol.ErrBadRequest) {
		t.Errorf("negative budget: err = %v", err)
	}
}

func TestMerge(t *testing.T) {
	el := []protocol.Element{{Ref: "@e1", Role: "button"}}
	answered, skipped := Merge([]FrameResult{
		{FrameID: 12, URL: "https://c/", Elements: el},
		{FrameID: 5, URL: "about:blank"},
		{FrameID: 0, DocumentID: "top", URL: "https://a/"},
		{FrameID: 3, URL: "about:blank", Elements: el}, // written by script: kept
		{FrameID: 4, URL: "", Elements: el},
		{FrameID: 2, URL: "https://b/", Elements: el, Err: "No frame with id 2."},
		{FrameID: 1, URL: ""},
		{FrameID: 6, URL: "https://d/", Err: "  "},
	})
	var ids []int
	for _, f := range answered {
		ids = append(ids, f.FrameID)
	}
	if want := []int{0, 3, 4, 12}; !slices.Equal(ids, want) {
		t.Errorf("answered ids = %v, want %v", ids, want)
	}
	if answered[0].DocumentID != "top" || answered[0].Elements != nil {
		t.Errorf("top frame = %+v", answered[0])
	}
	want := []protocol.SkippedFrame{
		{FrameID: 1, Reason: ReasonBlank}, {FrameID: 2, Reason: "No frame with id 2."},
		{FrameID: 5, Reason: ReasonBlank}, {FrameID: 6, Reason: "no answer"},
	}
	if !slices.Equal(skipped, want) {
		t.Errorf("skipped = %v, want %v", skipped, want)
	}
	if a, s := Merge(nil); a != nil || s != nil {
		t.Errorf("Merge(nil) = %v, %v", a, s)
	}
}

func BenchmarkRender5000(b *testing.B) {
	answered, skipped := Merge(bigResults(5000, 10))
	skipped = append(skipped, protocol.SkippedFrame{FrameID: 99, Reason: "gone"})
	b.ReportAllocs()
	var snap protocol.Snapshot
	for b.Loop() {
		var err error
		snap, err = Render(designTab, answered, skipped, Options{})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(snap.Tokens), "tokens")
	b.ReportMetric(float64(len(snap.Text)), "bytes")
	b.ReportMetric(float64(len(flatten(snap.Frames))), "shown")
}

func TestClosingLineCountsBlockedFrames(t *testing.T) {
	for _, tc := range []struct {
		reasons []string
		want    string
	}{
		{nil, ""},
		{[]string{"blank frame"}, "(1 frame did not answer)"},
		{[]string{ReasonBlocked}, "(1 frame blocked by policy)"},
		{[]string{ReasonBlocked, ReasonBlocked}, "(2 frames blocked by policy)"},
		{[]string{"navigated", ReasonBlocked, "x"}, "(2 frames did not answer, 1 blocked by policy)"},
	} {
		var skipped []protocol.SkippedFrame
		for i, r := range tc.reasons {
			skipped = append(skipped, protocol.SkippedFrame{FrameID: i + 1, Reason: r})
		}
		if got := closingLine(skipped); got != tc.want {
			t.Errorf("closingLine(%v) = %q, want %q", tc.reasons, got, tc.want)
		}
	}
}
