package host

import (
	"context"
	"strings"
	"testing"

	"github.com/grip-dev/grip/launcher"
	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/workflow"
)

// The person's steps become a workflow an agent's recording could have
// made: targets with contexts and origins, effects, a password as a
// placeholder, a value the person marked as a parameter replaced where it
// shows again, a file as a parameter naming no path, and nothing of a
// site the policy blocks.
func TestPersonStepsBecomeAWorkflow(t *testing.T) {
	p, err := policy.Parse([]byte("block pay.example\n"))
	if err != nil {
		t.Fatal(err)
	}
	app := "https://app.example/login"
	steps := []protocol.PersonStep{
		{Verb: "navigate", Text: app, TabURL: "about:blank", AfterURL: app},
		{Verb: "fill", Target: &protocol.PersonTarget{Role: "textbox", Name: "Email"}, Text: "ann@example.com", HasText: true, Param: "EMAIL", FrameURL: app, TabURL: app},
		{Verb: "fill", Target: &protocol.PersonTarget{Role: "textbox", Name: "Password"}, Secret: true, HasText: true, FrameURL: app, TabURL: app},
		{Verb: "fill", Target: &protocol.PersonTarget{Role: "textbox", Name: "API token"}, Text: "tok-123456", HasText: true, FrameURL: app, TabURL: app},
		{Verb: "click", Target: &protocol.PersonTarget{Role: "button", Name: "Sign in"}, FrameURL: app, TabURL: app, AfterURL: "https://app.example/home?s=1"},
		{Verb: "click", Target: &protocol.PersonTarget{Role: "button", Name: "Edit", Ctx: "Notes of ann@example.com"}, FrameURL: "https://app.example/home", TabURL: "https://app.example/home",
			Appeared: &protocol.PersonTarget{Role: "dialog", Name: "Rename"}},
		{Verb: "upload", Target: &protocol.PersonTarget{Role: "button", Name: "Attachment"}, File: true, FrameURL: "https://app.example/home", TabURL: "https://app.example/home"},
		{Verb: "click", Target: &protocol.PersonTarget{Role: "button", Name: "Pay"}, FrameURL: "https://pay.example/", TabURL: "https://app.example/home"},
		{Verb: "click", Target: &protocol.PersonTarget{Role: "button", Name: "Buy"}, FrameURL: "https://app.example/", TabURL: "https://pay.example/"},
		{Verb: "navigate", Text: "https://pay.example/card", TabURL: "https://app.example/home"},
		{Verb: "evaluate", Text: "x", TabURL: "https://app.example/home"},
		{Verb: "press", Text: "Enter", TabURL: "https://app.example/home"},
	}
	w, refused := personWorkflow(p, steps, "s1")
	if refused != 4 {
		t.Errorf("refused %d steps, want 4 (two on pay.example, a navigation there, an unknown verb)", refused)
	}
	text := workflow.Format(w)
	for _, want := range []string{
		"navigate 'https://app.example/login'",
		"fill textbox 'Email' with '{{EMAIL}}' at https://app.example",
		"fill textbox 'Password' with '{{PASSWORD}}' at https://app.example",
		"fill textbox 'API token' with '{{API_TOKEN}}' at https://app.example",
		"click button 'Sign in' at https://app.example then url 'https://app.example/home'",
		"click button 'Edit' in 'Notes of {{EMAIL}}' at https://app.example then appears dialog 'Rename'",
		"upload button 'Attachment' with '{{ATTACHMENT}}' at https://app.example",
		"press 'Enter'",
		"shown by the person at the request of session s1",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the workflow lacks %q:\n%s", want, text)
		}
	}
	for _, never := range []string{"ann@example.com", "tok-123456", "pay.example", "Buy"} {
		if strings.Contains(text, never) {
			t.Errorf("the workflow holds %q:\n%s", never, text)
		}
	}
	if _, err := workflow.Parse(strings.NewReader(text)); err != nil {
		t.Fatalf("the workflow does not read back: %v\n%s", err, text)
	}
}

// In a headless browser grip launch started no one can show a task: the
// request is refused at once, not left to time out.
func TestRecordPersonRefusedWhenHeadless(t *testing.T) {
	h := &Host{}
	h.cfg.Launch = &launcher.Launch{Headless: true}
	_, err := h.record(context.Background(), protocol.RecordArgs{Action: protocol.RecordStart, File: "/tmp/x.grip", Person: true})
	if pe := protocol.AsError(err); pe == nil || pe.Code != protocol.CodeNotConfirmed || !strings.Contains(pe.Message, "headless") {
		t.Fatalf("got %v", err)
	}
}

// A typed parameter's value that shows in the URL the step went to, as a
// wiki writes a page name (spaces as underscores) or escaped, is the
// placeholder in its `then url`, so a replay with another value matches.
func TestThenURLHoldsTheParameterInItsURLForm(t *testing.T) {
	edit := "https://wiki.example/index.php?title=Special:Create"
	for _, after := range []string{
		"https://wiki.example/index.php/Meeting_notes_2026-12-01",
		"https://wiki.example/index.php/Meeting%20notes%202026-12-01",
		"https://wiki.example/index.php/Meeting notes 2026-12-01",
	} {
		steps := []protocol.PersonStep{
			{Verb: "fill", Target: &protocol.PersonTarget{Role: "textbox", Name: "Title"}, Text: "Meeting notes 2026-12-01", HasText: true, Param: "PAGE", FrameURL: edit, TabURL: edit},
			{Verb: "click", Target: &protocol.PersonTarget{Role: "button", Name: "Save page"}, FrameURL: edit, TabURL: edit, AfterURL: after + "#top"},
		}
		w, _ := personWorkflow(nil, steps, "s1")
		text := workflow.Format(w)
		if want := "click button 'Save page' at https://wiki.example then url 'https://wiki.example/index.php/{{PAGE}}'"; !strings.Contains(text, want) {
			t.Errorf("went to %s: the workflow lacks %q:\n%s", after, want, text)
		}
	}
}
