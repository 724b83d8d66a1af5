package host

import (
	"context"
	"strings"

	"github.com/grip-dev/grip/protocol"
)

// Navigating (docs/ARCHITECTURE.md, "Navigating"): the URL an agent gives
// is read by the browser itself (extension/navigation.js, new URL(u).href,
// the parser Chrome loads with) before the policy judges it, so a URL
// written to look like one site while Chrome opens another —
// https:pay.example, https://pay\example, a tab inside the host,
// percent-encoded or full-width letters, 0x7f.1 or 2130706433 for
// 127.0.0.1, a trailing dot — is judged as the site Chrome opens. What the
// browser cannot read as a URL is bad_request; grip's own pages are never
// a target; a page that fails to load answers navigation_failed
// (extension/navigation.js LoadWatch).

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
	if err := h.callExt(ctx, protocol.ExtParseURL, protocol.TabParams{URL: args.Text}, &rep); err != nil {
		return err
	}
	if rep.Href == "" {
		return protocol.Errorf(protocol.CodeInternal, protocol.BoundaryBrowser, "", "the browser read %q as no URL", args.Text)
	}
	args.Text = rep.Href
	return nil
}
