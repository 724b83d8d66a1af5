package frames

import (
	"strconv"
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
}

// AfterHint is the hint of the error Render returns for an After ref that
// is not in the snapshot.
const AfterHint = "take a new snapshot and page with the ref from its trailer"

// Render writes the snapshot text of one tab (DESIGN §4) and fills the
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

	// The page starts at element startEl of frame startFrame.
	startFrame, startEl := 0, 0
	if opt.After != "" {
		fi, ei, ok := find(answered, opt.After)
		if !ok {
			return protocol.Snapshot{}, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
				AfterHint, "--after %s: no element with that ref in this snapshot", clip(opt.After))
		}
		startFrame, startEl = fi, ei+1
	}

	// view lists the frames this page may print, each from its first
	// element on this page (lo).
	type viewFrame struct {
		f  *protocol.Frame
		lo int
	}
	view := make([]viewFrame, 0, len(answered)-startFrame)
	total := 0
	for i := startFrame; i < len(answered); i++ {
		lo := 0
		if i == startFrame {
			lo = startEl
		}
		n := len(answered[i].Elements) - lo
		if opt.After != "" && n <= 0 {
			continue
		}
		view = append(view, viewFrame{&answered[i], lo})
		total += n
	}

	var closing string
	if n := len(skipped); n == 1 {
		closing = "(1 frame did not answer)"
	} else if n > 1 {
		closing = "(" + strconv.Itoa(n) + " frames did not answer)"
	}
	closingCost := Cost(closing)

	// Headers of the empty frames after the last element are printed with
	// that element, so accepting it reserves room for them.
	lastFull := -1
	for i, v := range view {
		if len(v.f.Elements) > v.lo {
			lastFull = i
		}
	}
	tailCost := 0
	for _, v := range view[lastFull+1:] {
		tailCost += frameHeaderCost(v.f)
	}

	buf := make([]byte, 0, estimate(budget, total))
	buf = appendTabHeader(buf, tab)
	headerCost := costBytes(buf)
	buf = append(buf, '\n')

	out := make([]protocol.Frame, 0, len(view))
	cur := cursor{used: headerCost, remaining: total}
	// When the next element fits but not with a trailer after it, the page
	// may still end without a trailer: the rest is tried against the
	// budget from saved, and dropped again if it does not fit.
	var saved cursor
	trying, saveAfter := false, false
	stopped := false
frames:
	for vi, v := range view {
		for ei := v.lo; ei < len(v.f.Elements); ei++ {
			e := &v.f.Elements[ei]
			mark := cur.at(buf, out)
			cost := 0
			for h := cur.nextHeader; h <= vi; h++ {
				s := len(buf)
				buf = appendFrameHeader(buf, view[h].f)
				cost += costBytes(buf[s:])
				buf = append(buf, '\n')
			}
			s := len(buf)
			buf = appendLine(buf, e)
			cost += costBytes(buf[s:])
			buf = append(buf, '\n')

			// Without a trailer: the closing line, and with the last
			// element the headers of the empty frames after it.
			end := closingCost
			if cur.remaining == 1 {
				end += tailCost
			}
			fits := cur.used+cost+end <= budget
			if !trying && cur.remaining > 1 && cur.used+cost+closingCost+trailerCost(cur.remaining-1, e.Ref) > budget {
				switch {
				case !fits:
				case cur.shown > 0:
					trying, saved = true, mark
				default:
					// The first element is shown anyway: the try
					// starts after it.
					trying, saveAfter = true, true
				}
			}
			if !fits && cur.shown > 0 {
				if trying {
					mark = saved
				}
				buf = buf[:mark.bufLen]
				out = out[:mark.outLen]
				if len(out) > 0 {
					out[len(out)-1].Elements = mark.lastElems
				}
				cur = mark
				stopped = true
				break frames
			}
			for h := cur.nextHeader; h <= vi; h++ {
				out = append(out, frameOf(view[h].f, view[h].lo))
			}
			cur.nextHeader = vi + 1
			out[len(out)-1].Elements = v.f.Elements[v.lo : ei+1]
			cur.used += cost
			cur.shown++
			cur.remaining--
			cur.last = e.Ref
			if saveAfter {
				saveAfter = false
				saved = cur.at(buf, out)
			}
		}
	}
	used, remaining, last, nextHeader := cur.used, cur.remaining, cur.last, cur.nextHeader
	if !stopped {
		// Only frames without elements are left; their headers were
		// reserved with the last element.
		for _, v := range view[nextHeader:] {
			s := len(buf)
			buf = appendFrameHeader(buf, v.f)
			used += costBytes(buf[s:])
			buf = append(buf, '\n')
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
		s := len(buf)
		buf = appendTrailer(buf, remaining, last)
		used += costBytes(buf[s:])
		buf = append(buf, '\n')
		snap.Next = last
	}
	if closing != "" {
		buf = append(buf, closing...)
		buf = append(buf, '\n')
		used += closingCost
	}
	snap.Tokens = used
	snap.Text = string(buf)
	return snap, nil
}

// cursor is how far a page has got: what is written and shown so far.
type cursor struct {
	bufLen, used, shown, remaining, nextHeader, outLen int
	last                                               string             // ref of the last element shown
	lastElems                                          []protocol.Element // Elements of out[outLen-1]
}

// at is c with the lengths of buf and out it goes with, to roll back to.
func (c cursor) at(buf []byte, out []protocol.Frame) cursor {
	c.bufLen, c.outLen, c.lastElems = len(buf), len(out), nil
	if len(out) > 0 {
		c.lastElems = out[len(out)-1].Elements
	}
	return c
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

// appendTabHeader appends "Tab ID · TITLE · URL"; an empty title or URL is
// left out with its separator.
func appendTabHeader(dst []byte, tab protocol.TabRef) []byte {
	dst = append(dst, "Tab "...)
	dst = strconv.AppendInt(dst, int64(tab.ID), 10)
	if hasText(tab.Title) {
		dst = append(dst, " · "...)
		dst = appendFolded(dst, tab.Title, MaxName, false)
	}
	if hasText(tab.URL) {
		dst = append(dst, " · "...)
		dst = appendFolded(dst, tab.URL, MaxURL, false)
	}
	return dst
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

// The trailer: "… N more elements omitted (grip snapshot --after @eK)".
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
