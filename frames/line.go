package frames

import (
	"fmt"
	"unicode/utf8"

	"github.com/grip-dev/grip/protocol"
)

// Limits on the free text of one line, in runes after folding.
const (
	// MaxName bounds names, values, roles, states and the tab title.
	MaxName = 100
	// MaxURL bounds URLs in the tab header and frame headers, so a huge
	// data: URL cannot eat the budget; the JSON keeps the whole URL.
	MaxURL = 500
)

// CutMark ends a text that was cut. It counts towards the limit, so a cut
// text is at most the limit long: its first limit-1 runes (less a trailing
// space) and the mark.
const CutMark = "…"

// Line renders one element the way a snapshot prints it:
//
//	@e3: [textbox 'Email' value='a@b.c' required]
//
// The name is quoted when it is not empty after folding; the value is
// printed, quoted, whenever Value is non-nil, even when empty; states
// follow in the order given. Quoted text has ' and \ escaped with a
// backslash, runs of whitespace and control characters folded to one space
// and trimmed, and is cut at MaxName runes (see CutMark). Roles and states
// are folded and cut the same way but not quoted; empty ones are left out.
//
// A link whose name does not say where it leads ("here", "read more", no
// name) also shows its href, after the name: [link 'here' href='https://…'].
func Line(e protocol.Element) string {
	return string(appendLine(nil, &e, nil))
}

// Cost is what a line costs against the token budget: ceil(runes/3). The
// newline that ends it is free.
func Cost(line string) int {
	return (utf8.RuneCountInString(line) + 2) / 3
}

// costBytes is Cost of a line being built. It counts runes as Cost does
// (an invalid byte is one rune) without the string conversion that makes
// utf8.RuneCount allocate on non-ASCII text.
func costBytes(b []byte) int {
	n := 0
	for i := 0; i < len(b); n++ {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		_, size := utf8.DecodeRune(b[i:])
		i += size
	}
	return (n + 2) / 3
}

// appendLine appends e's line; links says whether a link shows its
// destination (nil: a line read alone, with no page around it).
func appendLine(dst []byte, e *protocol.Element, links *linkCtx) []byte {
	dst = append(dst, e.Ref...)
	dst = append(dst, ": ["...)
	start := len(dst)
	if hasText(e.Role) {
		dst = appendFolded(dst, e.Role, MaxName, false)
	}
	if hasText(e.Name) {
		dst = sep(dst, start)
		dst = append(dst, '\'')
		dst = appendFolded(dst, e.Name, MaxName, true)
		dst = append(dst, '\'')
		if hasText(e.Context) {
			// Only where role and name repeat on the page (Repeats).
			dst = append(dst, " in '"...)
			dst = appendFolded(dst, e.Context, MaxName, true)
			dst = append(dst, '\'')
		}
	}
	if h := links.shownHref(e); h != "" {
		dst = sep(dst, start)
		dst = append(dst, "href='"...)
		dst = appendFolded(dst, h, MaxName, true)
		dst = append(dst, '\'')
	}
	if e.Value != nil {
		dst = sep(dst, start)
		dst = append(dst, "value='"...)
		dst = appendValue(dst, *e.Value, e.ValueFrom, MaxName)
		dst = append(dst, '\'')
	}
	for _, s := range e.States {
		if hasText(s) {
			dst = sep(dst, start)
			dst = appendFolded(dst, s, MaxName, false)
		}
	}
	return append(dst, ']')
}

// sep appends the space between two parts of the bracket that opened at
// start, unless nothing is in it yet.
func sep(dst []byte, start int) []byte {
	if len(dst) > start {
		dst = append(dst, ' ')
	}
	return dst
}

// isFold reports whether r is folded into a single space: whitespace, and
// control characters, which would break the one-line-per-element format or
// reach a terminal. It is unicode.IsSpace(r) || unicode.IsControl(r),
// spelled out because it runs for every rune of every line.
func isFold(r rune) bool {
	switch {
	case r < utf8.RuneSelf:
		return r <= ' ' || r == 0x7f
	case r <= 0xa0: // C1 controls (NEL among them) and NBSP
		return true
	case r == 0x061c: // the Arabic letter mark, a direction mark
		return true
	case r < 0x1680:
		return false
	}
	switch r {
	case 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000:
		return true
	case 0x200e, 0x200f: // direction marks
		return true
	}
	// Spaces, and the direction overrides and isolates, with which a
	// page's text could make grip's own line read backwards.
	return r >= 0x2000 && r <= 0x200a || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

// A changed value's line shows the part around its change (ValueFrom)
// when the change lies past what its start shows: valueLead runes before
// the change, and the change itself with at least valueAfter runes of it.
const (
	valueLead  = 20
	valueAfter = 20
)

// appendValue appends a control's value exactly as it is, escaped and cut
// at max runes: every space kept, ' and \ escaped with a backslash, a line
// break, tab and carriage return written \n, \t and \r, any other
// whitespace, control character or direction mark as \uXXXX (an escape
// counts as one rune). A value folded as names are lost the two spaces
// that start a DokuWiki list item, and an agent reading it could "fix"
// correct markup. When from (the rune where the value first differs from
// the one shown before) lies past what the value's start shows, the part
// around it is shown instead, the cut sides marked with CutMark, within
// the same max. Invalid UTF-8 comes out as U+FFFD.
func appendValue(dst []byte, v string, from, max int) []byte {
	n := utf8.RuneCountInString(v)
	skip := 0
	if n > max && from > max-1-valueAfter {
		// As long a part as max allows: a change near the end shows the
		// end, with more before it.
		skip = min(from-valueLead, n-(max-1))
	}
	left := max
	if skip > 0 {
		dst = append(dst, CutMark...)
		left--
	}
	i := 0
	for _, r := range v {
		if i < skip {
			i++
			continue
		}
		if n-i > left && left == 1 {
			return append(dst, CutMark...)
		}
		dst = appendEscaped(dst, r)
		i++
		left--
	}
	return dst
}

// appendEscaped appends one rune of a value (appendValue).
func appendEscaped(dst []byte, r rune) []byte {
	switch {
	case r == '\'' || r == '\\':
		return append(dst, '\\', byte(r))
	case r == '\n':
		return append(dst, '\\', 'n')
	case r == '\t':
		return append(dst, '\\', 't')
	case r == '\r':
		return append(dst, '\\', 'r')
	case r != ' ' && isFold(r):
		return fmt.Appendf(dst, "\\u%04x", r)
	}
	return utf8.AppendRune(dst, r)
}

// Quote writes page text that grip prints beside its own — a tab's title,
// a dialog's message — single-quoted with ' and \ escaped, folded onto one
// line and cut at max runes: a title such as "Shop · https://bank.example"
// then reads as a title, not as grip's separator and a URL.
func Quote(s string, max int) string {
	if !hasText(s) {
		return "''"
	}
	b := append([]byte{'\''}, appendFolded(nil, s, max, true)...)
	return string(append(b, '\''))
}

// Fold writes text folded onto one line and cut at max runes, unquoted:
// for a URL, which holds no space once the browser has read it.
func Fold(s string, max int) string { return string(appendFolded(nil, s, max, false)) }

// hasText reports whether s is not empty once folded.
func hasText(s string) bool {
	for _, r := range s {
		if !isFold(r) {
			return true
		}
	}
	return false
}

// appendFolded appends s folded (whitespace and control runs to one space,
// trimmed) and cut at max runes, the cut marked with CutMark. With quote,
// ' and \ are escaped, and a line break is written as the escape \n (two
// at most in a row, the spaces around it dropped), so a value or a
// preformatted text keeps its lines on grip's one line: a diff's "-old"
// and "+new" stay lines of the page's text, never grip's own; escapes do
// not count towards max (a \n counts as the space it stands for), so a
// cut never splits one. Invalid UTF-8 comes out as U+FFFD.
func appendFolded(dst []byte, s string, max int, quote bool) []byte {
	if plainASCII(s, max, quote) {
		return append(dst, s...) // what folding would write: s itself
	}
	return appendFoldedRunes(dst, s, max, quote)
}

// plainASCII says whether appendFolded would write s as it is: printable
// ASCII with no space leading, trailing or doubled, nothing to escape,
// short enough not to be cut. Most names and roles are; a snapshot of
// thousands of lines then copies them instead of walking each rune.
func plainASCII(s string, max int, quote bool) bool {
	if len(s) > max {
		return false
	}
	space := true // a leading space is folded away
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ':
			if space {
				return false
			}
			space = true
			continue
		case c < ' ' || c >= 0x7f, quote && (c == '\'' || c == '\\'):
			return false
		}
		space = false
	}
	return !space || s == ""
}

// appendFoldedRunes is appendFolded rune by rune.
func appendFoldedRunes(dst []byte, s string, max int, quote bool) []byte {
	start := len(dst)
	n := 0      // runes written
	cutAt := -1 // len(dst) after max-1 runes, less a trailing space
	pending := false
	breaks := 0 // line breaks pending (quote only)
	for _, r := range s {
		if isFold(r) {
			if quote && (r == '\n' || r == 0x2028 || r == 0x2029) {
				breaks = min(breaks+1, 2)
				pending = false // spaces around a break are dropped
			} else {
				pending = n > 0 && breaks == 0
			}
			continue
		}
		if breaks > 0 && n > 0 {
			for ; breaks > 0; breaks-- {
				dst = append(dst, '\\', 'n')
				n++
			}
		}
		breaks = 0
		if pending {
			// A space is only written with the rune after it, so the
			// text never ends in one.
			dst = append(dst, ' ')
			n++
			pending = false
		}
		if quote && (r == '\'' || r == '\\') {
			dst = append(dst, '\\')
		}
		if r < utf8.RuneSelf {
			dst = append(dst, byte(r))
		} else {
			dst = utf8.AppendRune(dst, r)
		}
		n++
		if n <= max-1 {
			cutAt = len(dst)
		} else if n > max {
			if cutAt < 0 {
				cutAt = start
			}
			return append(dst[:cutAt], CutMark...)
		}
	}
	return dst
}
