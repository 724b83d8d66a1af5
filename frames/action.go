package frames

import (
	"fmt"
	"strings"

	"github.com/grip-dev/grip/protocol"
)

// ActionText renders an action's reply as the agent reads it, the same in
// the CLI and over MCP: what was done (and the page's own detail), the
// dialog the page now shows, the tab as a snapshot's header names it, the
// tabs opened and closed (EffectLines), the lines of the elements whose
// state changed and of those that appeared, in the snapshot's own format,
// the refs gone, then the snapshot when one was asked for:
//
//	ok: click @e3
//	Tab 412 · Checkout — Shop · https://shop.example/checkout
//	changed:
//	@e3: [combobox 'Country' expanded]
//	added:
//	@e9: [option 'France']
//	@e10: [option 'Germany']
//	… 40 more lines (grip snapshot)
//	gone: @e4
func ActionText(what string, res protocol.ActionResult) string {
	var b strings.Builder
	b.WriteString(what)
	if res.Detail != "" && !strings.Contains(what, res.Detail) {
		b.WriteString(" (" + res.Detail + ")")
	}
	b.WriteByte('\n')
	if res.Dialog != nil {
		b.WriteString(DialogLine(res.Dialog) + "\n")
	}
	tab := res.Tab
	if res.Changes.URL != "" {
		tab.URL, tab.Title = res.Changes.URL, res.Changes.Title
	}
	if tab.ID != 0 || tab.URL != "" {
		b.Write(appendTabHeader(nil, tab))
		b.WriteByte('\n')
	}
	for _, line := range EffectLines(res.Opened, res.Closed, res.Blocked, res.Loading) {
		b.WriteString(line + "\n")
	}
	c := res.Changes
	links := &linkCtx{base: tab.URL}
	writeLines(&b, "changed:", c.Changed, links)
	switch {
	case len(c.Appeared) > 0:
		writeLines(&b, "added:", c.Appeared, links)
	case len(c.Added) > 0: // a reply without lines (closing a tab)
		b.WriteString("added: " + strings.Join(c.Added, " ") + "\n")
	}
	if c.Omitted > 0 {
		fmt.Fprintf(&b, "… %d more lines (grip snapshot)\n", c.Omitted)
	}
	if len(res.Changes.Gone) > 0 {
		b.WriteString("gone: " + strings.Join(res.Changes.Gone, " ") + "\n")
	}
	if res.Snapshot != nil {
		b.WriteString(res.Snapshot.Text)
	}
	return b.String()
}

func writeLines(b *strings.Builder, head string, els []protocol.Element, links *linkCtx) {
	if len(els) == 0 {
		return
	}
	b.WriteString(head + "\n")
	for i := range els {
		b.Write(appendLine(nil, &els[i], links))
		b.WriteByte('\n')
	}
}

// FitChanges keeps the lines of changed, then appeared, in order while
// they fit budget tokens, and says how many were left out.
func FitChanges(changed, appeared []protocol.Element, budget int) (keptChanged, keptAppeared []protocol.Element, omitted int) {
	used := 0
	fit := func(els []protocol.Element) []protocol.Element {
		n := 0
		for n < len(els) && omitted == 0 {
			cost := costBytes(appendLine(nil, &els[n], nil))
			if used+cost > budget {
				break
			}
			used += cost
			n++
		}
		omitted += len(els) - n
		return els[:n]
	}
	keptChanged = fit(changed)
	keptAppeared = fit(appeared)
	return keptChanged, keptAppeared, omitted
}

// Done is the first line of an action's reply in the CLI: "ok: click @e3".
// It never repeats the text typed (it may be a secret).
func Done(action, target string) string {
	if target == "" {
		return "ok: " + action
	}
	return "ok: " + action + " " + target
}
