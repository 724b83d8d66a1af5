package host

import (
	"context"
	"strings"

	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
)

// Navigating (docs/navigating.md, "Navigating"): the URL an agent gives
// is read by the browser itself (extension/worker/navigation.js, new URL(u).href,
// the parser Chrome loads with) before the policy judges it, so a URL
// written to look like one site while Chrome opens another —
// https:pay.example, https://pay\example, a tab inside the host,
// percent-encoded or full-width letters, 0x7f.1 or 2130706433 for
// 127.0.0.1, a trailing dot — is judged as the site Chrome opens. What the
// browser cannot read as a URL is bad_request; grip's own pages are never
// a target; a page that fails to load answers navigation_failed
// (extension/worker/navigation.js LoadWatch).

// Only http:, https: and file: URLs (and a blank tab) go to the browser
// (policy.Navigable): for any other scheme the site the policy would judge
// is not the one Chrome asks — chrome.tabs rewrites localhost:8080/x, which
// the URL parser reads as the scheme "localhost", to http://localhost:8080/x,
// and view-source: or filesystem: show another site's page — so it is
// refused with policy before the browser sees it, and no request leaves.

// browserURLs rewrites the URL of a navigate or tabs new to the href the
// browser will load, or refuses it; other actions pass.
func (h *Host) browserURLs(ctx context.Context, spec protocol.Action, args *protocol.ActArgs) error {
	if spec.Name != protocol.ActNavigate && spec.Name != protocol.ActTabNew {
		return nil
	}
	if strings.TrimSpace(args.Text) == "" {
		if spec.Name == protocol.ActTabNew {
			return nil // a blank tab
		}
		return protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "give a URL", "navigate needs a URL")
	}
	var rep protocol.ParseURLReply
	if err := callExt(ctx, h, protocol.ExtParseURL, protocol.TabParams{URL: args.Text}, &rep); err != nil {
		return err
	}
	if rep.Href == "" {
		return protocol.Errorf(protocol.CodeInternal, protocol.BoundaryBrowser, "", "the browser read %q as no URL", args.Text)
	}
	if !policy.Navigable(rep.Href) {
		return h.refuseUnplaced(args.Text, rep.Href)
	}
	args.Text = rep.Href
	return nil
}

// refuseUnplaced refuses a URL whose scheme the policy cannot place, with
// the URL to give instead when Chrome would have rewritten it.
func (h *Host) refuseUnplaced(raw, href string) error {
	hint := "give a whole http://, https:// or file:// URL; grip does not open chrome:, devtools:, view-source:, filesystem: or javascript: URLs"
	scheme, rest, _ := strings.Cut(href, ":")
	switch {
	case strings.EqualFold(scheme, "view-source"):
		hint = "navigate to the page itself (its http:// or https:// URL) and read it with grip snapshot or grip read"
	case strings.EqualFold(scheme, "javascript"):
		hint = "run code in a page with grip eval, where the policy allows it"
	case rest != "" && rest[0] >= '0' && rest[0] <= '9':
		// host:port/… reads as the scheme "host"; Chrome would load http://.
		hint = "give the whole URL with its scheme: http://" + strings.TrimSpace(raw)
	}
	file := "the policy file"
	if h.person != nil {
		file = h.person.policy.File()
	}
	d := policy.Decision{Rule: policy.Block, Builtin: policy.BuiltinUnplaced}
	return protocol.Errorf(protocol.CodePolicy, protocol.BoundaryPolicy, hint,
		"%q is refused: the browser would not load it as the site it names: %s of %s", raw, d.Why(), file)
}
