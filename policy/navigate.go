package policy

import "strings"

// DecideNavigation is the rule of a URL an agent sends a tab to
// (docs/navigating.md, "Navigating"). Only http:, https: and file: URLs
// are placed by the policy; any other scheme is blocked (BuiltinUnplaced),
// since Chrome rewrites what it cannot read as a site before loading it
// (localhost:8080/home.html becomes http://localhost:8080/home.html) or
// shows another site through it (view-source:, filesystem:). An empty URL
// or about:blank is a blank tab: nothing of any site, the default rule.
func (p *Policy) DecideNavigation(href string) Decision {
	s := strings.TrimSpace(href)
	if s == "" || strings.EqualFold(s, "about:blank") {
		return Decision{Rule: p.DefaultRule}
	}
	if !Navigable(s) {
		return Decision{Rule: Block, Builtin: BuiltinUnplaced}
	}
	return p.Decide(s)
}

// Navigable reports whether href is a URL whose scheme Chrome loads as
// written, so that the site the policy judges is the one Chrome asks:
// http:, https: or file:, or a blank tab.
func Navigable(href string) bool {
	s := strings.ToLower(strings.TrimSpace(href))
	if s == "about:blank" {
		return true
	}
	for _, scheme := range []string{"http://", "https://", "file://"} {
		if strings.HasPrefix(s, scheme) {
			return true
		}
	}
	return false
}

// BlockedOwn reports whether rawURL is blocked by its own origin, with the
// decision. A document with no origin of its own (Inherits) is not judged
// here: its creator's rule is its rule, which the caller finds (a frame's
// parent, a popup's opener), so an empty or blank URL is never blocked by
// this alone.
func (p *Policy) BlockedOwn(rawURL string) (Decision, bool) {
	if Inherits(rawURL) {
		return Decision{}, false
	}
	d := p.Decide(rawURL)
	return d, d.Rule == Block
}
