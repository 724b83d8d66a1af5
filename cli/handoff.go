package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/grip-dev/grip/frames"
)

// cmdHandoff is `grip handoff "WHY" [--tab ID] [--timeout D]`: the person
// is asked (a notification and the grip popup, with Done and Refuse) to do
// a step on the tab themselves; it returns when they answer, with what
// changed on the tab (docs/sessions.md, "Handing a step to the
// person").
func cmdHandoff(ctx context.Context, a *App, argv []string) (bool, error) {
	f := newFlags(a, "handoff")
	tab := f.Int("tab", 0, "tab id (default: the session's tab)")
	timeout := f.Duration("timeout", 5*time.Minute, "how long to wait for the person (at most 10m)")
	pos, err := f.parse(argv)
	if err != nil {
		return *f.json, err
	}
	if len(pos) != 1 || strings.TrimSpace(pos[0]) == "" {
		return *f.json, usagef(`usage: grip handoff "WHY" [--tab ID] [--timeout D], e.g. grip handoff "enter the code the bank texted you"`)
	}
	if *timeout <= 0 {
		return *f.json, usagef("--timeout must be positive, got %s", *timeout)
	}
	ops, done, err := a.ops(ctx, f)
	if err != nil {
		return *f.json, err
	}
	defer done()
	if !*f.json {
		fmt.Fprintln(a.Stderr, "grip: waiting for the person (a notification, and the grip popup: Done or Refuse)…")
	}
	res, err := ops.Handoff(ctx, pos[0], *tab, *timeout)
	if err != nil {
		return *f.json, err
	}
	a.printAction(f, frames.Done("handoff", ""), *res)
	return *f.json, nil
}
