package host

import (
	"context"

	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/refcache"
)

// The rule of each frame of a tab under the person's policy
// (docs/person.md, "The person's controls"): a cross-origin frame
// follows its own origin's rule, a frame with no origin of its own its
// parent's.

// tabRules are the rules of every frame of one tab.
type tabRules struct {
	top       policy.Decision
	topOrigin string
	topDoc    string
	byFrame   map[int]policy.Decision
	origins   map[int]string // each frame's origin, or its parent's
	byDoc     map[string]int // frame of each document
}

// frameRules asks the extension for tab's frames and decides each one's
// rule.
func (h *Host) frameRules(ctx context.Context, p *policy.Policy, tab int) (*tabRules, error) {
	var fr protocol.FramesReply
	if err := callExt(ctx, h, protocol.ExtFrames, protocol.TabParams{TabID: tab}, &fr); err != nil {
		return nil, err
	}
	tr := rulesOf(p, fr.Frames)
	h.judgeBlankTop(ctx, p, tab, fr.Frames, tr) // host/withhold.go
	return tr, nil
}

// rulesOf decides the rule of each frame: its own origin's, or for a frame
// with none of its own (about:blank, srcdoc, data:) its parent's; one
// whose parent is unknown (ParentFrameID -2) gets the strictest rule of
// the tab.
func rulesOf(p *policy.Policy, infos []protocol.FrameInfo) *tabRules {
	tr := &tabRules{byFrame: map[int]policy.Decision{}, origins: map[int]string{}, byDoc: map[string]int{}}
	byID := map[int]protocol.FrameInfo{}
	for _, f := range infos {
		byID[f.FrameID] = f
		if f.DocumentID != "" {
			tr.byDoc[f.DocumentID] = f.FrameID
		}
	}
	var orphans []int
	var decide func(id, depth int) (policy.Decision, string, bool)
	decide = func(id, depth int) (policy.Decision, string, bool) {
		f, ok := byID[id]
		if !ok || depth > len(infos) {
			return policy.Decision{}, "", false
		}
		if o, ok := policy.ParseOrigin(f.URL); ok {
			return p.DecideOrigin(o), o.String(), true
		}
		if id == 0 || f.ParentFrameID == -1 {
			if policy.Inherits(f.URL) {
				// A top-level blank page: its creator's rule, which
				// judgeBlankTop finds (a popup's opener); one nothing
				// opened (a new tab) has the default.
				return policy.Decision{Rule: p.DefaultRule}, "", true
			}
			return p.Decide(f.URL), "", true // chrome:, view-source: …
		}
		if !policy.Inherits(f.URL) {
			return p.Decide(f.URL), "", true // no origin, none to take: blocked
		}
		return decide(f.ParentFrameID, depth+1)
	}
	strictest := policy.Decision{Rule: p.DefaultRule}
	for _, f := range infos {
		d, origin, ok := decide(f.FrameID, 0)
		if !ok {
			orphans = append(orphans, f.FrameID)
			continue
		}
		tr.byFrame[f.FrameID], tr.origins[f.FrameID] = d, origin
		if d.Rule > strictest.Rule {
			strictest = d
		}
	}
	for _, id := range orphans {
		tr.byFrame[id] = strictest
	}
	if d, ok := tr.byFrame[0]; ok {
		tr.top, tr.topOrigin, tr.topDoc = d, tr.origins[0], byID[0].DocumentID
	} else {
		tr.top = policy.Decision{Rule: p.DefaultRule} // no document yet: nothing to read
	}
	return tr
}

// strictest is the strictest rule of any frame of the tab.
func (tr *tabRules) strictest() policy.Decision {
	d := tr.top
	for _, fd := range tr.byFrame {
		if fd.Rule > d.Rule {
			d = fd
		}
	}
	return d
}

// blockedFrame returns a blocked frame of the tab, the lowest id first.
func (tr *tabRules) blockedFrame() (int, policy.Decision, bool) {
	best := -1
	for id, d := range tr.byFrame {
		if d.Rule == policy.Block && (best < 0 || id < best) {
			best = id
		}
	}
	if best < 0 {
		return 0, policy.Decision{}, false
	}
	return best, tr.byFrame[best], true
}

// ruleFor is the rule an action falls under, and the origin it names: the
// ref's own frame; for a frame chain or trusted keys with no element,
// whose frame is known only in the page, the strictest of the tab; for
// selecting a tab, which changes nothing on a site, act unless the tab is
// blocked; else the top frame's.
func (tr *tabRules) ruleFor(spec protocol.Action, args protocol.ActArgs, entry *refcache.Entry, chain []string) (d policy.Decision, origin string, frame int) {
	switch {
	case entry != nil:
		if id, ok := tr.byDoc[entry.Key.DocumentID]; ok {
			return tr.byFrame[id], tr.origins[id], id
		}
	case len(chain) > 1, spec.Name == protocol.ActPress && args.Target == "" && args.Trusted:
		d := tr.strictest()
		if d.Rule == tr.top.Rule {
			return d, tr.topOrigin, 0
		}
		best := -1
		for id, fd := range tr.byFrame {
			if fd.Rule == d.Rule && (best < 0 || id < best) {
				best = id
			}
		}
		return d, tr.origins[best], best
	case spec.Name == protocol.ActTabSelect && tr.top.Rule != policy.Block:
		return policy.Decision{Rule: policy.Act}, tr.topOrigin, 0
	}
	return tr.top, tr.topOrigin, 0
}
