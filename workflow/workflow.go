// Package workflow is grip's recorded workflows (docs/workflows.md,
// "Recorded workflows"): what an agent did once, as a text file a person
// can read, edit and review — one step per line — and its replay with no
// model, which stops at the first step the page no longer matches instead
// of guessing.
//
// A file reads like this:
//
//	# grip workflow, recorded 2026-12-01 09:30 UTC (session cli)
//	# parameters: EMAIL, PASSWORD
//	navigate 'https://app.example/login'
//	fill textbox 'Email' with '{{EMAIL}}' at https://app.example
//	fill textbox 'Password' with '{{PASSWORD}}' at https://app.example
//	click button 'Sign in' at https://app.example then url 'https://app.example/home'
//	click button 'Edit' in 'Meeting notes' at https://app.example then appears dialog 'Rename'
//	press 'Enter'
//
// Each line is a verb (an action of protocol.Actions), then its target as a
// snapshot line reads it (role, 'name', in 'context'; or css 'selector'),
// its text after with, the origin of the frame the target was in after
// at, and the effect that followed after then: the page going to a URL, or
// an element appearing. Text in quotes may hold {{NAME}} placeholders,
// given at replay time; a secret field's text is only ever recorded as
// one.
package workflow

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
)

// Workflow is a parsed file: its steps in order, and the comment lines
// at its top (which Format writes back).
type Workflow struct {
	Comments []string
	Steps    []Step
}

// Step is one line of a workflow.
type Step struct {
	// Line is the step's line in the file it was parsed from (0 for a
	// step that was not).
	Line int
	// Verb is the action, a name of protocol.Actions.
	Verb string
	// Target is the element the action names; zero for a tab action or a
	// key pressed on the page.
	Target Target
	// To is drag's drop target.
	To Target
	// Text is the action's text (what is typed, the option, the key, the
	// URL), with {{NAME}} placeholders; HasText tells an empty text
	// from none.
	Text    string
	HasText bool
	// Origin is the origin of the frame the target was in, checked before
	// the step acts.
	Origin string
	// Effect is what followed the action when it was recorded; replay
	// waits for it.
	Effect Effect
}

// Target is an element as a snapshot line names it.
type Target struct {
	Role    string
	Name    string
	Context string
	// CSS is a selector, for a target the agent gave as CSS (no role or
	// name was seen).
	CSS string
}

// IsZero reports whether the target names nothing.
func (t Target) IsZero() bool { return t == Target{} }

// Locator is the target as an action's target: the snapshot-line form
// (`button 'Save'`, `button 'Edit' in 'Meeting notes'`) or the CSS.
func (t Target) Locator() string {
	if t.CSS != "" {
		return t.CSS
	}
	// The name is always quoted: '' is an element with none, and a role
	// alone would read as a CSS selector.
	var b strings.Builder
	b.WriteString(t.Role)
	b.WriteString(" ")
	b.WriteString(Quote(t.Name))
	if t.Context != "" {
		b.WriteString(" in ")
		b.WriteString(Quote(t.Context))
	}
	return b.String()
}

// String is the target as the file writes it: like Locator, but an
// element with no name as its role alone.
func (t Target) String() string {
	if t.CSS != "" {
		return "css " + Quote(t.CSS)
	}
	if t.Name == "" && t.Context == "" {
		return bareWord(t.Role)
	}
	return Target{Role: bareWord(t.Role), Name: t.Name, Context: t.Context}.Locator()
}

// Effect is what a step waits for after it acts.
type Effect struct {
	// URL is where the page went (with placeholders).
	URL string
	// Appears is an element that appeared.
	Appears Target
}

// IsZero reports whether the step waits for nothing.
func (e Effect) IsZero() bool { return e.URL == "" && e.Appears.IsZero() }

// placeholderAt returns the end of the placeholder that starts at s[i],
// or -1 where none does. A placeholder is {{NAME}}: NAME is ASCII
// letters, digits and underscores, starting with a letter. It is the
// regexp `\{\{([A-Za-z][A-Za-z0-9_]*)\}\}` read by hand (placeholder_test.go
// holds them equal): every grip start links this package, and linking
// package regexp alone costs every start (docs/cli-cost.md, "The
// CLI's fixed cost").
func placeholderAt(s string, i int) int {
	if !strings.HasPrefix(s[i:], "{{") {
		return -1
	}
	j := i + len("{{")
	if j == len(s) || !isASCIILetter(s[j]) {
		return -1
	}
	for j < len(s) && (isASCIILetter(s[j]) || '0' <= s[j] && s[j] <= '9' || s[j] == '_') {
		j++
	}
	if !strings.HasPrefix(s[j:], "}}") {
		return -1
	}
	return j + len("}}")
}

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// placeholders returns where s holds placeholders, each as its start and
// end: the leftmost first, each read on from the end of the one before.
func placeholders(s string) [][2]int {
	var found [][2]int
	for i := 0; i < len(s); i++ {
		if end := placeholderAt(s, i); end >= 0 {
			found = append(found, [2]int{i, end})
			i = end - 1
		}
	}
	return found
}

// literalBrace stands, in a template, for a { that is text, not the start
// of a placeholder: the file writes it \{. (A private-use character, which
// typed text does not hold.)
const literalBrace = '\uE000'

// Literal is the template of text taken as it is: every { that a second
// one follows becomes a literal brace, so no placeholder is read into it.
func Literal(text string) string {
	if !strings.Contains(text, "{{") {
		return text
	}
	r := []rune(text)
	for i := 0; i+1 < len(r); i++ {
		if r[i] == '{' && (r[i+1] == '{' || r[i+1] == literalBrace) {
			r[i] = literalBrace
		}
	}
	// The last { of a run is followed by a literal brace only from the
	// left; a right-to-left pass catches runs like {{{.
	for i := len(r) - 2; i >= 0; i-- {
		if r[i] == '{' && r[i+1] == literalBrace {
			r[i] = literalBrace
		}
	}
	return string(r)
}

// Params returns the names of the placeholders the workflow uses, in the
// order they first appear.
func (w *Workflow) Params() []string {
	var names []string
	add := func(s string) {
		for _, p := range placeholders(s) {
			if name := s[p[0]+2 : p[1]-2]; !slices.Contains(names, name) {
				names = append(names, name)
			}
		}
	}
	for _, s := range w.Steps {
		for _, v := range []string{s.Target.Name, s.Target.Context, s.Target.CSS, s.To.Name, s.To.Context, s.To.CSS,
			s.Text, s.Effect.URL, s.Effect.Appears.Name, s.Effect.Appears.Context} {
			add(v)
		}
	}
	return names
}

// Expand puts the parameters' values in place of their placeholders. A
// placeholder with no value is an error naming it.
func Expand(s string, params map[string]string) (string, error) {
	var missing []string
	var out strings.Builder
	done := 0
	for _, p := range placeholders(s) {
		out.WriteString(s[done:p[0]])
		done = p[1]
		name := s[p[0]+2 : p[1]-2]
		v, ok := params[name]
		if !ok {
			missing = append(missing, name)
			v = s[p[0]:p[1]]
		}
		out.WriteString(v)
	}
	out.WriteString(s[done:])
	if len(missing) > 0 {
		return "", fmt.Errorf("no value for {{%s}}: give it with --param %s=VALUE", missing[0], missing[0])
	}
	return strings.ReplaceAll(out.String(), string(literalBrace), "{"), nil
}

// ParamName turns a field's name into a placeholder's: "E-mail address"
// → E_MAIL_ADDRESS; "" or one with no letter → VALUE.
func ParamName(field string) string {
	var b strings.Builder
	under := false
	for _, r := range strings.ToUpper(field) {
		switch {
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9' && b.Len() > 0:
			if under && b.Len() > 0 {
				b.WriteByte('_')
			}
			under = false
			b.WriteRune(r)
		default:
			under = true
		}
		if b.Len() >= 40 {
			break
		}
	}
	if b.Len() == 0 {
		return "VALUE"
	}
	return b.String()
}

// URLForms are the ways a parameter's value shows in a URL: as typed,
// percent-escaped as a path or a query writes it, and with its spaces as
// underscores (a wiki's page names). A recording writes `then url` with
// the placeholder wherever one of them shows, and a replay matches the
// placeholder with any of them (docs/workflows.md).
func URLForms(v string) []string {
	under := strings.ReplaceAll(v, " ", "_")
	forms := []string{v, url.PathEscape(v), url.QueryEscape(v), under, url.PathEscape(under)}
	slices.SortStableFunc(forms, func(a, b string) int { return len(b) - len(a) })
	return slices.Compact(forms)
}

// URLPattern is the rule a `then url` template is matched by, as wait
// --url matches: the URL contains the template, each placeholder standing
// for one of its value's URLForms. Every placeholder must have a value.
func URLPattern(tpl string, params map[string]string) *URLRule {
	r := &URLRule{}
	unbrace := func(s string) string { return strings.ReplaceAll(s, string(literalBrace), "{") }
	done := 0
	for _, p := range placeholders(tpl) {
		r.literals = append(r.literals, unbrace(tpl[done:p[0]]))
		r.forms = append(r.forms, URLForms(params[tpl[p[0]+2:p[1]-2]]))
		done = p[1]
	}
	r.literals = append(r.literals, unbrace(tpl[done:]))
	return r
}

// URLRule is a `then url` template ready to match: literals[0], one of
// forms[0], literals[1], … in a row, anywhere in the URL. (By hand, not
// regexp: grip, which replays, links no regexp; cmd/grip/deps_*.txt.)
type URLRule struct {
	literals []string   // one more than forms
	forms    [][]string // each placeholder's URLForms
}

// MatchString says whether url holds the template with each placeholder
// in one of its forms.
func (r *URLRule) MatchString(url string) bool {
	for start := 0; start <= len(url); start++ {
		if r.matchAt(url, start, 0) {
			return true
		}
	}
	return false
}

// matchAt says whether url from i matches the rule's parts from k on.
func (r *URLRule) matchAt(url string, i, k int) bool {
	if !strings.HasPrefix(url[i:], r.literals[k]) {
		return false
	}
	i += len(r.literals[k])
	if k == len(r.forms) {
		return true
	}
	for _, f := range r.forms[k] {
		if strings.HasPrefix(url[i:], f) && r.matchAt(url, i+len(f), k+1) {
			return true
		}
	}
	return false
}
