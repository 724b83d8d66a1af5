package workflow

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/grip-dev/grip/protocol"
)

// MaxLine is the longest line Parse reads; a longer one is an error.
const MaxLine = 64 << 10

// Header is a workflow file's first line. Parse reads only a file that
// starts with it, so a file that is not a workflow (a token, an
// environment, a key) is refused without a word of it being read back,
// and a shell or editor that opens a workflow sees a comment first
// (docs/workflows.md, "Recorded workflows").
const Header = "# grip workflow"

// MaxFile is the largest workflow file Read reads.
const MaxFile = 4 << 20

// ErrNotWorkflow is a file whose first line is not Header. Its message
// quotes nothing of the file.
var ErrNotWorkflow = errors.New("the file does not start with the line \"" + Header + "\", so grip does not read it as a workflow " +
	"(a workflow recorded before grip wrote that line: add it as the file's first line)")

// ErrTooLarge is a workflow file larger than MaxFile.
var ErrTooLarge = fmt.Errorf("the file is larger than %d bytes, more than a workflow holds", MaxFile)

// ParseError is a line that does not read as a step.
type ParseError struct {
	Line int
	Msg  string
}

func (e *ParseError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// Quote writes a template (see Literal) as the file quotes text: in single
// quotes, with \ escaped as \\, a literal brace as \{ and a quote as
// \u{27}, never \': no byte of a value can end the quote for a shell
// that sources the file by mistake, inside whose single quotes nothing
// but ' is special. Control characters, which would break the
// one-step-per-line format, are written as \n, \t or \u{…}; so are the
// ':' of "vim:", "vi:", "ex:" and "Variables:" and the '*' of "-*-", which
// an editor could read as a modeline or a file-variables line.
func Quote(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for i, r := range s {
		switch {
		case r == literalBrace:
			b.WriteString(`\{`)
		case r == '\'':
			b.WriteString(`\u{27}`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == ':' && editorWord(s[:i]), r == '*' && strings.HasSuffix(s[:i], "-") && strings.HasPrefix(s[i+1:], "-"):
			fmt.Fprintf(&b, `\u{%x}`, r)
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

// editorWord says whether before ends with a word an editor reads a
// modeline or file-variables line by when a ':' follows it: vi, vim, ex,
// Vim's versioned vim600 or vim>700 (any case), or Emacs' "Variables".
func editorWord(before string) bool {
	i := len(before)
	for i > 0 && isWordByte(before[i-1]) {
		i--
	}
	w := strings.ToLower(before[i:])
	if w == "vi" || w == "vim" || w == "ex" || strings.HasSuffix(w, "variables") {
		return true
	}
	v, ok := strings.CutPrefix(w, "vim")
	v = strings.TrimLeft(v, "<=>")
	return ok && v != "" && strings.Trim(v, "0123456789") == ""
}

func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '<' || c == '=' || c == '>'
}

// bareWord keeps a word the file writes without quotes (a role, an
// origin) to letters, digits and - _ . : / [ ] @ +, none of which a shell
// reads as more than text in the middle of a word; any other rune becomes
// '_', so the step no longer matches the page and replay stops there
// rather than a shell reading it.
func bareWord(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case 'a' <= r && r <= 'z', 'A' <= r && r <= 'Z', '0' <= r && r <= '9', strings.ContainsRune("-_.:/[]@+", r):
			return r
		}
		return '_'
	}, s)
}

// Format writes w as a file: the Header line, its comments, then a line
// per step.
func Format(w *Workflow) string {
	var b strings.Builder
	b.WriteString(Header + "\n")
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
		parts = append(parts, "at", bareWord(s.Origin))
	}
	switch {
	case s.Effect.URL != "":
		parts = append(parts, "then url", Quote(s.Effect.URL))
	case !s.Effect.Appears.IsZero():
		parts = append(parts, "then appears", s.Effect.Appears.String())
	}
	return strings.Join(parts, " ")
}

// Read reads a workflow file of at most MaxFile bytes from r and parses
// it; a larger one is ErrTooLarge, read no further.
func Read(r io.Reader) (*Workflow, error) {
	b, err := io.ReadAll(io.LimitReader(r, MaxFile+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxFile {
		return nil, ErrTooLarge
	}
	return Parse(strings.NewReader(string(b)))
}

// Parse reads a workflow file: its first line is Header (else
// ErrNotWorkflow, before any other line is read). Blank lines and lines
// starting with # are comments; the comments before the first step are
// kept.
func Parse(r io.Reader) (*Workflow, error) {
	w := &Workflow{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), MaxLine)
	if !sc.Scan() || strings.TrimRight(strings.TrimPrefix(strings.TrimSuffix(sc.Text(), "\r"), "\ufeff"), " \t") != Header { // a BOM an editor added is not a difference
		return nil, ErrNotWorkflow
	}
	n := 1
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
			if o.text == "" || o.quoted || keywords[o.text] || bareWord(o.text) != o.text {
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
	if bareWord(role) != role {
		return Target{}, false, fmt.Errorf("a role is letters, digits and - _ . : / [ ] @ +")
	}
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
