package frames

import (
	"fmt"
	"slices"
	"strconv"
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
//	said: 'Saved'
//	Tab 412 · Checkout — Shop · https://shop.example/checkout
//	changed:
//	@e3: [combobox 'Country' expanded]
//	in 'Shipping' → in 'Shipping to France': all 4 lines
//	added:
//	@e9: [option 'France']
//	@e10: [option 'Germany']
//	… 40 more lines (grip snapshot --after @e10)
//	gone: @e4
func ActionText(what string, res protocol.ActionResult) string {
	return ActionTextSince(what, res, protocol.TabRef{})
}

// ReplyTab is the tab an action's reply names: where the action left it
// (a navigation's new URL and title).
func ReplyTab(res protocol.ActionResult) protocol.TabRef {
	tab := res.Tab
	if res.Changes.URL != "" {
		tab.URL, tab.Title = res.Changes.URL, res.Changes.Title
	}
	return tab
}

// ActionTextSince is ActionText for a reader who was last told that the
// tab is known (the MCP server remembers it per client): the tab line is
// left out when the action left that tab as the reader last saw it, the
// same id, URL and title. In a run of actions on one page the line would
// otherwise repeat in every reply (a third of the tokens of a form filled
// field by field: bench/RESULTS.md, "Tokens per task").
func ActionTextSince(what string, res protocol.ActionResult, known protocol.TabRef) string {
	var b strings.Builder
	b.WriteString(what)
	if res.Detail != "" && !strings.Contains(strings.ToLower(what), strings.ToLower(res.Detail)) && !toldByChanges(res) { // "Opened tab 7" says "opened tab 7"
		b.WriteString(" (" + res.Detail + ")")
	}
	b.WriteByte('\n')
	if res.Dialog != nil {
		b.WriteString(DialogLine(res.Dialog) + "\n")
	}
	for _, s := range res.Said {
		b.WriteString(SaidLine(s) + "\n")
	}
	if res.Settled != nil && !*res.Settled {
		b.WriteString(StillChanging(res.Busy, res.Live) + "\n")
	}
	tab := ReplyTab(res)
	if (tab.ID != 0 || tab.URL != "") && tab != known {
		b.Write(appendTabHeader(nil, tab))
		b.WriteByte('\n')
	}
	for _, line := range EffectLines(res.Opened, res.Closed, res.Blocked, res.Loading) {
		b.WriteString(line + "\n")
	}
	c := res.Changes
	links := &linkCtx{base: tab.URL}
	writeLines(&b, "found:", res.Found, links)
	writeLines(&b, "changed:", c.Changed, links)
	for i, m := range c.Contexts {
		if i == 0 && len(c.Changed) == 0 {
			b.WriteString("changed:\n")
		}
		b.WriteString(ContextLine(m) + "\n")
	}
	// Lines left out for looking as lines gone did (FitChangesFresh)
	// are said as such: a new page's chrome, a list drawn again.
	like := "as on the previous page"
	if !c.Navigated {
		like = "as before, drawn again"
	}
	switch {
	case len(c.Appeared) > 0 && len(c.Skipped) > 0:
		b.WriteString("added:\n")
		at := make(map[string]int, len(c.Skipped))
		for _, sk := range c.Skipped {
			at[sk.Before] = sk.Lines
		}
		for i := range c.Appeared {
			if n := at[c.Appeared[i].Ref]; n > 0 {
				b.WriteString(skipLine(n, like) + "\n")
			}
			b.Write(appendLine(nil, &c.Appeared[i], links))
			b.WriteByte('\n')
		}
	case len(c.Appeared) > 0:
		writeLines(&b, "added:", c.Appeared, links)
	case len(c.Added) > 0 && res.List == nil: // a reply without lines (closing a tab)
		b.WriteString("added: " + strings.Join(c.Added, " ") + "\n")
	}
	if c.Omitted > 0 {
		more := c.More
		if more == "" {
			more = "grip snapshot"
		}
		// The runs said where they stand are not said again.
		left, same := c.Omitted, c.AsBefore
		for _, sk := range c.Skipped {
			left -= sk.Lines
			same -= sk.Lines
		}
		switch {
		case left <= 0:
			fmt.Fprintf(&b, "… lines left out above (%s)\n", more)
		case same > 0 && same == left:
			fmt.Fprintf(&b, "… %d more lines, all %s (%s)\n", left, like, more)
		case same > 0:
			fmt.Fprintf(&b, "… %d more lines, %d of them %s (%s)\n", left, same, like, more)
		default:
			fmt.Fprintf(&b, "… %d more lines (%s)\n", left, more)
		}
	}
	gone := res.Changes.Gone
	if l := res.List; l != nil {
		b.WriteString(ListLine(*l, len(res.Found) > 0) + "\n")
		gone = without(gone, l.GoneRefs)
	}
	switch {
	case len(gone) > 0 && c.Navigated:
		// A new page: its refs all went with it, said once, not one by one,
		// and that the tab loaded one, which a reload of the same URL (a
		// settings page saved) says nowhere else.
		fmt.Fprintf(&b, "gone: every ref of the previous page (%d): the tab loaded a page\n", len(gone))
	case len(gone) > 0:
		b.WriteString("gone: " + refRuns(gone) + "\n")
	}
	if d := res.Download; d != nil {
		b.WriteString(DownloadText(*d) + "\n")
	}
	if res.Snapshot != nil {
		b.WriteString(res.Snapshot.Text)
	}
	return b.String()
}

// ContextLine says once that a run of lines changed only their context
// (the heading or card title they are under was renamed, a repeat came or
// went): the lines as the agent knows them, each now with the new
// context. All of them that were in the old context are counted, others
// named:
//
//	in 'Quarterly report' → in 'Q3 report': all 6 lines
//	in 'Team offsite' → in 'Offsite': @e12 @e13 @e14
//	no context → in 'Team offsite': @e4 @e5 @e6
func ContextLine(m protocol.ContextChange) string {
	side := func(c string) string {
		if !hasText(c) {
			return "no context"
		}
		return "in " + Quote(c, MaxName)
	}
	line := side(m.From) + " → " + side(m.To) + ": "
	if m.All {
		return line + fmt.Sprintf("all %d lines", len(m.Refs))
	}
	return line + strings.Join(m.Refs, " ")
}

// ContextsCost is what the lines of contexts cost against a reply's
// budget, which the element lines have the rest of.
func ContextsCost(contexts []protocol.ContextChange) int {
	n := 0
	for _, m := range contexts {
		n += Cost(ContextLine(m))
	}
	return n
}

// SaidLine is one thing the app said in answer to an action, quoted as
// page text, with the field a validation message is about:
//
//	said: 'Invalid user or password'
//	said: 'Please fill out this field.' (@e4)
func SaidLine(s protocol.Said) string {
	line := "said: " + Quote(s.Text, maxSaid)
	if s.Ref != "" {
		line += " (" + s.Ref + ")"
	}
	return line
}

// maxSaid is how many characters of one thing said a reply shows.
const maxSaid = 160

// toldByChanges reports whether the page's detail only repeats what a
// changed line says anyway: a fill's "value is now 'Ada'" beside
// "[textbox 'Name' value='Ada']", or the part of a long value the detail
// quotes (its start, or around the caret or the change) inside the part
// the line shows. Both write a value the same way (appendValue; the
// kernel's editing.js excerpt), so the quoted texts compare as written.
func toldByChanges(res protocol.ActionResult) bool {
	for _, prefix := range []string{"value is now ", "text is now "} {
		v, ok := strings.CutPrefix(res.Detail, prefix)
		if !ok {
			continue
		}
		if i := strings.LastIndex(v, "' ("); i >= 0 && strings.HasSuffix(v, " characters)") {
			v = v[:i+1]
		}
		if len(v) < 2 || v[0] != '\'' || v[len(v)-1] != '\'' {
			continue
		}
		quoted := v[1 : len(v)-1]
		part, cutLeft := strings.CutPrefix(quoted, CutMark)
		part, cutRight := strings.CutSuffix(part, CutMark)
		whole := !cutLeft && !cutRight
		if !whole && len(part) < 4 {
			continue
		}
		for i := range res.Changes.Changed {
			e := &res.Changes.Changed[i]
			if e.Value == nil {
				continue
			}
			shown := string(appendValue(nil, *e.Value, e.ValueFrom, MaxName))
			if whole && shown == quoted || !whole && strings.Contains(shown, part) {
				return true
			}
		}
	}
	return false
}

// StillChanging is the line of a reply read while the page was still
// changing at the settling bound, or live (changing without a pause since
// before the action): what it lists may not be all.
func StillChanging(busy string, live bool) string {
	line := "still changing"
	switch {
	case strings.HasSuffix(busy, " in flight"):
		line += " (" + busy + ")"
	case busy != "":
		line += " (" + busy + " showed)"
	case live:
		line += " (it changes all the time)"
	}
	return line + ": the page had not settled when this was read; grip snapshot shows it as it is now"
}

// DownloadText is the line of an action's reply that names the download
// it started: "download: complete, 1234 bytes: /home/me/Downloads/a.csv".
func DownloadText(d protocol.Download) string {
	state := d.State
	if d.Error != "" {
		state += " (" + d.Error + ")"
	}
	where := d.Path
	if where == "" {
		where = d.URL
	}
	return fmt.Sprintf("download: %s, %d bytes: %s", state, d.Bytes, where)
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
// they fit budget tokens, and says how many were left out. When it cuts
// appeared, the fields among the lines it cut (textbox, searchbox,
// combobox, spinbutton: where an agent types next, such as an editor that
// opened below its toolbar's buttons) are kept too, up to maxKeptFields,
// their room taken from the lines before them, so the reply stays in page
// order with a gap. readOnAfter is the last line of the unbroken run of
// appeared lines, where a read on starts ("" when none was kept). A cut
// that would leave out one or two lines, over the budget by at most a
// quarter of it, is not made: the line that says the rest and the call
// that reads it cost more than they save (Deluge's preferences lost their
// Apply and OK to a cut of two lines). A longer cut is made as it was: the
// lines past it are an agent's to ask for, not to be sent unasked (the
// bench's pager task read 6% more with a quarter's slack for any cut).
func FitChanges(changed, appeared []protocol.Element, budget int) (keptChanged, keptAppeared []protocol.Element, omitted int, readOnAfter string) {
	keptChanged, keptAppeared, omitted, readOnAfter = fitChanges(changed, appeared, budget)
	if omitted == 0 || omitted > fewLines {
		return keptChanged, keptAppeared, omitted, readOnAfter
	}
	total := 0
	for i := range changed {
		total += lineCost(&changed[i])
	}
	for i := range appeared {
		total += lineCost(&appeared[i])
	}
	if total <= budget+budget/4 {
		return changed, appeared, 0, lastRef(appeared)
	}
	return keptChanged, keptAppeared, omitted, readOnAfter
}

// FitChangesFresh is FitChanges where asBefore()[i] says appeared[i]
// looks the same as a line gone with the read (the same role, name, value,
// states and link: a new page's header and menus, a list drawn again);
// it is asked only when the lines do not all fit.
// When the lines do not all fit, runs of at least minSkip such lines are
// left out first, so that what the page shows anew fits (a form, search
// results, a Save button below the chrome; DokuWiki's pages cut at their
// header's links): each run before the cut is left out where it stands
// and said there (skips: the text says "… 12 lines as on the previous
// page" before the line after it), the runs past the cut are counted
// with it. omitted counts every line left out and repeated those that
// looked as before; readOnAfter is "" when a run was left out above the
// cut: a read on from the top lists it.
func FitChangesFresh(changed, appeared []protocol.Element, looksBefore func() []bool, budget int) (keptChanged, keptAppeared []protocol.Element, skips []protocol.Skip, omitted, repeated int, readOnAfter string) {
	keptChanged, keptAppeared, omitted, readOnAfter = FitChanges(changed, appeared, budget)
	if omitted == 0 {
		return keptChanged, keptAppeared, nil, omitted, 0, readOnAfter
	}
	asBefore := looksBefore()
	if len(asBefore) != len(appeared) {
		return keptChanged, keptAppeared, nil, omitted, 0, readOnAfter
	}
	// The runs long enough to say in one line; a shorter one reads as well
	// line by line (a row's cells, one of which is as it was).
	lastFresh := -1
	for i := range appeared {
		if !asBefore[i] {
			lastFresh = i
		}
	}
	skippable := make([]bool, len(appeared))
	runs, above := 0, 0
	for i := 0; i < len(appeared); {
		j := i
		for j < len(appeared) && asBefore[j] {
			j++
		}
		if j-i >= minSkip {
			runs++
			if i < lastFresh {
				above++ // said where it stands if the cut falls past it
			}
			for k := i; k < j; k++ {
				skippable[k] = true
			}
		}
		if j == i {
			j++
		}
		i = j
	}
	if runs == 0 {
		return keptChanged, keptAppeared, nil, omitted, 0, readOnAfter
	}
	fresh := make([]protocol.Element, 0, len(appeared))
	for i := range appeared {
		if !skippable[i] {
			fresh = append(fresh, appeared[i])
		}
	}
	// Each run said where it stands costs a line of its own.
	room := budget - above*costBytes([]byte(skipLine(999, "as on the previous page")))
	keptChanged, keptFresh, _, freshAfter := FitChanges(changed, fresh, max(room, 0))
	kept := make(map[string]bool, len(keptFresh))
	for i := range keptFresh {
		kept[keptFresh[i].Ref] = true
	}
	// Where the unbroken run of kept lines ends: runs before it are said
	// where they stand, what lies past it is the cut.
	end := -1
	for i := range appeared {
		if appeared[i].Ref == freshAfter {
			end = i
		}
	}
	keptAppeared = make([]protocol.Element, 0, len(keptFresh))
	pending := 0
	for i := range appeared {
		switch {
		case kept[appeared[i].Ref] && !skippable[i]:
			if pending > 0 && i <= end {
				skips = append(skips, protocol.Skip{Before: appeared[i].Ref, Lines: pending})
			}
			pending = 0
			keptAppeared = append(keptAppeared, appeared[i])
		case skippable[i]:
			repeated++
			if i < end {
				pending++
			}
		}
	}
	omitted = len(changed) - len(keptChanged) + len(appeared) - len(keptAppeared)
	readOnAfter = freshAfter
	if len(skips) > 0 {
		readOnAfter = ""
	}
	return keptChanged, keptAppeared, skips, omitted, repeated, readOnAfter
}

// minSkip is how many lines as before in a row an action reply says in
// one line where they stand (FitChangesFresh).
const minSkip = 3

// skipLine is the line that says a run of n lines was left out where it
// stands, for looking as lines gone did (like: how).
func skipLine(n int, like string) string {
	return fmt.Sprintf("… %d lines %s", n, like)
}

// fewLines is how many lines a cut may leave out and still not be made
// (FitChanges).
const fewLines = 2

// lineCost is what a line of an action reply costs against its budget.
func lineCost(e *protocol.Element) int { return costBytes(appendLine(nil, e, nil)) }

// fitChanges is FitChanges without its slack.
func fitChanges(changed, appeared []protocol.Element, budget int) (keptChanged, keptAppeared []protocol.Element, omitted int, readOnAfter string) {
	cost := lineCost
	used, n := 0, 0
	for ; n < len(changed); n++ {
		c := cost(&changed[n])
		if used+c > budget {
			return changed[:n], nil, len(changed) - n + len(appeared), ""
		}
		used += c
	}
	costs := make([]int, len(appeared))
	all := used
	for i := range appeared {
		costs[i] = cost(&appeared[i])
		all += costs[i]
	}
	if all <= budget {
		return changed, appeared, 0, lastRef(appeared)
	}
	// The fields, and the room they take, reserved before the run is cut.
	var fields []int
	reserve := 0
	for i := range appeared {
		if len(fields) == maxKeptFields {
			break
		}
		if typedInto(appeared[i].Role) && used+reserve+costs[i] <= budget {
			fields = append(fields, i)
			reserve += costs[i]
		}
	}
	for n = 0; n < len(appeared); n++ {
		c := costs[n]
		if slices.Contains(fields, n) {
			c = 0 // its room is reserved
		}
		if used+reserve+c > budget {
			break
		}
		used += c
	}
	keptAppeared = append([]protocol.Element(nil), appeared[:n]...)
	readOnAfter = lastRef(keptAppeared)
	for _, i := range fields {
		if i >= n {
			keptAppeared = append(keptAppeared, appeared[i])
		}
	}
	return changed, keptAppeared, len(appeared) - len(keptAppeared), readOnAfter
}

// maxKeptFields is how many fields past a cut a reply keeps.
const maxKeptFields = 3

// typedInto says whether role is a field an agent types into.
func typedInto(role string) bool {
	switch role {
	case "textbox", "searchbox", "combobox", "spinbutton":
		return true
	}
	return false
}

func lastRef(els []protocol.Element) string {
	if len(els) == 0 {
		return ""
	}
	return els[len(els)-1].Ref
}

// Done is the first line of an action's reply in the CLI: "ok: click @e3".
// It never repeats the text typed (it may be a secret).
func Done(action, target string) string {
	if target == "" {
		return "ok: " + action
	}
	return "ok: " + action + " " + target
}

// ListLine is what a reply says of a long list it scrolled, in place of a
// line for each of its rows (docs/long-lists.md, "Long lists"):
//
//	list @e3: rows 41–80 of 2,000 (40 more appeared, 40 gone; grip find TEXT --in @e3 brings one into view)
//
// found says the reply names the element a find brought into view, so
// the way to find one is not repeated.
func ListLine(l protocol.ListSummary, found bool) string {
	var b strings.Builder
	b.WriteString("list")
	if l.Ref != "" {
		b.WriteString(" " + l.Ref)
	}
	b.WriteString(":")
	if l.Last > 0 {
		about := ""
		if l.Estimated {
			about = "about "
		}
		fmt.Fprintf(&b, " %s %s%s–%s", l.Unit, about, count(l.First), count(l.Last))
		if l.Total > 0 {
			fmt.Fprintf(&b, " of %s%s", about, count(l.Total))
		}
		b.WriteString(" in view")
	}
	var parts []string
	for _, p := range []struct {
		n    int
		what string
	}{{l.Appeared, "appeared"}, {l.Changed, "changed"}, {l.Gone, "gone"}} {
		if p.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", p.n, p.what))
		}
	}
	if len(parts) > 0 {
		b.WriteString(" (" + strings.Join(parts, ", ") + ", not listed")
		if !found {
			in := ""
			if l.Ref != "" {
				in = " --in " + l.Ref
			}
			b.WriteString("; grip find TEXT" + in + " brings one into view")
		}
		b.WriteString(")")
	}
	return b.String()
}

// count writes n with thousands separated: 2,000.
func count(n int) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return s
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// without is refs less those in drop, in order.
// refRuns writes refs apart by spaces, a run of three or more whose
// numbers follow each other as its first and last, "@e774–@e868": a panel
// or dialog that closes takes refs given out together, and a hundred of
// them one by one cost the agent some 300 tokens (qBittorrent's Options
// window). --json lists every ref.
func refRuns(refs []string) string {
	var b strings.Builder
	for i := 0; i < len(refs); {
		j := i
		for n, ok := refNumber(refs[i]); ok && j+1 < len(refs); j++ {
			m, ok := refNumber(refs[j+1])
			if !ok || m != n+uint64(j+1-i) {
				break
			}
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		if j-i >= 2 {
			b.WriteString(refs[i] + "–" + refs[j])
		} else {
			j = i
			b.WriteString(refs[i])
		}
		i = j + 1
	}
	return b.String()
}

// refNumber is N of "@eN".
func refNumber(ref string) (uint64, bool) {
	digits, ok := strings.CutPrefix(ref, "@e")
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseUint(digits, 10, 64)
	return n, err == nil
}

func without(refs, drop []string) []string {
	if len(drop) == 0 {
		return refs
	}
	skip := make(map[string]bool, len(drop))
	for _, r := range drop {
		skip[r] = true
	}
	out := make([]string, 0, len(refs))
	for _, r := range refs {
		if !skip[r] {
			out = append(out, r)
		}
	}
	return out
}
