package host

import (
	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
)

// A blank page a page opened (window.open('') and written into) has the
// origin of the document that opened it, so it falls under that
// document's rule (docs/person.md, "The person's controls"). The
// worker records that document when the tab is created
// (webNavigation.onCreatedNavigationTarget names the frame; extension/
// openers.js): its frame's URL and its tab's page, as they were then.
// The host judges the popup by the strictest of those, so a popup a
// blocked frame of an allowed page opened is blocked, and one a blocked
// tab opened stays blocked after that tab navigated away or closed.

// builtinUnknownOpener is why a blank page whose opener cannot be judged
// is blocked.
const builtinUnknownOpener = "grip's built-in rule: a blank page opened by a page grip cannot judge is blocked"

// openerRule is the rule of a blank page in t by the document that opened
// it; ok is false when nothing opened it (a person's or an agent's new
// tab), whose rule is the default. current is each open tab's URL now: a
// tab opened before the worker kept who opened it is judged by its
// opener's page now, as far as that is open.
func openerRule(p *policy.Policy, t protocol.Tab, current map[int]string) (policy.Decision, bool) {
	if t.Opener == 0 && len(t.OpenedBy) == 0 {
		return policy.Decision{}, false
	}
	by := t.OpenedBy
	if len(by) == 0 {
		if u, open := current[t.Opener]; open {
			by = []string{u}
		}
	}
	var d policy.Decision
	for _, u := range by {
		if policy.Inherits(u) {
			continue // itself blank: the opener's page, also in by, decides
		}
		if nd := p.Decide(u); d.Rule == 0 || nd.Rule > d.Rule {
			d = nd
		}
	}
	if d.Rule == 0 {
		return policy.Decision{Rule: policy.Block, Builtin: builtinUnknownOpener}, true
	}
	return d, true
}
