package frames

import (
	"github.com/grip-dev/grip/protocol"
)

// MatchLine returns, in page order, the elements of a read that a target
// written the way a snapshot line reads (docs/locators.md, "Locators")
// names: the same role, the same name as the line prints it (folded, cut
// at MaxName) and, when context is not "", the same context. The caller
// decides what none or several mean; recorded workflows find their
// elements through the same function.
func MatchLine(results []FrameResult, role, name, context string) []protocol.Element {
	want := string(appendFolded(nil, name, MaxName, false))
	wantCtx := string(appendFolded(nil, context, MaxName, false))
	var out []protocol.Element
	for _, f := range results {
		if f.Err != "" {
			continue
		}
		for _, e := range f.Elements {
			if e.Role != role || string(appendFolded(nil, e.Name, MaxName, false)) != want {
				continue
			}
			if context != "" && string(appendFolded(nil, e.Context, MaxName, false)) != wantCtx {
				continue
			}
			out = append(out, e)
		}
	}
	return out
}

// RepeatSet holds the role and name pairs that more than one element of a
// page has.
type RepeatSet map[[2]string]bool

// Has reports whether role and name repeat.
func (r RepeatSet) Has(role, name string) bool { return r[[2]string{role, name}] }

// Repeats finds, over all the answered frames of a read, the role and name
// pairs that more than one element has: those elements show their context
// (docs/snapshot.md, "Snapshot format"). Only elements the kernel gave
// a context count, as only they can be repeats within their frame; a pair
// that repeats only across frames is told apart by its frame's header.
func Repeats(read []protocol.ExtFrame) RepeatSet {
	seen := map[[2]string]int{}
	for _, f := range read {
		if f.Error != "" {
			continue
		}
		for _, e := range f.Elements {
			if e.Context != "" {
				seen[[2]string{e.Role, e.Name}]++
			}
		}
	}
	out := RepeatSet{}
	for k, n := range seen {
		if n > 1 {
			out[k] = true
		}
	}
	return out
}
