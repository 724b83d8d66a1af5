package frames

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/grip-dev/grip/protocol"
)

// ReadPart is what RenderRead is given: a part of one element's whole
// text, as the kernel read it, starting at character From of Total.
type ReadPart struct {
	Tab protocol.TabRef
	// Line is the element's snapshot line, printed under the tab header.
	Line string
	// Content is the text from From on; it may stop before the end of the
	// whole text (the kernel sends no more than a budget can show).
	Content string
	From    int
	Total   int
	// Secret: the element is a field whose value grip never reads.
	Secret bool
	// Secrets counts such fields inside the element, left out.
	Secrets int
	// ReadOn is the command that reads on, without its --from: "grip
	// read @e5" (and " --budget N" when it is not the default).
	ReadOn string
}

// ReadQuote starts every line of the element's text in a read, so that no
// text of the page can pass for a line of grip's own (a header, a
// trailer).
const ReadQuote = "| "

// minReadRunes is what a read shows of the text however small the budget,
// so that reading on always moves forward.
const minReadRunes = 20

// RenderRead writes one read of an element's text (docs/reading.md,
// "Reading one element") within budget tokens (0: protocol.DefaultBudget):
//
//	Tab 412 · 'Terms' · https://shop.example/terms
//	@e5: [text 'These terms apply to every order placed on…']
//	| These terms apply to every order placed on this site. By ordering
//	| you accept
//	… 5432 more characters (grip read @e5 --from 4000)
//
// Each line of the text is quoted with ReadQuote, control characters and
// direction overrides shown as spaces; a line that does not fit is cut at a
// space where one is near the cut. Lines cost as a snapshot's do (Cost);
// the header and the element's line are printed whatever the budget, and
// at least a few characters of the text, so paging moves forward.
// The result's Content is the part shown, To where it ends.
func RenderRead(p ReadPart, budget int) (protocol.ReadResult, error) {
	if budget == 0 {
		budget = protocol.DefaultBudget
	}
	if budget < 0 || p.From < 0 {
		return protocol.ReadResult{}, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"give a positive --budget and --from", "read budget %d, from %d", budget, p.From)
	}
	var b strings.Builder
	used := 0
	line := func(s string) {
		b.WriteString(s)
		b.WriteByte('\n')
		used += Cost(s)
	}
	line(string(appendTabHeader(nil, p.Tab)))
	line(p.Line)
	res := protocol.ReadResult{Tab: p.Tab, Line: p.Line, From: p.From, To: p.From, Total: p.Total,
		Secret: p.Secret, Secrets: p.Secrets, Budget: budget}
	switch {
	case p.Secret:
		line("(a field whose value grip never reads: a password, a one-time code or a card number)")
	case p.Total == 0:
		line("(no text)")
	case p.From >= p.Total:
		line("(the text ends at character " + strconv.Itoa(p.Total) + ": nothing from " + strconv.Itoa(p.From) + " on)")
	default:
		// The trailer's cost at its longest: every count as long as Total.
		reserve := Cost(readTrailer(p.Total, p.Total, p.ReadOn))
		if p.Secrets > 0 {
			reserve += Cost(secretsLine(p.Secrets))
		}
		shown := fitRead(&b, &used, p.Content, budget-reserve)
		res.Content = p.Content[:shown.bytes]
		res.To = p.From + shown.runes
	}
	if p.Secrets > 0 {
		line(secretsLine(p.Secrets))
	}
	if res.To > p.From && res.To < p.Total {
		res.Omitted = p.Total - res.To
		res.Next = res.To
		res.More = p.ReadOn + " --from " + strconv.Itoa(res.Next)
		line(readTrailer(res.Omitted, res.Next, p.ReadOn))
	}
	res.Tokens = used
	res.Text = b.String()
	return res, nil
}

// readTrailer is "… N more characters (grip read @e5 --from K)".
func readTrailer(omitted, next int, readOn string) string {
	what := " more characters ("
	if omitted == 1 {
		what = " more character ("
	}
	return "… " + strconv.Itoa(omitted) + what + readOn + " --from " + strconv.Itoa(next) + ")"
}

func secretsLine(n int) string {
	if n == 1 {
		return "(1 field whose value grip never reads was left out)"
	}
	return "(" + strconv.Itoa(n) + " fields whose values grip never reads were left out)"
}

// readShown is how much of a read's content was printed.
type readShown struct{ bytes, runes int }

// fitRead prints content's lines, quoted, while they fit allowance tokens
// (counting *used), and returns how much of content it printed: whole
// lines, then the part of the next one that fits, cut after a space when
// one is in its last quarter; at least minReadRunes runes.
func fitRead(b *strings.Builder, used *int, content string, allowance int) readShown {
	var done readShown
	rest := content
	for rest != "" {
		text, after, more := strings.Cut(rest, "\n")
		n := utf8.RuneCountInString(text)
		cost := (utf8.RuneCountInString(ReadQuote) + n + 2) / 3
		if *used+cost <= allowance || (done.runes == 0 && n <= minReadRunes) {
			*used += writeReadLine(b, text)
			done.bytes += len(text)
			done.runes += n
			if more {
				done.bytes++ // the line break
				done.runes++
			}
			rest = after
			continue
		}
		// A part of the line: what the allowance leaves, in runes.
		room := (allowance-*used)*3 - utf8.RuneCountInString(ReadQuote)
		if done.runes == 0 {
			room = max(room, minReadRunes)
		}
		if room <= 0 {
			break
		}
		cut := cutAt(text, room)
		if cut == 0 {
			break
		}
		part := text[:cut]
		*used += writeReadLine(b, part)
		done.bytes += cut
		done.runes += utf8.RuneCountInString(part)
		break
	}
	return done
}

// cutAt is the byte length of the first room runes of s, less the end of
// a word cut in two when a space is in its last quarter (the space stays
// with the part shown, so the next part starts with a word).
func cutAt(s string, room int) int {
	end, n := 0, 0
	lastSpace := -1
	for i, r := range s {
		if n == room {
			break
		}
		end = i + utf8.RuneLen(r)
		n++
		if r == ' ' {
			lastSpace = end
		}
	}
	if end < len(s) && lastSpace > 0 && utf8.RuneCountInString(s[:lastSpace]) >= room*3/4 {
		return lastSpace
	}
	return end
}

// writeReadLine writes one line of an element's text, quoted, with
// control characters and direction marks as spaces (the same runes
// appendFolded folds) and no space at its end, and returns its cost.
func writeReadLine(b *strings.Builder, s string) int {
	var l strings.Builder
	l.WriteString(ReadQuote)
	for _, r := range s {
		if r != ' ' && isFold(r) {
			r = ' '
		}
		l.WriteRune(r)
	}
	out := strings.TrimRight(l.String(), " ")
	b.WriteString(out)
	b.WriteByte('\n')
	return Cost(out)
}
