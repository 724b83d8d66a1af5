package host

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/locator"
	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/refcache"
)

// The target resolver (docs/locators.md, "Locators"): a target written
// the way a snapshot line reads an element ("button 'Save'", "button
// 'Edit' in 'Meeting notes'") is found in a fresh read of the tab, across
// its frames, and must be exactly one element; it then goes through the
// action pipeline as that element's ref, with the same checks of meaning.
// Recorded workflows find their steps' elements the same way.

// maxCandidates bounds the elements an ambiguous target's refusal lists.
const maxCandidates = 10

// resolveLine returns the ref of the one element of tab that l names, in a
// frame of origin when it is not "" (a recorded workflow's step). The
// read passes the gate a snapshot passes (the tab is one the agent may
// read; blocked frames are left out), so a refusal lists nothing the agent
// could not read itself.
func (h *Host) resolveLine(ctx context.Context, tab int, l locator.Line, origin string) (string, error) {
	if err := h.gateRead(ctx, &tab, readSnapshot); err != nil {
		return "", err
	}
	tab, unlock, err := h.lockTab(ctx, tab)
	if err != nil {
		return "", err
	}
	defer unlock()
	mode := h.tabs.lastMode(tab)
	if mode == "" {
		mode = protocol.ModeInteractive
	}
	// The agent sees nothing of this read: each element keeps the meaning
	// it was last shown with.
	read := func(mode string) (protocol.SnapshotReply, []frames.FrameResult, error) {
		raw, results, _, err := h.readTabFor(ctx, tab, protocol.SnapshotParams{Mode: mode, KeepSignatures: true, AllContexts: l.Context != ""}, nil)
		if err != nil {
			if d := openDialog(err); d != nil {
				return raw, nil, protocol.Errorf(protocol.CodeNotActionable, protocol.BoundaryDocument,
					"answer it first: grip dialog accept or grip dialog dismiss", "%s: the page shows a dialog (%s)", l, d.dialog.Type)
			}
			return raw, nil, err
		}
		if origin != "" {
			results = slices.DeleteFunc(results, func(f frames.FrameResult) bool {
				o, ok := policy.ParseOrigin(f.URL)
				return !ok || o.String() != origin
			})
		}
		return raw, results, nil
	}
	raw, results, err := read(mode)
	if err != nil {
		return "", err
	}
	found := frames.MatchLine(results, l.Role, l.Name, l.Context)
	if len(found) == 0 && mode != protocol.ModeContent {
		// A line of a content snapshot (a heading, a paragraph) names an
		// element the interactive view leaves out, whichever snapshot the
		// agent took last: it is looked for in a content read (a superset),
		// which the tab's view then is (docs/locators.md, "Locators").
		if craw, cresults, err := read(protocol.ModeContent); err == nil {
			raw, results = craw, cresults
			found = frames.MatchLine(results, l.Role, l.Name, l.Context)
		}
	}
	switch len(found) {
	case 0:
		// Say which page was looked in: the element is often in another
		// tab than the default one the agent had in mind.
		page := ""
		if raw.Tab.URL != "" {
			page = " (" + raw.Tab.URL + ")"
		}
		// Written with a context: the elements of that role and name in
		// other contexts are the likely ones.
		if l.Context != "" {
			if near := frames.MatchLine(results, l.Role, l.Name, ""); len(near) > 0 {
				return "", protocol.Errorf(protocol.CodeNotFound, protocol.BoundaryNode,
					"act on one of them by its ref if it is the one, or take a snapshot",
					"no element of tab %d%s reads %s; in other places: %s", tab, page, l, lines(near))
			}
		}
		return "", protocol.Errorf(protocol.CodeNotFound, protocol.BoundaryNode,
			"if it is in another tab, give --tab ID (grip tabs lists them); else take a snapshot and name the element as a line of it, or by its ref",
			"no element of tab %d%s reads %s", tab, page, l)
	case 1:
		if _, err := refcache.ParseRef(found[0].Ref); err != nil {
			return "", err
		}
		return found[0].Ref, nil
	}
	return "", ambiguous(l, found)
}

// ambiguous is the refusal of a target several elements match: it lists
// them, each as its snapshot line, so the agent can pick one by ref.
func ambiguous(l locator.Line, found []protocol.Element) error {
	hint := "act on one of them by its ref"
	// A context tells them apart only where theirs differ (Trac's two
	// Search buttons have none: the hint would send the agent after one).
	if l.Context == "" && contextsDiffer(found) {
		hint += ", or add its context: \"" + l.String() + " in '…'\""
	}
	return protocol.Errorf(protocol.CodeAmbiguous, protocol.BoundaryNode, hint,
		"%s names %d elements: %s", l, len(found), lines(found))
}

// contextsDiffer reports whether no two of els share a context and none
// lacks one, so that a line with a context could name each.
func contextsDiffer(els []protocol.Element) bool {
	seen := make(map[string]bool, len(els))
	for _, e := range els {
		if e.Context == "" || seen[e.Context] {
			return false
		}
		seen[e.Context] = true
	}
	return true
}

// lines lists elements as their snapshot lines, at most maxCandidates.
func lines(els []protocol.Element) string {
	var b strings.Builder
	for i, e := range els {
		if i == maxCandidates {
			fmt.Fprintf(&b, "; … %d more", len(els)-i)
			break
		}
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(frames.Line(e))
	}
	return b.String()
}
