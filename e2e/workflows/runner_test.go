package workflows_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/statedir"
	"github.com/grip-dev/grip/workflow"
)

// README: begin (README.md, "A runner in Go", shows this function as it is)

// signIn is a local agent runner's whole path through grip's Go API:
// connect as a session of its own, open a tab, read it, act on elements
// named as the snapshot prints them while recording, wait for the app's
// answer, replay the recording with other values, and end the session.
func signIn(ctx context.Context, loginURL string) (*workflow.Result, error) {
	s, err := client.NewSession(ctx, client.Options{Session: "runner", Client: "my-runner", Wait: 10 * time.Second})
	if err != nil {
		return nil, err // no browser with grip: the error says what to check
	}
	defer s.Close()

	opened, err := s.Act(ctx, protocol.ActArgs{Action: protocol.ActTabNew, Text: loginURL})
	if err != nil {
		return nil, err
	}
	tab := opened.Tab.ID
	defer s.Act(ctx, protocol.ActArgs{Action: protocol.ActTabClose, Tab: tab})

	snap, err := s.Snapshot(ctx, protocol.SnapshotArgs{Tab: tab})
	if err != nil {
		return nil, err
	}
	fmt.Print(snap.Text) // @e1: [textbox 'Email'] …

	if _, err := s.Record(ctx, protocol.RecordArgs{Action: protocol.RecordStart}); err != nil {
		return nil, err
	}
	steps := []protocol.ActArgs{
		{Action: protocol.ActFill, Target: "textbox 'Email'", Text: "ada@example.com", Param: "EMAIL"},
		{Action: protocol.ActFill, Target: "textbox 'Password'", Text: os.Getenv("RUNNER_PASSWORD")},
		{Action: protocol.ActClick, Target: "button 'Sign in'"},
	}
	for _, step := range steps {
		step.Tab = tab
		if _, err := s.Act(ctx, step); err != nil {
			return nil, err // a *protocol.Error: its Code, Message and Hint say what to do
		}
	}
	if _, err := s.Wait(ctx, protocol.WaitArgs{Tab: tab, Text: "Welcome"}); err != nil {
		return nil, err
	}
	rec, err := s.Record(ctx, protocol.RecordArgs{Action: protocol.RecordStop})
	if err != nil {
		return nil, err
	}

	// The recording, replayed with no model: it stops at the first step
	// the page no longer matches (protocol.CodeReplayDiverged).
	w, err := workflow.Parse(strings.NewReader(rec.Text))
	if err != nil {
		return nil, err
	}
	if _, err := s.Act(ctx, protocol.ActArgs{Action: protocol.ActNavigate, Tab: tab, Text: loginURL}); err != nil {
		return nil, err
	}
	return workflow.Replay(ctx, s, w, workflow.Options{Tab: tab,
		Params: map[string]string{"EMAIL": "bob@example.com", "PASSWORD": os.Getenv("RUNNER_PASSWORD")}})
}

// README: end

// TestGoRunner runs the README's runner against the real browser and reads
// the outcome from the page: the replay submitted the form with the
// replay's values, and the session's tab is gone afterwards.
func TestGoRunner(t *testing.T) {
	browsertest.Need(t, env)
	t.Setenv(statedir.EnvVar, env.StateDir)
	t.Setenv("RUNNER_PASSWORD", "pw-runner")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	login := env.Origin1 + "/testdata/login.html"
	tabs := func() int {
		var res protocol.TabsResult
		if code := env.GripJSON(t, &res, "tabs"); code != 0 {
			t.Fatalf("grip tabs: exit %d", code)
		}
		return len(res.Tabs)
	}
	before := tabs()

	res, err := signIn(ctx, login)
	if err != nil {
		t.Fatalf("the runner: %v", err)
	}
	if res.Done != 3 || res.Steps != 3 || res.Diverged != nil {
		t.Fatalf("the replay: %+v", res)
	}
	if after := tabs(); after != before {
		t.Fatalf("%d tabs before the runner, %d after: its tab was not closed", before, after)
	}
	// What the app received, read from the app: the recording's submit,
	// then the replay's with its own values.
	env.OpenTab(t, login)
	var sent []map[string]string
	if err := json.Unmarshal([]byte(browsertest.Eval[string](t, env, login, `localStorage.getItem('submissions')`)), &sent); err != nil {
		t.Fatal(err)
	}
	if len(sent) < 2 {
		t.Fatalf("the app got %d submits: %v", len(sent), sent)
	}
	want := []map[string]string{
		{"email": "ada@example.com", "password": "pw-runner", "branch": "north"},
		{"email": "bob@example.com", "password": "pw-runner", "branch": "north"},
	}
	if got := sent[len(sent)-2:]; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("the app got %v, want %v", got, want)
	}
}

// TestGoRunnerIsTheREADMEs holds README.md's "A runner in Go" to the
// function TestGoRunner runs.
func TestGoRunnerIsTheREADMEs(t *testing.T) {
	src, err := os.ReadFile("runner_test.go")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)// README: begin[^\n]*\n\n(.*?)\n// README: end`).FindSubmatch(src)
	if m == nil {
		t.Fatal("runner_test.go has no README: begin/end markers")
	}
	r := regexp.MustCompile("(?s)## A runner in Go\n.*?```go\n(.*?)```").FindSubmatch(readme)
	if r == nil {
		t.Fatal("README.md has no \"## A runner in Go\" section with a go block")
	}
	if strings.TrimSpace(string(m[1])) != strings.TrimSpace(string(r[1])) {
		t.Fatalf("README.md's runner differs from runner_test.go's signIn: copy the function between the markers into the README")
	}
}
