package host

import (
	"context"
	"encoding/base64"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/grip-dev/grip/protocol"
)

// staticTypes are the resource types the compact listing leaves out when
// they succeeded: what a page loads to show itself, rarely what an agent
// testing an app looks for (as Playwright MCP's browser_network_requests).
var staticTypes = map[string]bool{"image": true, "font": true, "stylesheet": true, "script": true, "media": true, "manifest": true}

// Network lists a tab's requests (docs/devtools.md, "Developer
// tools"): those of its current page that grip saw, from the page's load if
// grip navigated it or was attached when it loaded, else from grip's first
// touch of the tab. Requests of frames the policy blocks, and requests to
// blocked sites, are left out.
func (h *Host) Network(ctx context.Context, args protocol.NetworkArgs) (*protocol.NetworkResult, error) {
	if args.Budget < 0 {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "give a positive --budget", "budget %d", args.Budget)
	}
	tab, unlock, err := h.lockTab(ctx, args.Tab)
	if err != nil {
		return nil, err
	}
	defer unlock()
	var rep protocol.NetworkReply
	if err := callExt(ctx, h, protocol.ExtNetwork, protocol.TabParams{TabID: tab}, &rep); err != nil {
		return nil, err
	}
	res := &protocol.NetworkResult{Tab: rep.Tab, Since: rep.Since, Loaded: rep.Loaded, Gaps: rep.Gaps, Requests: []protocol.NetRequest{}}
	p := h.policyNow()
	filter := strings.ToLower(args.Filter)
	for _, r := range rep.Requests {
		switch {
		case blockedFrom(p, r.FrameOrigin, r.FrameURL) || blockedFrom(p, "", r.URL):
			res.Blocked++
		case filter != "" && !strings.Contains(strings.ToLower(r.URL), filter):
			res.Filtered++
		case !args.All && staticTypes[r.Type] && r.Failed == "" && r.Status < 400:
			res.Static++
		default:
			res.Requests = append(res.Requests, r)
		}
	}
	renderNetwork(res, rep, args)
	return res, nil
}

// renderNetwork writes the listing's text, the newest requests kept within
// the budget.
func renderNetwork(res *protocol.NetworkResult, rep protocol.NetworkReply, args protocol.NetworkArgs) {
	head := fmt.Sprintf("Network of tab %d · %s · %s", res.Tab.ID, res.Tab.Title, res.Tab.URL)
	since := fmt.Sprintf("(requests since grip first touched the tab at %s; earlier ones are not known)", clock(res.Since))
	if res.Loaded {
		since = fmt.Sprintf("(requests since the page loaded at %s)", clock(res.Since))
	}
	lines := make([]string, len(res.Requests))
	for i, r := range res.Requests {
		lines[i] = requestLine(r)
	}
	notes := []string{since}
	for _, g := range res.Gaps {
		notes = append(notes, fmt.Sprintf("(grip was not attached from %s to %s: requests then are not known)", clock(g.From), clock(g.To)))
	}
	if len(res.Requests) == 0 {
		notes = append(notes, "(no requests)")
	}
	if res.Static > 0 {
		notes = append(notes, fmt.Sprintf("(%d successful static resources not shown: grip network --all%s)", res.Static, tabFlag(args.Tab)))
	}
	if res.Filtered > 0 {
		notes = append(notes, fmt.Sprintf("(%d not matching %q)", res.Filtered, args.Filter))
	}
	if res.Blocked > 0 {
		notes = append(notes, fmt.Sprintf("(%d of blocked frames or sites left out by policy)", res.Blocked))
	}
	notes = append(notes, "(a response body: grip network --body ID)")
	keep := fitNewest(head, lines, notes, args.Budget)
	if omitted := len(lines) - keep; omitted > 0 {
		res.Omitted = omitted
		res.Requests = res.Requests[omitted:]
		lines = lines[omitted:]
		notes = append([]string{fmt.Sprintf("… %d older requests left out for the budget (grip network --filter TEXT%s)", omitted, tabFlag(args.Tab))}, notes...)
	}
	res.Text = strings.Join(append(append([]string{head}, lines...), notes...), "\n")
}

// requestLine is one request as the listing writes it:
// "#14 GET 200 fetch 1.2 kB 35 ms http://a.example/api".
func requestLine(r protocol.NetRequest) string {
	status := fmt.Sprint(r.Status)
	switch {
	case r.Failed != "":
		status = "failed (" + r.Failed + ")"
	case r.Pending:
		status = "pending"
	}
	return fmt.Sprintf("#%d %s %s %s %s %d ms %s", r.ID, r.Method, status, r.Type, size(r.Bytes), r.MS, oneLine(r.URL, 300))
}

// size writes a byte count for people: 512 B, 1.2 kB, 3.4 MB.
func size(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.1f kB", float64(n)/1000)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}

// NetworkBody returns one response body, at most args.MaxBytes of it. The
// request's tab must be one agents may read, and neither its frame's site
// nor the site it went to blocked.
func (h *Host) NetworkBody(ctx context.Context, args protocol.NetworkBodyArgs) (*protocol.NetworkBody, error) {
	if args.ID <= 0 {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"give a request's id as grip network lists it (#14: --body 14)", "request id %d", args.ID)
	}
	max := args.MaxBytes
	switch {
	case max < 0:
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "give a positive --max-bytes", "max-bytes %d", max)
	case max == 0:
		max = protocol.DefaultBodyBytes
	case max > protocol.MaxBodyBytes:
		max = protocol.MaxBodyBytes
	}
	var rep protocol.NetworkBodyReply
	if err := callExt(ctx, h, protocol.ExtNetworkBody, protocol.NetworkBodyParams{ID: args.ID, MaxBytes: max}, &rep); err != nil {
		return nil, err
	}
	if args.Tab > 0 && rep.Tab.ID != args.Tab {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			fmt.Sprintf("grip network --tab %d lists that tab's requests", args.Tab), "request %d is not of tab %d", args.ID, args.Tab)
	}
	if h.person != nil {
		if _, err := h.agentTab(ctx, h.person.policy.Current(), rep.Tab.ID); err != nil {
			return nil, err
		}
	}
	if err := h.checkAfter(ctx, readInfo, rep.Tab); err != nil { // as the gate would, once the tab is known (host/gate.go)
		return nil, err
	}
	if p := h.policyNow(); blockedFrom(p, rep.FrameOrigin, "") || blockedFrom(p, "", rep.URL) {
		return nil, protocol.Errorf(protocol.CodePolicy, protocol.BoundaryPolicy,
			"the person keeps agents out of that site; leave its requests alone",
			"request %d is of a site blocked by %s", args.ID, h.person.policy.File())
	}
	out := &protocol.NetworkBody{Tab: rep.Tab, ID: rep.ID, URL: rep.URL, Status: rep.Status, MimeType: rep.MimeType, Bytes: rep.Bytes, Truncated: rep.Truncated}
	if rep.Base64 {
		b, err := base64.StdEncoding.DecodeString(rep.Body)
		if err != nil {
			return nil, protocol.Errorf(protocol.CodeInternal, protocol.BoundaryBrowser, "", "the body of request %d is not base64: %v", args.ID, err)
		}
		out.Body = b
		if utf8.Valid(b) && textual(rep.MimeType) {
			out.Text = string(b)
		}
		return out, nil
	}
	out.Body, out.Text = []byte(rep.Body), rep.Body
	return out, nil
}

// textual reports whether a MIME type names text.
func textual(mime string) bool {
	return strings.HasPrefix(mime, "text/") || strings.Contains(mime, "json") || strings.Contains(mime, "xml") || strings.Contains(mime, "javascript")
}
