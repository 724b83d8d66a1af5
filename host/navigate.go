package host

import (
	"context"
	"net/url"
	"strconv"
	"strings"

	"github.com/grip-dev/grip/frames"
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

// maxErrorTitle is how many characters of an error page's title a
// navigation's refusal quotes.
const maxErrorTitle = 80

// withErrorPageTitle adds to a navigation that failed with an HTTP status
// the title of the error page tab shows, quoted as page text, so the
// agent learns what the site said without a snapshot ("the page answered
// HTTP 404, titled 'Invalid ticket number – My Project'"). Only where the
// policy lets agents see the page: the load may have been redirected to a
// site it blocks, whose title, like its URL, is never told. The title is
// the browser's record of the tab (chrome.tabs), not read from the page;
// a page with none, which the browser titles by its URL, adds nothing.
func (h *Host) withErrorPageTitle(ctx context.Context, tab int, err error) error {
	pe := protocol.AsError(err)
	if pe == nil || pe.Code != protocol.CodeNavigationFailed || tab == 0 {
		return err
	}
	if n, convErr := strconv.Atoi(pe.Status); convErr != nil || n < 400 {
		return err // a network error: no page came
	}
	var info protocol.TabRef
	if callExt(ctx, h, protocol.ExtTabInfo, protocol.TabParams{TabID: tab}, &info) != nil {
		return err
	}
	if h.person != nil {
		if _, blocked := h.person.policy.Current().BlockedOwn(info.URL); blocked {
			return err
		}
	}
	if strings.TrimSpace(info.Title) == "" || titledByURL(info.Title, info.URL) {
		return err
	}
	out := *pe
	out.Message += ", titled " + frames.Quote(info.Title, maxErrorTitle)
	return &out
}

// titledByURL reports whether title is only the browser's stand-in for a
// page with no title of its own: its URL, whole or without the scheme.
func titledByURL(title, rawURL string) bool {
	t := strings.TrimSpace(title)
	if t == rawURL {
		return true
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return false
	}
	bare := strings.TrimPrefix(rawURL, u.Scheme+"://")
	return t == bare || strings.HasPrefix(bare, t) || t == u.Host+u.Path
}
