package host

import (
	"strings"
	"testing"

	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/workflow"
)

// TestRecordingKeepsValuesOut: a secret field's text and a named
// parameter's become placeholders, and a later name or URL that shows a
// parameter's value records the placeholder there too; no value is in the
// text the recording stops with.
func TestRecordingKeepsValuesOut(t *testing.T) {
	rec := &recording{session: "cli", values: map[string]string{}}
	step := func(verb, role, name, text, param string, secret bool) workflow.Step {
		a := &action{args: protocol.ActArgs{Action: verb, Text: text, Param: param}, secret: secret}
		seen := &seenTarget{el: protocol.Element{Role: role, Name: name}}
		s := workflow.Step{Verb: verb, Target: rec.target(seen.el), Text: rec.text(a, seen), HasText: true}
		rec.steps = append(rec.steps, s)
		return s
	}
	if s := step("fill", "textbox", "Email", "ann@example.com", "EMAIL", false); s.Text != "{{EMAIL}}" {
		t.Errorf("a named parameter: %q", s.Text)
	}
	if s := step("fill", "textbox", "Password", "hunter2!", "", true); s.Text != "{{PASSWORD}}" {
		t.Errorf("a secret field: %q", s.Text)
	}
	if s := step("fill", "textbox", "PIN code", "4321", "", false); s.Text != "{{PIN_CODE}}" {
		t.Errorf("a field named like a secret: %q", s.Text)
	}
	if s := step("fill", "textbox", "Note", "see {{x}}", "", false); s.Text != workflow.Literal("see {{x}}") {
		t.Errorf("plain text with braces: %q", s.Text)
	}
	s := step("click", "link", "Statements of ann@example.com", "", "", false)
	if s.Target.Name != "Statements of {{EMAIL}}" {
		t.Errorf("a name showing a parameter's value: %q", s.Target.Name)
	}
	if got := rec.substitute(workflow.Literal("https://bank.example/u/ann@example.com/home")); got != "https://bank.example/u/{{EMAIL}}/home" {
		t.Errorf("a URL showing a parameter's value: %q", got)
	}
	text := workflow.Format(rec.workflow())
	for _, v := range []string{"ann@example.com", "hunter2!", "4321"} {
		if strings.Contains(text, v) {
			t.Errorf("the workflow holds %q:\n%s", v, text)
		}
	}
}

// TestSalientEffect: what a step waits for after it acts is what best
// says what the action made appear.
func TestSalientEffect(t *testing.T) {
	els := []protocol.Element{{Role: "button", Name: ""}, {Role: "link", Name: "Help"}, {Role: "dialog", Name: "Rename"}}
	if el, ok := salient(els); !ok || el.Role != "dialog" {
		t.Errorf("salient = %+v, want the dialog", el)
	}
	if el, ok := salient(els[:2]); !ok || el.Name != "Help" {
		t.Errorf("salient = %+v, want the first named", el)
	}
	if _, ok := salient([]protocol.Element{{Role: "button"}}); ok {
		t.Error("an element with no name was chosen")
	}
}
