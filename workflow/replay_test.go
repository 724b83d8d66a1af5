package workflow

import (
	"cmp"
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/protocol"
)

// fakeBrowser answers a replay's calls from a script, and records them.
type fakeBrowser struct {
	acts    []protocol.ActArgs
	waits   []protocol.WaitArgs
	snaps   int
	act     func(protocol.ActArgs) (*protocol.ActionResult, error)
	wait    func(protocol.WaitArgs) (*protocol.ActionResult, error)
	page    []protocol.Element
	top     string // the top frame's URL in a snapshot
	lastURL string
}

func (b *fakeBrowser) Act(_ context.Context, a protocol.ActArgs) (*protocol.ActionResult, error) {
	b.acts = append(b.acts, a)
	if b.act != nil {
		return b.act(a)
	}
	return &protocol.ActionResult{OK: true, Tab: protocol.TabRef{ID: 7, URL: b.lastURL}}, nil
}

func (b *fakeBrowser) Wait(_ context.Context, a protocol.WaitArgs) (*protocol.ActionResult, error) {
	b.waits = append(b.waits, a)
	if b.wait != nil {
		return b.wait(a)
	}
	return &protocol.ActionResult{OK: true}, nil
}

func (b *fakeBrowser) Snapshot(context.Context, protocol.SnapshotArgs) (*protocol.Snapshot, error) {
	b.snaps++
	top := cmp.Or(b.top, "https://app.example/login")
	return &protocol.Snapshot{Tab: protocol.TabRef{ID: 7, URL: top}, Frames: []protocol.Frame{{URL: top, Elements: b.page}}}, nil
}

func mustParse(t *testing.T, text string) *Workflow {
	t.Helper()
	w, err := Parse(strings.NewReader(Header + "\n" + text))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

const signIn = `navigate 'https://app.example/login'
fill textbox 'Email' with '{{EMAIL}}' at https://app.example
fill textbox 'Password' with '{{PASSWORD}}' at https://app.example
click button 'Sign in' at https://app.example then url 'https://app.example/home'
click link 'Statement for {{MONTH}}' then appears heading 'Statement'
`

func TestReplayRunsEveryStepWithItsParameters(t *testing.T) {
	b := &fakeBrowser{}
	b.act = func(a protocol.ActArgs) (*protocol.ActionResult, error) {
		res := &protocol.ActionResult{OK: true, Tab: protocol.TabRef{ID: 7, URL: "https://app.example/login"}}
		switch {
		case strings.Contains(a.Target, "Sign in"):
			res.Tab.URL = "https://app.example/home?sid=42"
		case strings.Contains(a.Target, "Statement"):
			res.Changes.Appeared = []protocol.Element{{Role: "heading", Name: "Statement"}}
		}
		return res, nil
	}
	w := mustParse(t, signIn)
	res, err := Replay(context.Background(), b, w, Options{Tab: 7, Params: map[string]string{"EMAIL": "a@b.c", "PASSWORD": "hunter2", "MONTH": "March"}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Done != 5 || res.Steps != 5 || res.Diverged != nil {
		t.Fatalf("result %+v", res)
	}
	want := []protocol.ActArgs{
		{Action: "navigate", Tab: 7, Text: "https://app.example/login"},
		{Action: "fill", Tab: 7, Target: "textbox 'Email'", Text: "a@b.c", Origin: "https://app.example"},
		{Action: "fill", Tab: 7, Target: "textbox 'Password'", Text: "hunter2", Origin: "https://app.example"},
		{Action: "click", Tab: 7, Target: "button 'Sign in'", Origin: "https://app.example"},
		{Action: "click", Tab: 7, Target: "link 'Statement for March'"},
	}
	for i := range want {
		if !equalAct(b.acts[i], want[i]) {
			t.Errorf("step %d acted %+v, want %+v", i+1, b.acts[i], want[i])
		}
	}
	if len(b.waits) != 0 || b.snaps != 0 {
		t.Errorf("effects in the replies still waited %d times and read %d snapshots", len(b.waits), b.snaps)
	}
}

func equalAct(a, b protocol.ActArgs) bool {
	return a.Action == b.Action && a.Tab == b.Tab && a.Target == b.Target && a.Text == b.Text && a.Origin == b.Origin
}

func TestReplayRefusesMissingParametersBeforeActing(t *testing.T) {
	b := &fakeBrowser{}
	_, err := Replay(context.Background(), b, mustParse(t, signIn), Options{Params: map[string]string{"EMAIL": "a@b.c"}})
	if e := protocol.AsError(err); e.Code != protocol.CodeBadRequest || !strings.Contains(e.Message, "PASSWORD, MONTH") {
		t.Fatalf("err = %v", err)
	}
	if len(b.acts) != 0 {
		t.Fatalf("acted %d times before refusing", len(b.acts))
	}
}

func TestReplayStopsAtTheFirstStepThatDoesNotMatch(t *testing.T) {
	b := &fakeBrowser{page: []protocol.Element{
		{Ref: "@e4", Role: "button", Name: "Log in"},
		{Ref: "@e5", Role: "link", Name: "Forgot password?"},
		{Ref: "@e6", Role: "button", Name: "Sign up"},
	}}
	b.act = func(a protocol.ActArgs) (*protocol.ActionResult, error) {
		if strings.Contains(a.Target, "Sign in") {
			return nil, protocol.Errorf(protocol.CodeNotFound, protocol.BoundaryPage, "", "no element of tab 7 is button 'Sign in'")
		}
		return &protocol.ActionResult{OK: true, Tab: protocol.TabRef{ID: 7}}, nil
	}
	res, err := Replay(context.Background(), b, mustParse(t, signIn), Options{Params: map[string]string{"EMAIL": "a", "PASSWORD": "b", "MONTH": "c"}})
	if !errors.Is(err, protocol.ErrReplayDiverged) {
		t.Fatalf("err = %v, want replay_diverged", err)
	}
	if res.Done != 3 || len(b.acts) != 4 {
		t.Fatalf("done %d, acted %d times: nothing may run after the divergence", res.Done, len(b.acts))
	}
	d := res.Diverged
	if d == nil || d.Step != 4 || d.Line != 5 || d.Code != protocol.CodeNotFound || !strings.Contains(d.Expected, "button 'Sign in'") {
		t.Fatalf("divergence %+v", d)
	}
	if len(d.Candidates) == 0 || !strings.Contains(d.Candidates[0], "@e6") && !strings.Contains(d.Candidates[0], "@e4") {
		t.Fatalf("candidates %q: want the buttons first", d.Candidates)
	}
}

// A replay in a tab of another site diverges at once, saying so, with
// no candidates from the wrong page.
func TestReplayInTheWrongTabSaysSo(t *testing.T) {
	b := &fakeBrowser{top: "https://jupyter.example/tree", page: []protocol.Element{{Ref: "@e4", Role: "button", Name: "Run"}}}
	b.act = func(a protocol.ActArgs) (*protocol.ActionResult, error) {
		return nil, protocol.Errorf(protocol.CodeNotFound, protocol.BoundaryPage, "", "no element of tab 7 reads textbox 'Email'")
	}
	w := mustParse(t, "fill textbox 'Email' with '{{EMAIL}}' at https://app.example\n")
	res, err := Replay(context.Background(), b, w, Options{Tab: 7, Params: map[string]string{"EMAIL": "a"}})
	e := protocol.AsError(err)
	if e.Code != protocol.CodeReplayDiverged || !strings.Contains(e.Hint, "--tab") {
		t.Fatalf("err = %+v", e)
	}
	if d := res.Diverged; d == nil || !strings.Contains(d.Found, "https://jupyter.example/tree") || !strings.Contains(d.Found, "https://app.example") || len(d.Candidates) != 0 {
		t.Fatalf("divergence %+v", res.Diverged)
	}
}

func TestReplayWaitsForTheRecordedNavigation(t *testing.T) {
	b := &fakeBrowser{lastURL: "https://app.example/login"}
	w := mustParse(t, "click button 'Sign in' then url 'https://app.example/home'\n")
	if _, err := Replay(context.Background(), b, w, Options{}); err != nil {
		t.Fatal(err)
	}
	if len(b.waits) != 1 || b.waits[0].URL != "https://app.example/home" {
		t.Fatalf("waits %+v: want one wait for the URL", b.waits)
	}
	// The page never goes there: a divergence, not a timeout.
	b = &fakeBrowser{lastURL: "https://app.example/login"}
	b.wait = func(protocol.WaitArgs) (*protocol.ActionResult, error) {
		return nil, protocol.Errorf(protocol.CodeTimeout, protocol.BoundaryTask, "", "condition not met")
	}
	res, err := Replay(context.Background(), b, w, Options{})
	if !errors.Is(err, protocol.ErrReplayDiverged) || res.Diverged == nil || !strings.Contains(res.Diverged.Found, "/login") {
		t.Fatalf("err %v, result %+v", err, res)
	}
}

func TestReplayElementThatAppearsTwiceDiverges(t *testing.T) {
	b := &fakeBrowser{page: []protocol.Element{{Role: "dialog", Name: "Rename"}, {Role: "dialog", Name: "Rename"}}}
	w := mustParse(t, "click button 'Rename' then appears dialog 'Rename'\n")
	res, err := Replay(context.Background(), b, w, Options{})
	if !errors.Is(err, protocol.ErrReplayDiverged) || res.Diverged == nil || !strings.Contains(res.Diverged.Found, "2 elements") {
		t.Fatalf("err %v, result %+v", err, res)
	}
}

func TestReplayPassesThePersonsRefusals(t *testing.T) {
	b := &fakeBrowser{act: func(protocol.ActArgs) (*protocol.ActionResult, error) {
		return nil, protocol.Errorf(protocol.CodePaused, protocol.BoundaryUser, "wait", "the person paused grip")
	}}
	res, err := Replay(context.Background(), b, mustParse(t, "back\nback\n"), Options{})
	if e := protocol.AsError(err); e.Code != protocol.CodePaused || !strings.Contains(e.Message, "step 1") || res.Diverged != nil || res.Done != 0 {
		t.Fatalf("err %v, result %+v", err, res)
	}
}

// TestReplaySaysWhereThePageWentAndThatTheStepWasDone: a click whose page
// went elsewhere than recorded is not "stayed": the divergence names the
// page it went to, says the click was done, and tells the agent not to do
// it again. A page that did stay says so.
func TestReplaySaysWhereThePageWentAndThatTheStepWasDone(t *testing.T) {
	w := mustParse(t, "click button 'Save page' then url 'https://wiki.example/index.php/Notes_1'\n")
	timeout := func(protocol.WaitArgs) (*protocol.ActionResult, error) {
		return nil, protocol.Errorf(protocol.CodeTimeout, protocol.BoundaryTask, "", "condition not met")
	}
	b := &fakeBrowser{top: "https://wiki.example/index.php/Notes_8", wait: timeout}
	b.act = func(protocol.ActArgs) (*protocol.ActionResult, error) {
		return &protocol.ActionResult{OK: true, Tab: protocol.TabRef{ID: 7, URL: "https://wiki.example/index.php/Notes_8"},
			Changes: protocol.Changes{URL: "https://wiki.example/index.php/Notes_8", Navigated: true}}, nil
	}
	res, err := Replay(context.Background(), b, w, Options{})
	if !errors.Is(err, protocol.ErrReplayDiverged) || res.Diverged == nil {
		t.Fatalf("err %v, result %+v", err, res)
	}
	d := res.Diverged
	if strings.Contains(d.Found, "stayed") || !strings.Contains(d.Found, "went to https://wiki.example/index.php/Notes_8") || !strings.Contains(d.Found, "click was done") {
		t.Fatalf("found %q", d.Found)
	}
	if !strings.Contains(d.Hint, "do not do it again") || !strings.Contains(err.Error(), "do not do it again") {
		t.Fatalf("hint %q, error %v", d.Hint, err)
	}
	// The page went after the reply: the tab's URL now tells.
	b = &fakeBrowser{top: "https://wiki.example/index.php/Notes_8", lastURL: "https://wiki.example/index.php?title=Notes_8&action=edit", wait: timeout}
	if res, _ = Replay(context.Background(), b, w, Options{}); res.Diverged == nil || !strings.Contains(res.Diverged.Found, "went to https://wiki.example/index.php/Notes_8") {
		t.Fatalf("result %+v", res.Diverged)
	}
	// It stayed: it says so, with no hint that it went.
	b = &fakeBrowser{top: "https://wiki.example/index.php?title=Notes_8&action=edit", lastURL: "https://wiki.example/index.php?title=Notes_8&action=edit", wait: timeout}
	if res, _ = Replay(context.Background(), b, w, Options{}); res.Diverged == nil || !strings.Contains(res.Diverged.Found, "stayed at") || res.Diverged.Hint != "" {
		t.Fatalf("result %+v", res.Diverged)
	}
}

// TestReplayMatchesAPlaceholderInTheURLInItsURLForms: a `then url` with
// {{PAGE}} matches the page name as a wiki writes it in its path (spaces as
// underscores) or escaped; another page's name does not match.
func TestReplayMatchesAPlaceholderInTheURLInItsURLForms(t *testing.T) {
	w := mustParse(t, "click button 'Save page' then url 'https://wiki.example/index.php/{{PAGE}}'\n")
	params := map[string]string{"PAGE": "Meeting notes 2026-12-08"}
	for _, at := range []string{"https://wiki.example/index.php/Meeting_notes_2026-12-08", "https://wiki.example/index.php/Meeting%20notes%202026-12-08"} {
		b := &fakeBrowser{lastURL: at}
		if _, err := Replay(context.Background(), b, w, Options{Params: params}); err != nil {
			t.Fatalf("at %s: %v", at, err)
		}
	}
	// The page gets there after the reply: it is waited for.
	b := &fakeBrowser{lastURL: "https://wiki.example/index.php?title=Meeting_notes_2026-12-08&action=edit"}
	b.wait = func(protocol.WaitArgs) (*protocol.ActionResult, error) {
		b.top = "https://wiki.example/index.php/Meeting_notes_2026-12-08"
		return &protocol.ActionResult{OK: true}, nil
	}
	if _, err := Replay(context.Background(), b, w, Options{Params: params}); err != nil {
		t.Fatal(err)
	}
	// Another page's name is a divergence.
	b = &fakeBrowser{lastURL: "https://wiki.example/index.php/Meeting_notes_2026-12-01", top: "https://wiki.example/index.php/Meeting_notes_2026-12-01"}
	res, err := Replay(context.Background(), b, w, Options{Params: params, EffectTimeout: time.Millisecond})
	if !errors.Is(err, protocol.ErrReplayDiverged) || res.Diverged == nil {
		t.Fatalf("err %v, result %+v", err, res)
	}
}

// An upload step's parameter is its file: sent as the upload's one file,
// absolute (the host reads it from another folder), with no text.
func TestReplayUploadsTheParametersFile(t *testing.T) {
	b := &fakeBrowser{}
	w := mustParse(t, "upload button 'Receipt' with '{{RECEIPT}}' at https://app.example\n")
	if _, err := Replay(context.Background(), b, w, Options{Tab: 7, Params: map[string]string{"RECEIPT": "receipts/march.pdf"}}); err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.Abs("receipts/march.pdf")
	if len(b.acts) != 1 || b.acts[0].Action != protocol.ActUpload || b.acts[0].Text != "" || !slices.Equal(b.acts[0].Files, []string{want}) {
		t.Fatalf("the upload was sent as %+v, want Files [%s] and no text", b.acts, want)
	}
	b = &fakeBrowser{}
	_, err := Replay(context.Background(), b, w, Options{Tab: 7, Params: map[string]string{"RECEIPT": "  "}})
	if e := protocol.AsError(err); e.Code != protocol.CodeBadRequest || !strings.Contains(e.Message, "names no file") || len(b.acts) != 0 {
		t.Fatalf("an upload with a blank file: %v, %d acts", err, len(b.acts))
	}
}
