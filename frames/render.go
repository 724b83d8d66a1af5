package frames

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/grip-dev/grip/protocol"
)

// Options shape one rendering of a snapshot.
type Options struct {
	// Budget is the token allowance; 0 means protocol.DefaultBudget.
	Budget int
	// After is "" or a ref "@eK" of this snapshot: the page starts with the
	// element after it, as the trailer of the previous page says.
	After string
	// ReadOn is what the trailer's command adds after the ref so that it
	// reads on exactly this view: " --mode content --tab 5" ("" for an
	// interactive snapshot of the default tab).
	ReadOn string
	// Since is set when the text goes to a reader that leaves out the
	// header lines it has (SnapshotTextSince; the MCP server), with the
	// tab that reader was last told of (a zero TabRef: none). Those lines
	// are still written but cost nothing against the budget, so the
	// reader gets the budget's worth of lines it does read.
	Since *protocol.TabRef
}

// AfterHint is the hint of the error Render returns for an After ref that
// is not in the snapshot.
const AfterHint = "take a new snapshot and page with the ref from its trailer"

// Render writes the snapshot text of one tab (docs/snapshot.md,
// "Snapshot format") and fills the
// matching protocol.Snapshot. answered and skipped are what Merge returns.
//
// Every printed line costs Cost(line) tokens. Lines are kept in order while
// the next element line (with the frame headers it needs), the trailer and
// the closing line still fit the budget, or while everything left fits
// without a trailer; then the trailer
//
//	… N more elements omitted (grip snapshot --after @eK)
//
// ("1 more element" for one) names the last element shown and counts
// everything left in all frames; Omitted and Next say the same.
// The closing line "(N frames did not answer)" is printed whenever skipped
// is not empty. Two lines are printed whatever the budget, so that a page
// always says where it is and paging always moves forward: the tab header,
// and the first element of the page (with its frame headers). Tokens can
// then exceed Budget.
//
// A frame header is printed just before the first element of that frame
// that is shown, so a frame whose elements were all cut is not printed.
// Without After, frames with no elements are printed too (as a header
// alone), where they fall in frame order. With After, every element up to
// and including that ref, in merged order, is skipped and only frames that
// show elements are printed; an After ref not in answered is refused with a
// *protocol.Error (CodeBadRequest).
//
// Snapshot.Frames lists exactly the printed frames with exactly the printed
// elements, so the text and the JSON agree; its Elements slices share
// memory with answered. Epoch is left for the caller.
func Render(tab protocol.TabRef, answered []protocol.Frame, skipped []protocol.SkippedFrame, opt Options) (protocol.Snapshot, error) {
	budget := opt.Budget
	if budget == 0 {
		budget = protocol.DefaultBudget
	}
	if budget < 0 {
		return protocol.Snapshot{}, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"give a positive budget, or 0 for the default", "snapshot budget %d is negative", budget)
	}

	view, err := pageView(answered, opt.After)
	if err != nil {
		return protocol.Snapshot{}, err
	}
	closing := closingLine(skipped)
	closingCost := Cost(closing)

	// Measure: write the element lines in order, each with the headers of
	// the frames it opens, keeping where each ends and the running total
	// of tokens. Past the budget no later cut can fit, so measuring stops.
	buf := make([]byte, 0, estimate(budget, view.total))
	buf = appendTabHeader(buf, tab)
	used := costBytes(buf)
	if opt.Since != nil && *opt.Since == tab {
		used = Cost(KnownTabLine(tab)) // the reader reads it short: it has the URL
	}
	buf = append(buf, '\n')
	headerEnd, headerCost := len(buf), used
	// The top frame's line, which a reader with Since leaves out while no
	// other frame's line follows it, is charged only once one does.
	topFree := opt.Since != nil && len(view.frames) > 0 && view.frames[0].f.FrameID == 0 && view.frames[0].f.URL == tab.URL
	pendingTop := 0
	header := func(vi int) int {
		c := appendLineCost(&buf, func(b []byte) []byte { return appendFrameHeader(b, view.frames[vi].f) })
		if vi == 0 && topFree {
			pendingTop = c
			return 0
		}
		c += pendingTop
		pendingTop = 0
		return c
	}
	type measured struct {
		end, used int // len(buf) and tokens through this element's line
		at        int // its frame's index in view.frames
		ref       string
	}
	lines := make([]measured, 0, min(view.total, budget))
	nextHeader := 0
	links := linkCtx{shared: sharedLinkNames(answered)}
measure:
	for vi, v := range view.frames {
		links.base = v.f.URL
		for ei := v.lo; ei < len(v.f.Elements); ei++ {
			if len(lines) > 0 && used+closingCost > budget {
				break measure
			}
			for ; nextHeader <= vi; nextHeader++ {
				used += header(nextHeader)
			}
			e := &v.f.Elements[ei]
			used += appendLineCost(&buf, func(b []byte) []byte { return appendLine(b, e, &links) })
			lines = append(lines, measured{end: len(buf), used: used, at: vi, ref: e.Ref})
		}
	}

	// Cut: everything when it all fits without a trailer (the headers of
	// the empty frames after the last element included); else the longest
	// run of elements that each fit with a trailer after them; the first
	// element always, so that paging moves forward.
	shown := len(lines)
	tail := view.frames[view.lastFull+1:]
	measuredTop := pendingTop // the top line still uncharged after the last element
	tailTokens := tailCost(tail)
	if len(tail) > 0 && view.lastFull+1 > 0 {
		tailTokens += measuredTop // another frame's line follows the top one
	}
	if shown < view.total || used+tailTokens+closingCost > budget {
		shown = min(1, view.total)
		for n := 2; n < view.total && n <= len(lines); n++ {
			if lines[n-1].used+trailerCost(view.total-n, lines[n-1].ref+opt.ReadOn)+closingCost > budget {
				break
			}
			shown = n
		}
	}

	// Write: keep the measured text up to the cut, then the tail headers,
	// the trailer and the closing line.
	buf, used = buf[:headerEnd], headerCost
	out := make([]protocol.Frame, 0, len(view.frames))
	if shown > 0 {
		last := lines[shown-1]
		buf, used = buf[:last.end], last.used
		for vi := 0; vi <= last.at; vi++ {
			out = append(out, frameOf(view.frames[vi].f, view.frames[vi].lo))
		}
		for _, l := range lines[:shown] {
			f, lo := &out[l.at], view.frames[l.at].lo
			f.Elements = view.frames[l.at].f.Elements[lo : lo+len(f.Elements)+1]
		}
	}
	remaining := view.total - shown
	if remaining == 0 {
		if shown > 0 {
			pendingTop = measuredTop
		}
		for i, v := range tail {
			used += header(view.lastFull + 1 + i)
			out = append(out, frameOf(v.f, v.lo))
		}
	}
	snap := protocol.Snapshot{
		Tab:           tab,
		Frames:        out,
		SkippedFrames: skipped,
		Budget:        budget,
		Omitted:       remaining,
	}
	if snap.SkippedFrames == nil {
		snap.SkippedFrames = []protocol.SkippedFrame{}
	}
	if remaining > 0 {
		snap.Next = lines[shown-1].ref
		used += appendLineCost(&buf, func(b []byte) []byte { return appendTrailer(b, remaining, snap.Next+opt.ReadOn) })
	}
	if closing != "" {
		buf = append(append(buf, closing...), '\n')
		used += closingCost
	}
	snap.Tokens = used
	snap.Text = string(buf)
	return snap, nil
}

// view is what one page may print: the frames from the page's first
// element on, each from its first element on this page (lo).
type view struct {
	frames   []viewFrame
	total    int // elements left in all of them
	lastFull int // index of the last frame with elements, or -1
}

type viewFrame struct {
	f  *protocol.Frame
	lo int
}

// pageView starts the page after the element named by after ("" for the
// first page). With after, frames that have nothing left are left out.
func pageView(answered []protocol.Frame, after string) (view, error) {
	startFrame, startEl := 0, 0
	if after != "" {
		fi, ei, ok := find(answered, after)
		if !ok {
			return view{}, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
				AfterHint, "reading on after %s: no element with that ref in this snapshot", clip(after))
		}
		startFrame, startEl = fi, ei+1
	}
	v := view{frames: make([]viewFrame, 0, len(answered)-startFrame), lastFull: -1}
	for i := startFrame; i < len(answered); i++ {
		lo := 0
		if i == startFrame {
			lo = startEl
		}
		n := len(answered[i].Elements) - lo
		if after != "" && n <= 0 {
			continue
		}
		if n > 0 {
			v.lastFull = len(v.frames)
		}
		v.frames = append(v.frames, viewFrame{&answered[i], lo})
		v.total += n
	}
	return v, nil
}

// appendLineCost appends one line, written by write, and its newline to
// *buf, and returns the line's cost.
func appendLineCost(buf *[]byte, write func([]byte) []byte) int {
	s := len(*buf)
	*buf = write(*buf)
	cost := costBytes((*buf)[s:])
	*buf = append(*buf, '\n')
	return cost
}

// tailCost is the cost of the headers of the empty frames after the last
// element, which are printed with it.
func tailCost(tail []viewFrame) int {
	n := 0
	for _, v := range tail {
		n += frameHeaderCost(v.f)
	}
	return n
}

// find returns where the element with ref is: frame and element index.
func find(frames []protocol.Frame, ref string) (fi, ei int, ok bool) {
	for fi := range frames {
		for ei := range frames[fi].Elements {
			if frames[fi].Elements[ei].Ref == ref {
				return fi, ei, true
			}
		}
	}
	return 0, 0, false
}

// frameOf is f as Snapshot.Frames lists it before any element is shown.
func frameOf(f *protocol.Frame, lo int) protocol.Frame {
	c := *f
	c.Elements = f.Elements[lo:lo:lo]
	if c.Elements == nil {
		c.Elements = []protocol.Element{}
	}
	return c
}

// estimate is a starting capacity for the text: what the budget allows
// (3 runes a token, some of them multi-byte), or what the elements need,
// whichever is less.
func estimate(budget, elements int) int {
	n := elements*64 + 1024
	if b := budget*7/2 + 1024; b < n && budget < 1<<24 {
		n = b
	}
	return n
}

// appendTabHeader appends "Tab ID · 'TITLE' · URL"; an empty title or URL
// is left out with its separator. The title is the page's to choose, so it
// is quoted (Quote): it cannot pass for a separator and a URL.
func appendTabHeader(dst []byte, tab protocol.TabRef) []byte {
	dst = append(dst, "Tab "...)
	dst = strconv.AppendInt(dst, int64(tab.ID), 10)
	if hasText(tab.Title) {
		dst = append(dst, " · '"...)
		dst = appendFolded(dst, tab.Title, MaxName, true)
		dst = append(dst, '\'')
	}
	if hasText(tab.URL) {
		dst = append(dst, " · "...)
		dst = appendFolded(dst, tab.URL, MaxURL, false)
	}
	return dst
}

// KnownTabLine is the tab line for a reader who was last told of the tab
// as it is: "Tab ID · 'TITLE'", without the URL it has. The id stays,
// since a snapshot is what ties its refs to their tab, and the title,
// which says what page the reader is on in a few tokens; the URL was a
// fifth of a small page's snapshot (bench/RESULTS.md, "Tokens per task",
// mail-body).
func KnownTabLine(tab protocol.TabRef) string {
	return string(appendTabHeader(nil, protocol.TabRef{ID: tab.ID, Title: tab.Title}))
}

// appendFrameHeader appends "=== Frame: 0 (Top: URL) ===" for the top
// frame and "=== Frame: N (URL) ===" for the others.
func appendFrameHeader(dst []byte, f *protocol.Frame) []byte {
	dst = append(dst, "=== Frame: "...)
	dst = strconv.AppendInt(dst, int64(f.FrameID), 10)
	dst = append(dst, " ("...)
	if f.FrameID == 0 {
		dst = append(dst, "Top: "...)
	}
	dst = appendFolded(dst, f.URL, MaxURL, false)
	return append(dst, ") ==="...)
}

func frameHeaderCost(f *protocol.Frame) int {
	var scratch [128]byte
	return costBytes(appendFrameHeader(scratch[:0], f))
}

// The trailer: "… N more elements omitted (grip snapshot --after @eK)",
// with the tab after the ref when it is not the default one.
const (
	trailerHead = "… "
	trailerMany = " more elements omitted (grip snapshot --after "
	trailerOne  = " more element omitted (grip snapshot --after "
	trailerTail = ")"
)

func appendTrailer(dst []byte, n int, ref string) []byte {
	dst = append(dst, trailerHead...)
	dst = strconv.AppendInt(dst, int64(n), 10)
	if n == 1 {
		dst = append(dst, trailerOne...)
	} else {
		dst = append(dst, trailerMany...)
	}
	dst = append(dst, ref...)
	return append(dst, trailerTail...)
}

var (
	trailerOneRunes  = utf8.RuneCountInString(trailerHead + trailerOne + trailerTail)
	trailerManyRunes = utf8.RuneCountInString(trailerHead + trailerMany + trailerTail)
)

// trailerCost is Cost(the trailer for n elements after ref), without
// building it.
func trailerCost(n int, ref string) int {
	runes := trailerManyRunes
	if n == 1 {
		runes = trailerOneRunes
	}
	for ; n > 0; n /= 10 {
		runes++
	}
	runes += utf8.RuneCountInString(ref)
	return (runes + 2) / 3
}

// clip keeps an echoed argument short in an error message.
func clip(s string) string {
	if len(s) > 40 {
		return strconv.Quote(s[:40]) + "…"
	}
	return strconv.Quote(s)
}

// closingLine counts the skipped frames: "(2 frames did not answer)",
// and apart from them the frames the person's policy blocks: "(1 frame
// did not answer, 1 blocked by policy)".
func closingLine(skipped []protocol.SkippedFrame) string {
	blocked := 0
	for _, s := range skipped {
		if s.Reason == ReasonBlocked {
			blocked++
		}
	}
	var parts []string
	switch n := len(skipped) - blocked; {
	case n == 1:
		parts = append(parts, "1 frame did not answer")
	case n > 1:
		parts = append(parts, strconv.Itoa(n)+" frames did not answer")
	}
	switch {
	case blocked > 0 && len(parts) > 0:
		parts = append(parts, strconv.Itoa(blocked)+" blocked by policy")
	case blocked == 1:
		parts = append(parts, "1 frame blocked by policy")
	case blocked > 1:
		parts = append(parts, strconv.Itoa(blocked)+" frames blocked by policy")
	}
	if len(parts) == 0 {
		return ""
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
