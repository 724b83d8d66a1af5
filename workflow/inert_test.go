package workflow

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// modeline finds what Vim or Emacs could read as a modeline or a file
// variables line.
var modeline = regexp.MustCompile(`(?i)(^|[^a-z0-9<=>])(vi|vim|ex|vim[<=>]?[0-9]+):|-\*-|variables:`)

// hostile are typed values that try to end their quoting and run code in
// a shell that sources the file: each would create a file whose name
// starts with PWNED.
var hostile = []string{
	`';echo>PWNED1;#`,
	`\';echo>PWNED2;#`,
	`$(echo>PWNED3)`,
	"`echo>PWNED4`",
	`'$(echo>PWNED5)'`,
	"x\\",
	"a\n;echo>PWNED6;#",
	"a\r\necho>PWNED7",
	`"; echo>PWNED8; "`,
	`''';echo>PWNED9;'`,
	"\u2028echo>PWNED10",
	`{{X}}';echo>PWNED11;#`,
}

// hostileWorkflow puts every hostile value in every place a step writes
// text: typed text, names, contexts, selectors, URLs, keys, comments, and
// the bare words (role, origin) a page could spell.
func hostileWorkflow() *Workflow {
	w := &Workflow{Comments: []string{"recorded\n;echo>PWNED_C;#"}}
	for _, v := range hostile {
		w.Steps = append(w.Steps,
			Step{Verb: "type", Target: Target{Role: "textbox", Name: v, Context: v}, Text: Literal(v), HasText: true, Origin: "https://a.example" + v},
			Step{Verb: "fill", Target: Target{CSS: Literal(v)}, Text: Literal(v), HasText: true},
			Step{Verb: "navigate", Text: Literal(v), HasText: true, Effect: Effect{URL: Literal(v)}},
			Step{Verb: "press", Text: Literal(v), HasText: true},
			Step{Verb: "click", Target: Target{Role: "button" + v, Name: "x"}, Effect: Effect{Appears: Target{Role: "dialog", Name: v}}},
			Step{Verb: "check", Target: Target{Role: "checkbox" + v}},
		)
	}
	return w
}

// A recorded workflow sourced by bash or sh by mistake runs nothing a
// value says: no quote a value holds ends the file's quoting, so each
// line is its verb's word with literal arguments. Every line is sourced
// alone too, so that a line a shell cannot parse does not hide the ones
// after it.
func TestWorkflowIsInertToShells(t *testing.T) {
	w := hostileWorkflow()
	text := Format(w)
	if !strings.HasPrefix(text, Header+"\n") {
		t.Fatalf("the file does not start with %q:\n%s", Header, text)
	}
	back, err := Parse(strings.NewReader(text))
	if err != nil {
		t.Fatalf("the file does not read back: %v\n%s", err, text)
	}
	for i := range back.Steps {
		back.Steps[i].Line = 0
	}
	for i, s := range w.Steps { // roles and origins a shell could read are changed
		s.Target.Role, s.To.Role, s.Effect.Appears.Role, s.Origin = bareWord(s.Target.Role), bareWord(s.To.Role), bareWord(s.Effect.Appears.Role), bareWord(s.Origin)
		if !reflect.DeepEqual(back.Steps[i], s) {
			t.Errorf("step %d reads back as\n%+v\nwant\n%+v", i, back.Steps[i], s)
		}
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	scripts := []string{text}
	for _, l := range lines[1:] {
		scripts = append(scripts, Header+"\n"+l+"\n")
	}
	for _, shell := range []string{"bash", "sh"} {
		path, err := exec.LookPath(shell)
		if err != nil {
			t.Logf("no %s here: %v", shell, err)
			continue
		}
		dir := t.TempDir()
		for i, script := range scripts {
			name := filepath.Join(dir, "flow.grip")
			os.Remove(name)
			if err := os.WriteFile(name, []byte(script), 0o600); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			cmd := exec.CommandContext(ctx, path, "-c", "set +e; . ./flow.grip")
			cmd.Dir = dir
			cmd.Stdin = strings.NewReader("")
			out, _ := cmd.CombinedOutput()
			cancel()
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				if e.Name() != "flow.grip" {
					t.Errorf("%s sourcing script %d made %s:\n%s\noutput:\n%s", shell, i, e.Name(), script, out)
					os.Remove(filepath.Join(dir, e.Name()))
				}
			}
		}
	}
}

// No value writes a quote, and none writes an editor's modeline or
// file-variables marker.
func TestQuoteWritesNoShellQuoteNorModeline(t *testing.T) {
	for _, v := range append(hostile, "vim: set ft=sh:", " vi:x", "ex:y", "a VIM600:z", "x vim>703: set", "-*- mode: sh -*-", "Local Variables:") {
		q := Quote(v)
		inner := q[1 : len(q)-1]
		if strings.ContainsRune(inner, '\'') {
			t.Errorf("Quote(%q) = %s holds a quote", v, q)
		}
		if modeline.MatchString(inner) {
			t.Errorf("Quote(%q) = %s holds a modeline marker", v, q)
		}
		if s, err := ParseStep("press " + q); err != nil || s.Text != v {
			t.Errorf("Quote(%q) = %s reads back as %q, %v", v, q, s.Text, err)
		}
	}
}

// A file that is not a workflow is refused by its first line, and the
// refusal quotes nothing of it; nor does a file over MaxFile get read.
func TestReadRefusesWhatIsNotAWorkflow(t *testing.T) {
	secrets := []string{
		"HOME=/home/x\x00GRIP_TOKEN=s3cret-token\x00PATH=/bin\x00", // like /proc/self/environ
		"s3cret-token\n",
		"navigate 's3cret-token'\n", // a workflow from before the header
		"s3cret-token " + Header + "\n",
		"\n" + Header + "\nnavigate 's3cret-token'\n",
	}
	for _, s := range secrets {
		_, err := Read(strings.NewReader(s))
		if err != ErrNotWorkflow {
			t.Errorf("Read(%q) = %v, want ErrNotWorkflow", s, err)
			continue
		}
		if strings.Contains(err.Error(), "s3cret") || strings.Contains(err.Error(), "navigate") {
			t.Errorf("the refusal quotes the file: %v", err)
		}
	}
	big := Header + "\n" + strings.Repeat("back\n", MaxFile/5+1)
	if _, err := Read(strings.NewReader(big)); err != ErrTooLarge {
		t.Errorf("a file over MaxFile: %v", err)
	}
	for _, text := range []string{Header + "\r\nback\n", "\ufeff" + Header + "\nback\n"} {
		if w, err := Read(strings.NewReader(text)); err != nil || len(w.Steps) != 1 {
			t.Errorf("Read(%q): %v", text, err)
		}
	}
}

// FuzzQuote: whatever the text, its quoted form holds no quote inside,
// no modeline marker, no line break, and reads back as the text.
func FuzzQuote(f *testing.F) {
	for _, v := range hostile {
		f.Add(v)
	}
	f.Add("vim: set ft=sh:")
	f.Add("index: 1")
	f.Fuzz(func(t *testing.T, v string) {
		if !utf8.ValidString(v) {
			return
		}
		q := Quote(v)
		inner := q[1 : len(q)-1]
		if strings.ContainsAny(inner, "'\n\r") || modeline.MatchString(inner) {
			t.Fatalf("Quote(%q) = %s", v, q)
		}
		s, err := ParseStep("press " + q)
		if err != nil || s.Text != v {
			t.Fatalf("Quote(%q) = %s reads back as %q, %v", v, q, s.Text, err)
		}
	})
}
