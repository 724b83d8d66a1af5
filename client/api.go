package client

import (
	"context"

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
	var snap protocol.Snapshot
	if err := s.Call(ctx, protocol.OpSnapshot, args, &snap); err != nil {
		return nil, err
	}
	return &snap, nil
}

// Act runs one action of protocol.Actions, e.g.
// ActArgs{Action: protocol.ActClick, Target: "@e3"}. The reply says what
// changed: the lines of elements that appeared or changed state, refs gone,
// the tab's URL and title.
func (s Ops) Act(ctx context.Context, args protocol.ActArgs) (*protocol.ActionResult, error) {
	var res protocol.ActionResult
	if err := s.Call(ctx, protocol.OpAct, args, &res); err != nil {
		return nil, err
	}
	return &res, nil
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

// Wait waits for exactly one condition of args (text, text gone, an
// element gone, a URL, or a pause); a condition not met in time is a
// protocol.CodeTimeout refusal.
func (s Ops) Wait(ctx context.Context, args protocol.WaitArgs) (*protocol.ActionResult, error) {
	var res protocol.ActionResult
	if err := s.Call(ctx, protocol.OpWait, args, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// Screenshot takes a PNG of a tab's visible part (tab 0: the active one).
func (s Ops) Screenshot(ctx context.Context, tab int) (*protocol.ScreenshotResult, error) {
	var res protocol.ScreenshotResult
	if err := s.Call(ctx, protocol.OpScreenshot, protocol.ScreenshotArgs{Tab: tab}, &res); err != nil {
		return nil, err
	}
	return &res, nil
}

// Status is the host's own report: its version, refs, the last snapshot,
// recent errors.
func (s Ops) Status(ctx context.Context) (*protocol.Status, error) {
	var st protocol.Status
	if err := s.Call(ctx, protocol.OpStatus, struct{}{}, &st); err != nil {
		return nil, err
	}
	return &st, nil
}
