package host

import (
	"slices"

	"github.com/grip-dev/grip/locator"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/refcache"
)

// dropTarget is the second element of an action that takes two (drag),
// checked at the host like the first: a malformed locator, an unknown or
// stale ref, or a ref of another tab or document is refused before
// anything reaches the browser.
type dropTarget struct {
	ref   string
	entry *refcache.Entry
	chain []string
}

// resolveDrop checks args.To against the action and the first target t.
// Both ends live in one document: synthetic drag events cannot cross
// frames, so both are refs of one document, or both CSS chains through the
// same frames.
func (h *Host) resolveDrop(spec protocol.Action, args protocol.ActArgs, t actTarget) (dropTarget, error) {
	if !spec.To {
		if args.To != "" {
			return dropTarget{}, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
				"leave out the second element", "%s takes one element, not a second one (%q)", args.Action, args.To)
		}
		return dropTarget{}, nil
	}
	if args.To == "" {
		return dropTarget{}, protocol.Errorf(protocol.CodeInvalidLocator, protocol.BoundaryPayload,
			"name where to drop with a ref from a snapshot: grip "+args.Action+" @e3 @e7", "%s needs a second element, the drop target", args.Action)
	}
	loc, err := locator.Parse(args.To)
	if err != nil {
		return dropTarget{}, err
	}
	if loc.Ref == 0 {
		if t.entry != nil || !slices.Equal(loc.Chain[:len(loc.Chain)-1], t.chain[:len(t.chain)-1]) {
			return dropTarget{}, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
				"name both ends by refs from one snapshot, or both by CSS in the same frame",
				"%s %s %s: both ends must be in the same frame", args.Action, args.Target, args.To)
		}
		return dropTarget{chain: loc.Chain}, nil
	}
	e, err := h.refs.Resolve(loc.Ref)
	if err != nil {
		return dropTarget{}, err
	}
	if t.entry == nil || e.Tab != t.entry.Tab || e.Key.DocumentID != t.entry.Key.DocumentID {
		return dropTarget{}, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"drag between elements of one frame; name both ends by refs from one snapshot",
			"%s %s %s: both ends must be in the same document", args.Action, args.Target, args.To)
	}
	return dropTarget{ref: args.To, entry: &e}, nil
}

// fill puts the drop target into the extension's request, after checking
// again (under the tab's lock) that its ref did not go stale meanwhile.
func (d dropTarget) fill(h *Host, params *protocol.ActParams) error {
	if d.entry != nil {
		if _, err := h.refs.Resolve(d.entry.Ref); err != nil {
			return err
		}
		params.ToLocalID = d.entry.Key.LocalID
	} else if len(d.chain) > 0 {
		params.ToChain = d.chain
	}
	return nil
}
