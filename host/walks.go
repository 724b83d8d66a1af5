package host

import (
	"slices"
	"sync"

	"github.com/grip-dev/grip/protocol"
)

// walkStore keeps, per tab, the elements of each frame's last walk as the
// kernel named it (protocol.ExtFrame.Walk), so that a re-read of a page that
// has not changed comes back as "the same as walk W" and its elements are
// not sent, decoded and copied between processes again
// (docs/settling.md, "Re-reading an unchanged page").
type walkStore struct {
	mu    sync.Mutex
	tabs  map[int]map[int]keptWalk // tab → frameId → its last walk; guarded by mu
	order []int                    // tabs, least recently read first; guarded by mu
}

// keptWalk is one frame's last walk: its document, the walk's name, and
// the elements the kernel sent for it.
type keptWalk struct {
	documentID string
	walk       string
	elements   []protocol.ExtElement
}

// maxWalkTabs bounds the tabs whose walks are kept: a tab read again after
// more than this many others is sent whole, as before.
const maxWalkTabs = 16

// known lists the walks held for tab, for SnapshotParams.Known.
func (s *walkStore) known(tab int) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, k := range s.tabs[tab] {
		out = append(out, k.walk)
	}
	return out
}

// fill puts into each frame that answered Same the elements of the walk it
// names, and into each that sent a Patch the elements of its Base patched,
// and keeps the walks the reply sent for the next read of tab. It reports
// false when a frame answered Same or Patch for a walk not held in that
// document (it cannot happen while the tab's lock is held; the caller reads
// again without Known).
func (s *walkStore) fill(tab int, raw *protocol.SnapshotReply) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	have := s.tabs[tab]
	next := make(map[int]keptWalk, len(raw.Frames))
	for i := range raw.Frames {
		f := &raw.Frames[i]
		if f.Error != "" || f.Walk == "" {
			continue
		}
		switch {
		case f.Same:
			k, ok := have[f.FrameID]
			if !ok || k.walk != f.Walk || k.documentID != f.DocumentID {
				return false
			}
			f.Elements = k.elements
		case f.Base != "":
			// The walk a change of text replaced, with the lines listed
			// again put in (extension/kernel/reread.js relisted). The held
			// slice is not written: an earlier reply may still hold it.
			k, ok := have[f.FrameID]
			if !ok || k.walk != f.Base || k.documentID != f.DocumentID {
				return false
			}
			els := slices.Clone(k.elements)
			for _, p := range f.Patch {
				if p.At < 0 || p.At >= len(els) {
					return false
				}
				els[p.At] = p.Element
			}
			f.Elements = els
		}
		next[f.FrameID] = keptWalk{documentID: f.DocumentID, walk: f.Walk, elements: f.Elements}
	}
	if s.tabs == nil {
		s.tabs = map[int]map[int]keptWalk{}
	}
	s.tabs[tab] = next
	for i, t := range s.order {
		if t == tab {
			s.order = append(s.order[:i], s.order[i+1:]...)
			break
		}
	}
	s.order = append(s.order, tab)
	for len(s.order) > maxWalkTabs {
		delete(s.tabs, s.order[0])
		s.order = s.order[1:]
	}
	return true
}
