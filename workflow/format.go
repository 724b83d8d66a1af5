package workflow

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/grip-dev/grip/protocol"
)

// MaxLine is the longest line Parse reads; a longer one is an error.
const MaxLine = 64 << 10

// ParseError is a line that does not read as a step.
type ParseError struct {
	Line int
	Msg  string
}

func (e *ParseError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Quote writes a template (see Literal) as the file quotes text: in single
// quotes, with ' and \ escaped and a literal brace as \{. Control
// characters, which would break the one-step-per-line format, are written
// as \n, \t or \u{…}.
func Quote(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for _, r := range s {
		switch {
		case r == literalBrace:
			b.WriteString(`\{`)
		case r == '\'' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f || r == 0x2028 || r == 0x2029 || (r >= 0x80 && r < 0xa0):
			fmt.Fprintf(&b, `\u{%x}`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// Format writes w as a file: its comments, then a line per step.
func Format(w *Workflow) string {
	var b strings.Builder
	for _, c := range w.Comments {
		b.WriteString("# ")
		b.WriteString(strings.Map(func(r rune) rune {
			if r < 0x20 || r == 0x7f || r == 0x2028 || r == 0x2029 {
				return ' '
			}
			return r
		}, c))
		b.WriteByte('\n')
	}
	for _, s := range w.Steps {
		b.WriteString(FormatStep(s))
		b.WriteByte('\n')
	}
	return b.String()
}

// FormatStep is one step's line.
func FormatStep(s Step) string {
	parts := []string{s.Verb}
	if !s.Target.IsZero() {
		parts = append(parts, s.Target.String())
	}
	if !s.To.IsZero() {
		parts = append(parts, "to", s.To.String())
	}
	if s.HasText {
		if s.Target.IsZero() {
			parts = append(parts, Quote(s.Text))
		} else {
			parts = append(parts, "with", Quote(s.Text))
		}
	}
	if s.Origin != "" {
		parts = append(parts, "at", s.Origin)
	}
	switch {
	case s.Effect.URL != "":
		parts = append(parts, "then url", Quote(s.Effect.URL))
	case !s.Effect.Appears.IsZero():
		parts = append(parts, "then appears", s.Effect.Appears.String())
	}
	return strings.Join(parts, " ")
}

// Parse reads a workflow file. Blank lines and lines starting with # are
// comments; the comments before the first step are kept.
func Parse(r io.Reader) (*Workflow, error) {
	w := &Workflow{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), MaxLine)
	n := 0
	for sc.Scan() {
		n++
		line := strings.TrimSpace(strings.TrimSuffix(sc.Text(), "\r"))
		if !utf8.ValidString(line) {
			return nil, &ParseError{Line: n, Msg: "the line is not UTF-8 text"}
		}
		if line == "" {
			continue
		}
		if strings.HasPrefix(line, "#") {
			if len(w.Steps) == 0 {
				w.Comments = append(w.Comments, strings.TrimSpace(strings.TrimPrefix(line, "#")))
			}
			continue
		}
		s, err := ParseStep(line)
		if err != nil {
			return nil, &ParseError{Line: n, Msg: err.Error()}
		}
		s.Line = n
		w.Steps = append(w.Steps, s)
	}
	if err := sc.Err(); err != nil {
		if err == bufio.ErrTooLong {
			return nil, &ParseError{Line: n + 1, Msg: fmt.Sprintf("the line is longer than %d bytes", MaxLine)}
		}
		return nil, err
	}
	if len(w.Steps) == 0 {
		return nil, &ParseError{Line: n, Msg: "the file has no steps"}
	}
	return w, nil
}

// token is a word of a line: bare, or quoted (its text unescaped).
type token struct {
	text   string
	quoted bool
}

// tokens splits a line into words and quoted texts.
func tokens(line string) ([]token, error) {
	var out []token
	for i := 0; i < len(line); {
		switch c := line[i]; {
		case c == ' ' || c == '\t':
			i++
		case c == '\'':
			var b strings.Builder
			j := i + 1
			for {
				if j >= len(line) {
					return nil, fmt.Errorf("a quote opened at column %d is not closed", i+1)
				}
				if line[j] == '\'' {
					j++
					break
				}
				if line[j] != '\\' {
					b.WriteByte(line[j])
					j++
					continue
				}
				if j+1 >= len(line) {
					return nil, fmt.Errorf("a \\ ends the line at column %d", j+1)
				}
				switch e := line[j+1]; e {
				case '\'', '\\':
					b.WriteByte(e)
					j += 2
				case '{':
					b.WriteRune(literalBrace)
					j += 2
				case 'n':
					b.WriteByte('\n')
					j += 2
				case 't':
					b.WriteByte('\t')
					j += 2
				case 'u':
					end := strings.IndexByte(line[j:], '}')
					var r rune
					if !strings.HasPrefix(line[j:], `\u{`) || end < 0 {
						return nil, fmt.Errorf("bad \\u escape at column %d: write \\u{hex}", j+1)
					}
					if _, err := fmt.Sscanf(line[j+3:j+end], "%x", &r); err != nil || r > 0x10ffff {
						return nil, fmt.Errorf("bad \\u escape at column %d: write \\u{hex}", j+1)
					}
					b.WriteRune(r)
					j += end + 1
				default:
					return nil, fmt.Errorf("unknown escape \\%c at column %d (inside quotes write \\' \\\\ \\n \\t \\{ or \\u{hex})", e, j+1)
				}
			}
			if j < len(line) && line[j] != ' ' && line[j] != '\t' {
				return nil, fmt.Errorf("a space must follow the quote that ends at column %d", j)
			}
			out = append(out, token{b.String(), true})
			i = j
		default:
			j := strings.IndexAny(line[i:], " \t")
			if j < 0 {
				j = len(line) - i
			}
			word := line[i : i+j]
			if strings.ContainsRune(word, '\'') {
				return nil, fmt.Errorf("%q: a quote must start a word", word)
			}
			out = append(out, token{word, false})
			i += j
		}
	}
	return out, nil
}

// keywords start a clause; a role is any other bare word.
var keywords = map[string]bool{"to": true, "with": true, "at": true, "then": true, "in": true}

// ParseStep reads one step's line.
func ParseStep(line string) (Step, error) {
	toks, err := tokens(line)
	if err != nil {
		return Step{}, err
	}
	if len(toks) == 0 {
		return Step{}, fmt.Errorf("empty step")
	}
	p := &stepParser{toks: toks}
	verb := p.next()
	if verb.quoted {
		return Step{}, fmt.Errorf("a step starts with its verb (click, fill, navigate…), not a quoted text")
	}
	spec, ok := protocol.LookupAction(verb.text)
	if !ok {
		return Step{}, fmt.Errorf("unknown verb %q", verb.text)
	}
	s := Step{Verb: spec.Name}
	if spec.Target != protocol.TargetNone {
		if t, ok, err := p.target(); err != nil {
			return Step{}, err
		} else if ok {
			s.Target = t
		}
	}
	if s.Target.IsZero() && p.peekQuoted() {
		s.Text, s.HasText = p.next().text, true
	}
	for p.more() {
		kw := p.next()
		if kw.quoted || !keywords[kw.text] || kw.text == "in" {
			return Step{}, fmt.Errorf("%q: expected with, at, to or then", kw.text)
		}
		switch kw.text {
		case "to":
			t, ok, err := p.target()
			if err != nil {
				return Step{}, err
			}
			if !ok || !spec.To {
				return Step{}, fmt.Errorf("to names drag's drop target: drag TARGET to TARGET")
			}
			s.To = t
		case "with":
			if !p.peekQuoted() {
				return Step{}, fmt.Errorf("with takes a quoted text: with 'hello'")
			}
			s.Text, s.HasText = p.next().text, true
		case "at":
			o := p.next()
			if o.text == "" || o.quoted || keywords[o.text] {
				return Step{}, fmt.Errorf("at takes the origin of the target's frame: at https://app.example")
			}
			s.Origin = o.text
		case "then":
			what := p.next()
			switch {
			case what.text == "url" && !what.quoted && p.peekQuoted():
				s.Effect.URL = p.next().text
			case what.text == "appears" && !what.quoted:
				t, ok, err := p.target()
				if err != nil {
					return Step{}, err
				}
				if !ok {
					return Step{}, fmt.Errorf("then appears takes an element: then appears dialog 'Rename'")
				}
				s.Effect.Appears = t
			default:
				return Step{}, fmt.Errorf("then takes url 'URL' or appears ROLE 'NAME'")
			}
		}
	}
	if spec.Target == protocol.TargetRequired && s.Target.IsZero() {
		return Step{}, fmt.Errorf("%s needs a target: %s ROLE 'NAME'", s.Verb, s.Verb)
	}
	if spec.To && s.To.IsZero() {
		return Step{}, fmt.Errorf("%s needs a drop target: %s TARGET to TARGET", s.Verb, s.Verb)
	}
	if spec.Text == "" && s.HasText && spec.Name != protocol.ActUpload {
		return Step{}, fmt.Errorf("%s takes no text", s.Verb)
	}
	if (spec.Name == protocol.ActNavigate || spec.Name == protocol.ActPress) && !s.HasText {
		return Step{}, fmt.Errorf("%s needs its %s in quotes", s.Verb, strings.ToLower(spec.Text))
	}
	return s, nil
}

type stepParser struct {
	toks []token
	i    int
}

func (p *stepParser) more() bool { return p.i < len(p.toks) }

func (p *stepParser) next() token {
	if p.i >= len(p.toks) {
		return token{}
	}
	t := p.toks[p.i]
	p.i++
	return t
}

func (p *stepParser) peekQuoted() bool { return p.i < len(p.toks) && p.toks[p.i].quoted }

// target reads ROLE ['NAME'] [in 'CONTEXT'] or css 'SELECTOR', if the
// next word starts one.
func (p *stepParser) target() (Target, bool, error) {
	if !p.more() || p.toks[p.i].quoted || keywords[p.toks[p.i].text] {
		return Target{}, false, nil
	}
	role := p.next().text
	if role == "css" {
		if !p.peekQuoted() {
			return Target{}, false, fmt.Errorf("css takes a quoted selector: css '#save'")
		}
		return Target{CSS: p.next().text}, true, nil
	}
	t := Target{Role: role}
	if p.peekQuoted() {
		t.Name = p.next().text
	}
	if p.more() && !p.toks[p.i].quoted && p.toks[p.i].text == "in" {
		p.next()
		if !p.peekQuoted() {
			return Target{}, false, fmt.Errorf("in takes the quoted name of the element's context: in 'Invoices'")
		}
		t.Context = p.next().text
	}
	return t, true, nil
}
