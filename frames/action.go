package frames

import (
	"strings"

	"github.com/grip-dev/grip/protocol"
)

// ActionText renders an action's reply as the agent reads it, the same in
// the CLI and over MCP: what was done (and the page's own detail), the tab
// as a snapshot's header names it, the refs added and gone, then the
// snapshot when one was asked for:
//
//	ok: click @e3
//	Tab 412 · Checkout — Shop · https://shop.example/checkout
//	added: @e9 @e10
//	gone: @e4
func ActionText(what string, res protocol.ActionResult) string {
	var b strings.Builder
	b.WriteString(what)
	if res.Detail != "" && !strings.Contains(what, res.Detail) {
		b.WriteString(" (" + res.Detail + ")")
	}
	b.WriteByte('\n')
	tab := res.Tab
	if res.Changes.URL != "" {
		tab.URL, tab.Title = res.Changes.URL, res.Changes.Title
	}
	if tab.ID != 0 || tab.URL != "" {
		b.Write(appendTabHeader(nil, tab))
		b.WriteByte('\n')
	}
	if len(res.Changes.Added) > 0 {
		b.WriteString("added: " + strings.Join(res.Changes.Added, " ") + "\n")
	}
	if len(res.Changes.Gone) > 0 {
		b.WriteString("gone: " + strings.Join(res.Changes.Gone, " ") + "\n")
	}
	if res.Snapshot != nil {
		b.WriteString(res.Snapshot.Text)
	}
	return b.String()
}

// Done is the first line of an action's reply in the CLI: "ok: click @e3".
// It never repeats the text typed (it may be a secret).
func Done(action, target string) string {
	if target == "" {
		return "ok: " + action
	}
	return "ok: " + action + " " + target
}
