// Package locator parses the targets of actions (docs/locators.md,
// "Locators"): a ref "@eN",
// a CSS selector in the top frame, or a chain "sel >>> sel >>> …" where
// every segment but the last selects an iframe. Everything the host can
// refuse without the browser is refused here, with invalid_locator.
package locator

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/grip-dev/grip/protocol"
)

// Limits on a locator.
const (
	// MaxSegment bounds one CSS segment, in bytes.
	MaxSegment = 4096
	// MaxDepth bounds the segments of a chain (MaxDepth-1 iframes deep).
	MaxDepth = 16
)

// Sep separates the segments of a chain.
const Sep = ">>>"

// Locator is a parsed action target: a ref, a snapshot line (see Line) or
// a chain of CSS selectors, exactly one of them.
type Locator struct {
	// Ref is the N of "@eN"; non-zero when the locator is a ref.
	Ref uint64
	// Line is set when the locator is written as a snapshot line reads.
	Line *Line
	// Chain holds the trimmed CSS segments when the locator is not a ref;
	// with more than one, all but the last select iframes.
	Chain []string
}

// IsRef reports whether l names an element by ref.
func (l Locator) IsRef() bool { return l.Ref != 0 }

// String returns the canonical form of l, which Parse reads back as l:
// "@eN", or the segments joined by " >>> ".
func (l Locator) String() string {
	if l.Ref != 0 {
		return "@e" + strconv.FormatUint(l.Ref, 10)
	}
	if l.Line != nil {
		return l.Line.String()
	}
	return strings.Join(l.Chain, " "+Sep+" ")
}

const (
	hintRef   = "a ref looks like @e5, from the last snapshot"
	hintAlone = "use the ref alone, or a chain of CSS selectors"
)

// Parse reads a locator. Surrounding whitespace, of the locator and of each
// segment, is ignored. It refuses, with a *protocol.Error of code
// CodeInvalidLocator at BoundaryPayload that says why and how to fix it:
// an empty locator; a ref in a chain; a blank segment; a malformed ref
// (anything starting with "@" must be @e followed by a number from 1 up,
// without leading zeros, that fits in 64 bits); a bare e5, which is a CSS
// type selector no page uses but an agent's way of misspelling @e5; a
// segment with a NUL byte or over MaxSegment bytes; invalid UTF-8; a chain
// of more than MaxDepth segments.
//
// ">>>" inside a quoted string or after a backslash does not split, so an
// attribute selector such as [title=">>>"] stays one segment.
func Parse(s string) (Locator, error) {
	if !utf8.ValidString(s) {
		return Locator{}, refuse("locator is not valid UTF-8", "send the locator as UTF-8 text")
	}
	whole := strings.TrimSpace(s)
	if whole == "" {
		return Locator{}, refuse("empty locator", "give a ref like @e5 from the last snapshot, or a CSS selector")
	}
	if whole[0] == '@' {
		n, err := parseRef(whole)
		if err != nil {
			return Locator{}, err
		}
		return Locator{Ref: n}, nil
	}
	if l, ok := ParseLine(whole); ok {
		return Locator{Line: &l}, nil
	}

	segs, err := split(whole)
	if err != nil {
		return Locator{}, err
	}
	chain := len(segs) > 1
	for i, seg := range segs {
		where := "locator"
		if chain {
			where = "segment " + strconv.Itoa(i+1) + " of " + strconv.Itoa(len(segs))
		}
		switch {
		case seg == "":
			return Locator{}, refuse(where+" is blank in "+quote(whole),
				"every segment of a chain needs a selector: frame >>> frame >>> element")
		case seg[0] == '@':
			return Locator{}, refuse(where+" is "+quote(seg)+": a chain cannot hold a ref, a ref already names one node in one frame",
				hintAlone)
		case IsBareRef(seg):
			msg := where + " " + quote(seg) + " looks like a ref without its @"
			hint := "did you mean @" + seg + "?"
			if chain {
				hint += " " + hintAlone
			}
			return Locator{}, refuse(msg, hint)
		case strings.IndexByte(seg, 0) >= 0:
			return Locator{}, refuse(where+" holds a NUL byte", "remove the NUL from the selector")
		case len(seg) > MaxSegment:
			return Locator{}, refuse(where+" is "+strconv.Itoa(len(seg))+" bytes, over the limit of "+strconv.Itoa(MaxSegment),
				"use a shorter selector, or take a snapshot and act on a ref")
		}
	}
	return Locator{Chain: segs}, nil
}

// split cuts s at every Sep outside quotes and escapes and trims each
// segment. It stops as soon as the chain is too deep.
func split(s string) ([]string, error) {
	var segs []string
	start := 0
	var q byte // the open quote, or 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\':
			i++ // the next byte is escaped (a UTF-8 lead byte is never a quote, \ or >)
		case q != 0:
			if c == q {
				q = 0
			}
		case c == '"' || c == '\'':
			q = c
		case c == '>' && strings.HasPrefix(s[i:], Sep):
			if len(segs) == MaxDepth-1 {
				return nil, refuse("chain is more than "+strconv.Itoa(MaxDepth)+" segments deep",
					"no page nests iframes that deep: check the >>> separators")
			}
			segs = append(segs, strings.TrimSpace(s[start:i]))
			i += len(Sep) - 1
			start = i + 1
		}
	}
	return append(segs, strings.TrimSpace(s[start:])), nil
}

// parseRef reads "@eN": N from 1 up, decimal, no sign or leading zero,
// fitting in 64 bits.
func parseRef(s string) (uint64, error) {
	digits, ok := strings.CutPrefix(s, "@e")
	if !ok || digits == "" || !allDigits(digits) {
		if strings.Contains(s, Sep) {
			return 0, refuse(quote(s)+" starts with a ref: a chain cannot hold a ref, a ref already names one node in one frame",
				hintAlone)
		}
		return 0, refuse("malformed ref "+quote(s)+": a locator starting with @ must be @e and a number", hintRef)
	}
	if digits[0] == '0' {
		return 0, refuse("malformed ref "+quote(s)+": refs count from @e1 and have no leading zeros", hintRef)
	}
	n, err := strconv.ParseUint(digits, 10, 64)
	if err != nil {
		return 0, refuse("malformed ref "+quote(s)+": the number is too large for a ref", hintRef)
	}
	return n, nil
}

// IsBareRef reports whether s is e[1-9][0-9]*: a ref that lost its @, as
// Playwright-style refs come (e3; e0 and e07 are not refs). A locator
// refuses it with a hint; the MCP layer alone reads it as "@e3", since
// models trained on Playwright MCP send it. Checked by hand rather than
// with a regexp: linking package regexp alone costs every start of the
// binary, whatever the command (docs/cli-cost.md, "The CLI's fixed cost").
func IsBareRef(s string) bool {
	return len(s) >= 2 && s[0] == 'e' && s[1] != '0' && allDigits(s[1:])
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func refuse(msg, hint string) *protocol.Error {
	return &protocol.Error{Code: protocol.CodeInvalidLocator, Boundary: protocol.BoundaryPayload, Message: msg, Hint: hint}
}

// quote quotes s for a message, cut so a huge locator cannot flood it.
func quote(s string) string {
	const max = 60
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return strconv.Quote(s[:cut]) + "…"
	}
	return strconv.Quote(s)
}
