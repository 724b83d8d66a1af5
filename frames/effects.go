package frames

import (
	"strconv"
	"strings"

	"github.com/grip-dev/grip/protocol"
)

// The lines a reply adds for what an action did besides acting on its
// element, and for a dialog that stops the page (docs/effects.md,
// "What an action did"):
//
//	dialog open: confirm 'Discard the draft?' — answer with grip dialog accept|dismiss
//	opened: tab 812 · Help center · https://help.example/
//	closed: tab 900
//	blocked: a window for https://pay.example/ (the browser's popup blocker)
//	still loading: https://shop.example/slow (grip wait or grip snapshot to read it)

// DialogLine names a tab's JavaScript dialog and says how to answer it.
func DialogLine(d *protocol.Dialog) string {
	if d == nil {
		return ""
	}
	b := []byte("dialog open: ")
	b = appendFolded(b, d.Type, MaxName, false)
	if d.Withheld {
		// A frame agents may not read opened it: nothing of it but its type.
		return string(append(b, " (opened by a frame the person's policy blocks: its message is withheld, and only the person can answer it)"...))
	}
	if hasText(d.Message) {
		b = append(b, " '"...)
		b = append(appendFolded(b, d.Message, MaxName, true), '\'')
	}
	switch d.Type {
	case protocol.DialogPrompt:
		if hasText(d.DefaultPrompt) {
			b = append(b, " default '"...)
			b = append(appendFolded(b, d.DefaultPrompt, MaxName, true), '\'')
		}
		b = append(b, " — answer with grip dialog accept --text T|dismiss"...)
	case protocol.DialogBeforeUnload:
		b = append(b, " (the page asks before it is left) — grip dialog accept leaves, dismiss stays"...)
	case protocol.DialogAlert:
		b = append(b, " — close it with grip dialog accept"...)
	default:
		b = append(b, " — answer with grip dialog accept|dismiss"...)
	}
	return string(b)
}

// DialogSnapshotText is the snapshot text of a tab that shows a dialog:
// its header and the dialog, nothing else can be read.
func DialogSnapshotText(tab protocol.TabRef, d *protocol.Dialog) string {
	return string(appendTabHeader(nil, tab)) + "\n" + DialogLine(d) + "\n"
}

// Tokens is what a text costs against a budget, line by line (Cost).
func Tokens(text string) int {
	n := 0
	for _, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		n += Cost(line)
	}
	return n
}

// OpenedLine names a tab or popup an action opened.
func OpenedLine(t protocol.OpenedTab) string {
	b := append([]byte("opened: tab "), strconv.Itoa(t.Tab)...)
	if hasText(t.Title) {
		b = append(b, " · '"...)
		b = appendFolded(b, t.Title, MaxName, true)
		b = append(b, '\'')
	}
	if hasText(t.URL) {
		b = append(b, " · "...)
		b = appendFolded(b, t.URL, MaxURL, false)
	}
	return string(b)
}

// EffectLines are the lines for what a reply's action did besides acting
// on its element, the tabs it opened and closed and the windows the
// browser blocked, and the page the tab is still loading. The
// dialog has its own line (DialogLine), first in the reply.
func EffectLines(opened []protocol.OpenedTab, closed []int, blocked []string, loading string) []string {
	var out []string
	for _, t := range opened {
		out = append(out, OpenedLine(t))
	}
	if len(closed) > 0 {
		ids := make([]string, len(closed))
		for i, id := range closed {
			ids[i] = "tab " + strconv.Itoa(id)
		}
		out = append(out, "closed: "+strings.Join(ids, ", "))
	}
	for _, u := range blocked {
		b := append([]byte("blocked: a window for "), appendFolded(nil, u, MaxURL, false)...)
		b = append(b, " (the browser's popup blocker: the page asked without a click or key press)"...)
		out = append(out, string(b))
	}
	if loading != "" {
		b := append([]byte("still loading: "), appendFolded(nil, loading, MaxURL, false)...)
		out = append(out, string(append(b, " (grip wait or grip snapshot to read it)"...)))
	}
	return out
}

// LoadingLine is the line a snapshot of a page still loading ends with:
// what it lists may be only the start of what the page will show.
func LoadingLine(url string) string {
	b := append([]byte("still loading: "), appendFolded(nil, url, MaxURL, false)...)
	return string(append(b, " (it may show more soon: grip wait --text T, or grip snapshot again)\n"...))
}
