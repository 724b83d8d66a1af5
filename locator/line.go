package locator

import (
	"strings"
)

// Line is a target written the way a snapshot line reads an element:
//
//	button 'Save'
//	button 'Edit' in 'Meeting notes'
//	[button 'Edit' in 'Meeting notes']
//
// A target is a Line when, trimmed, it is a role (lowercase letters), one
// space and a quoted name — ” names an element that has none, as a
// snapshot line shows it without a name ([textbox]) — optionally followed
// by " in " and a quoted context, the whole optionally in square brackets; quotes are ' with \'
// and \\ escaped, as snapshots print them. No CSS selector has that form (a
// quoted string outside an attribute selector is not CSS), so every other
// target stays CSS.
type Line struct {
	Role    string
	Name    string
	Context string // "" when the target gives none
}

// String writes l back the way a snapshot line reads it.
func (l Line) String() string {
	s := l.Role + " " + quoteLine(l.Name)
	if l.Context != "" {
		s += " in " + quoteLine(l.Context)
	}
	return s
}

func quoteLine(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

// ParseLine reads s as a Line; ok is false when s does not have a line's
// form (it is then a CSS selector or a ref).
func ParseLine(s string) (Line, bool) {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	i := 0
	for i < len(s) && s[i] >= 'a' && s[i] <= 'z' {
		i++
	}
	if i == 0 || i+1 >= len(s) || s[i] != ' ' || s[i+1] != '\'' {
		return Line{}, false
	}
	l := Line{Role: s[:i]}
	name, rest, ok := quoted(s[i+1:])
	if !ok || name != "" && strings.TrimSpace(name) == "" {
		return Line{}, false
	}
	l.Name = name
	if rest == "" {
		return l, true
	}
	after, found := strings.CutPrefix(rest, " in ")
	if !found {
		return Line{}, false
	}
	ctx, rest, ok := quoted(strings.TrimLeft(after, " "))
	if !ok || rest != "" || strings.TrimSpace(ctx) == "" {
		return Line{}, false
	}
	l.Context = ctx
	return l, true
}

// quoted reads the quoted text at the start of s and returns it unescaped
// and what follows it.
func quoted(s string) (text, rest string, ok bool) {
	if s == "" || s[0] != '\'' {
		return "", "", false
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			if i+1 >= len(s) {
				return "", "", false
			}
			i++
			if s[i] == 'n' {
				b.WriteByte('\n') // a line break, as a snapshot line writes it
			} else {
				b.WriteByte(s[i])
			}
		case '\'':
			return b.String(), s[i+1:], true
		default:
			b.WriteByte(c)
		}
	}
	return "", "", false
}
