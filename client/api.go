package client

import (
	"context"
	"time"

	"github.com/grip-dev/grip/protocol"
)

// Caller makes one socket operation; *Client and *Session satisfy it.
type Caller interface {
	Call(ctx context.Context, op string, args, result any) error
}

// CallerFunc is a function as a Caller.
type CallerFunc func(ctx context.Context, op string, args, result any) error

// Call calls f.
func (f CallerFunc) Call(ctx context.Context, op string, args, result any) error {
	return f(ctx, op, args, result)
}

// Ops are the typed operations over a Caller: the stable surface for Go
// programs that drive grip without spawning the CLI (local agent runners).
// A Session has them built in (s.Snapshot, s.Click…); the CLI and `grip mcp`
// use them too, so they cannot drift from what grip itself does. Every
// refusal is a *protocol.Error with a code and the boundary that refused:
// test it with errors.Is against protocol.ErrStaleRef,
// protocol.ErrMeaningChanged, protocol.ErrNotActionable and the others, and
// show its Hint to the agent.
type Ops struct{ Caller }

// Tabs lists the browser's tabs.
func (s Ops) Tabs(ctx context.Context) ([]protocol.Tab, error) {
	var res protocol.TabsResult
	if err := s.Call(ctx, protocol.OpTabs, struct{}{}, &res); err != nil {
		return nil, err
	}
	return res.Tabs, nil
}

// Snapshot reads a tab (args.Tab 0: the active one): every frame, one line
// per element with its ref, within args.Budget tokens (0: the default).
func (s Ops) Snapshot(ctx context.Context, args protocol.SnapshotArgs) (*protocol.Snapshot, error) {
	return call[protocol.Snapshot](ctx, s, protocol.OpSnapshot, args)
}

// Act runs one action of protocol.Actions, e.g.
// ActArgs{Action: protocol.ActClick, Target: "@e3"}. The reply says what
// changed: the lines of elements that appeared or changed state, refs gone,
// the tab's URL and title.
func (s Ops) Act(ctx context.Context, args protocol.ActArgs) (*protocol.ActionResult, error) {
	return call[protocol.ActionResult](ctx, s, protocol.OpAct, args)
}

// Click clicks the element target names (a ref such as "@e3", or a CSS
// locator).
func (s Ops) Click(ctx context.Context, target string) (*protocol.ActionResult, error) {
	return s.Act(ctx, protocol.ActArgs{Action: protocol.ActClick, Target: target})
}

// Fill replaces what the field target names holds with text.
func (s Ops) Fill(ctx context.Context, target, text string) (*protocol.ActionResult, error) {
	return s.Act(ctx, protocol.ActArgs{Action: protocol.ActFill, Target: target, Text: text})
}

// Upload puts the files at paths (absolute: the host reads them) into the
// file input target names, or the one behind the button or label it names.
func (s Ops) Upload(ctx context.Context, target string, paths ...string) (*protocol.ActionResult, error) {
	return s.Act(ctx, protocol.ActArgs{Action: protocol.ActUpload, Target: target, Files: paths})
}

// Downloads lists the browser's downloads, newest first.
func (s Ops) Downloads(ctx context.Context, args protocol.DownloadsArgs) (*protocol.DownloadsResult, error) {
	return call[protocol.DownloadsResult](ctx, s, protocol.OpDownloads, args)
}

// WaitDownload waits up to timeout (0: ten seconds) for the next download
// to finish; the reply's Download says where it is. An interrupted one is
// a protocol.CodeDownloadFailed refusal with Chrome's reason.
func (s Ops) WaitDownload(ctx context.Context, tab int, timeout time.Duration) (*protocol.ActionResult, error) {
	return s.Wait(ctx, protocol.WaitArgs{Tab: tab, Download: true, TimeoutMS: int(timeout.Milliseconds())})
}

// Wait waits for exactly one condition of args (text, text gone, an
// element gone, a URL, a download, or a pause); a condition not met in time is a
// protocol.CodeTimeout refusal.
func (s Ops) Wait(ctx context.Context, args protocol.WaitArgs) (*protocol.ActionResult, error) {
	return call[protocol.ActionResult](ctx, s, protocol.OpWait, args)
}

// Screenshot takes a PNG of a tab's visible part (tab 0: the active one).
func (s Ops) Screenshot(ctx context.Context, tab int) (*protocol.ScreenshotResult, error) {
	return call[protocol.ScreenshotResult](ctx, s, protocol.OpScreenshot, protocol.ScreenshotArgs{Tab: tab})
}

// Status is the host's own report: its version, refs, the last snapshot,
// recent errors.
func (s Ops) Status(ctx context.Context) (*protocol.Status, error) {
	return call[protocol.Status](ctx, s, protocol.OpStatus, struct{}{})
}

// Pause refuses every agent's actions until the person resumes (the
// popup's button) or Resume is allowed in the browser.
func (s Ops) Pause(ctx context.Context) (*protocol.PersonState, error) {
	return call[protocol.PersonState](ctx, s, protocol.OpPause, struct{}{})
}

// Resume asks the person, in the browser, to let agents act again.
func (s Ops) Resume(ctx context.Context) (*protocol.PersonState, error) {
	return call[protocol.PersonState](ctx, s, protocol.OpResume, protocol.ResumeArgs{})
}

// ResumeWithToken lifts the pause of a browser grip launch started with
// the launcher's resume token, without asking in the browser.
func (s Ops) ResumeWithToken(ctx context.Context, token string) (*protocol.PersonState, error) {
	return call[protocol.PersonState](ctx, s, protocol.OpResume, protocol.ResumeArgs{Token: token})
}

// Log returns what agents did (never typed text), oldest first.
func (s Ops) Log(ctx context.Context, args protocol.LogArgs) (*protocol.LogResult, error) {
	return call[protocol.LogResult](ctx, s, protocol.OpLog, args)
}

// Policy returns the policy in force, and which rule args.URL falls under.
func (s Ops) Policy(ctx context.Context, args protocol.PolicyArgs) (*protocol.PolicyResult, error) {
	return call[protocol.PolicyResult](ctx, s, protocol.OpPolicy, args)
}

// Dialog returns the JavaScript dialog a tab shows (tab 0: the active
// one); Dialog is nil in the result when there is none.
func (s Ops) Dialog(ctx context.Context, tab int) (*protocol.DialogResult, error) {
	return call[protocol.DialogResult](ctx, s, protocol.OpDialog, protocol.DialogArgs{Tab: tab})
}

// AnswerDialog accepts (text answers a prompt) or dismisses the tab's
// dialog; the reply says what the page did next, as an action's does.
func (s Ops) AnswerDialog(ctx context.Context, tab int, accept bool, text string) (*protocol.ActionResult, error) {
	args := protocol.ActArgs{Action: protocol.ActDialogDismiss, Tab: tab}
	if accept {
		args.Action, args.Text = protocol.ActDialogAccept, text
	}
	return s.Act(ctx, args)
}

// Handoff asks the person to do a step on a tab themselves (a CAPTCHA, a
// second factor, a login, a payment to confirm) and waits until they
// answer, at most timeout (0: five minutes): Done returns what changed on
// the tab, as an action's reply does; Refuse or no answer is
// protocol.ErrNotConfirmed.
func (s Ops) Handoff(ctx context.Context, why string, tab int, timeout time.Duration) (*protocol.ActionResult, error) {
	return call[protocol.ActionResult](ctx, s, protocol.OpHandoff,
		protocol.HandoffArgs{Why: why, Tab: tab, TimeoutMS: int(timeout / time.Millisecond)})
}

// call makes one call and decodes its result into a new T.
func call[T any](ctx context.Context, c Caller, op string, args any) (*T, error) {
	var res T
	if err := c.Call(ctx, op, args, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// Record starts, stops or asks about the session's workflow recording
// (args.Action protocol.RecordStart, RecordStop, RecordStatus). At stop the
// result's Text is the workflow, for the caller to write to its File.
func (s Ops) Record(ctx context.Context, args protocol.RecordArgs) (protocol.RecordResult, error) {
	var res protocol.RecordResult
	err := s.Call(ctx, protocol.OpRecord, args, &res)
	return res, err
}
