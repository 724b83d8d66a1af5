package actlog

import (
	"strconv"
	"strings"
	"unicode"
)

// Escape writes s so that it stays on its one line and reads as what it
// is: control characters, line and paragraph separators and the
// direction overrides (which can make text read backwards) become Go
// escapes (\n, \x1b, \u202e); a backslash is doubled so an escape cannot
// be faked. Every field of an entry is written escaped (Add); what is
// shown is folded again (Fold, Line), for files an older grip
// wrote: an agent's target with a newline in it cannot print as a second
// entry.
func Escape(s string) string { return escape(s, true) }

// Fold is Escape without doubling backslashes: applied to text Escape
// wrote, it changes nothing, so it can run wherever an entry is shown.
func Fold(s string) string { return escape(s, false) }

func escape(s string, backslash bool) string {
	clean := true
	for _, r := range s {
		if backslash && r == '\\' || needsEscape(r) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case backslash && r == '\\':
			b.WriteString(`\\`)
		case needsEscape(r):
			q := strconv.QuoteRune(r) // '\n', '\x1b', '\u202e'
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func needsEscape(r rune) bool {
	switch {
	case r == unicode.ReplacementChar:
		return false
	case unicode.IsControl(r), r == '\u2028', r == '\u2029', r == '\u0085':
		return true
	case r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069', r == '\u200e', r == '\u200f', r == '\u061c':
		return true
	}
	return false
}

// escaped is e with every text field written by f.
func escaped(e Entry, f func(string) string) Entry {
	e.Origin, e.Action, e.Target = f(e.Origin), f(e.Action), f(e.Target)
	e.Detail, e.Outcome, e.Rule, e.Client = f(e.Detail), f(e.Outcome), f(e.Rule), f(e.Client)
	return e
}
