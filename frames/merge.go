// Package frames turns the per-frame answers of one tab into the snapshot an
// agent reads (docs/snapshot.md, "Snapshot format"): Merge orders the frames and sets aside those that
// did not answer, Render writes the text under a token budget and fills the
// matching protocol.Snapshot, Line writes one element.
//
// Rendering is deterministic: the same input gives byte-identical text.
package frames

import (
	"cmp"
	"slices"
	"strings"

	"github.com/grip-dev/grip/protocol"
)

// FrameResult is what the extension returned for one frame of a tab, with
// refs already assigned by the host.
type FrameResult struct {
	FrameID    int
	DocumentID string
	URL        string
	Elements   []protocol.Element
	// Err is non-empty when the frame did not answer, and says why
	// (navigated mid-injection, not permitted, …).
	Err string
}

// ReasonBlank is the SkippedFrame reason of a frame that answered but is
// blank: about:blank or no URL, and no elements.
const ReasonBlank = "blank frame"

// ReasonBlocked is the SkippedFrame reason of a frame the person's policy
// blocks: the host leaves out its content before any ref is given.
const ReasonBlocked = "blocked by policy"

// ReasonNavigated is the SkippedFrame reason of a frame whose document
// was replaced while it was read: what it showed is gone.
const ReasonNavigated = "navigated during the snapshot"

// Unread reports whether a frame that did not answer may still show what
// it showed at the last read: it was busy, loading or held, not blocked,
// blank or replaced. Its refs are neither gone nor new.
func Unread(err string) bool {
	return err != "" && err != ReasonBlank && err != ReasonBlocked && err != ReasonNavigated
}

// Merge sorts results by frame id, top frame (0) first, and splits them into
// frames that answered and frames that did not. A frame with Err set, or a
// blank one (about:blank or empty URL, and no elements), is skipped with its
// reason; a top frame is no exception. Answered frames keep their element
// order and share the Elements slices of results. Frames with equal ids keep
// their input order.
func Merge(results []FrameResult) (answered []protocol.Frame, skipped []protocol.SkippedFrame) {
	sorted := slices.Clone(results)
	slices.SortStableFunc(sorted, func(a, b FrameResult) int { return cmp.Compare(a.FrameID, b.FrameID) })
	for _, r := range sorted {
		switch {
		case r.Err != "":
			reason := strings.TrimSpace(r.Err)
			if reason == "" {
				reason = "no answer"
			}
			skipped = append(skipped, protocol.SkippedFrame{FrameID: r.FrameID, Reason: reason})
		case len(r.Elements) == 0 && (r.URL == "" || r.URL == "about:blank"):
			skipped = append(skipped, protocol.SkippedFrame{FrameID: r.FrameID, Reason: ReasonBlank})
		default:
			answered = append(answered, protocol.Frame{
				FrameID:    r.FrameID,
				DocumentID: r.DocumentID,
				URL:        r.URL,
				Elements:   r.Elements,
			})
		}
	}
	return answered, skipped
}
