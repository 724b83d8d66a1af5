package cli

import (
	"context"
	"fmt"

	"github.com/grip-dev/grip/actlog"
	"github.com/grip-dev/grip/internal/resumetoken"
	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/protocol"
)

// The person's controls (docs/person.md, "The person's controls"):
// the pause switch, the record of what agents did, the policy in force.
// cmdPause is `grip pause`: every action of every agent is refused until
// the person resumes.
func cmdPause(ctx context.Context, a *App, argv []string) (bool, error) {
	return switchCommand(ctx, a, "pause", protocol.OpPause, argv, "")
}

// cmdResume is `grip resume [--token-file FILE]`: the person allows it in
// the browser first; in a browser grip launch started, the launcher's token
// file lifts it without asking.
func cmdResume(ctx context.Context, a *App, argv []string) (bool, error) {
	return switchCommand(ctx, a, "resume", protocol.OpResume, argv, "resumed: agents may act again\n")
}

func switchCommand(ctx context.Context, a *App, name, op string, argv []string, done string) (bool, error) {
	f := newFlags(a, name)
	var tokenFile *string
	if op == protocol.OpResume {
		tokenFile = f.String("token-file", "", "in a browser grip launch started: the resume token it wrote (PROFILE/"+resumetoken.Name+"), which lifts the pause without asking")
	}
	pos, err := f.parse(argv)
	if err != nil {
		return *f.json, err
	}
	if len(pos) > 0 {
		return *f.json, usagef("%s takes no arguments, got %q", name, pos[0])
	}
	token := ""
	if tokenFile != nil && *tokenFile != "" {
		if token, err = resumetoken.Read(*tokenFile); err != nil {
			return *f.json, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryHost,
				"name the file grip launch printed (resume_token_file in its --json)", "--token-file: %v", err)
		}
	}
	sess, err := a.session(ctx, f)
	if err != nil {
		return *f.json, err
	}
	defer sess.Close()
	ops := sess.Ops
	// A headless launched browser refuses the ask at once: nothing to say.
	if l := sess.Info().Launched; op == protocol.OpResume && token == "" && !*f.json && (l == nil || !l.Headless) {
		fmt.Fprintln(a.Stderr, "grip: allow it in the browser (a notification, or the grip popup)…")
	}
	pause := ops.Pause
	switch {
	case token != "":
		pause = func(ctx context.Context) (*protocol.PersonState, error) { return ops.ResumeWithToken(ctx, token) }
	case op == protocol.OpResume:
		pause = ops.Resume
	}
	st, err := pause(ctx)
	if err != nil {
		return *f.json, err
	}
	if *f.json {
		a.printJSON(st)
		return true, nil
	}
	if op == protocol.OpPause {
		done = "paused: " + pauseLine(st.PausedBy, st.Lift) + "\n"
	}
	fmt.Fprint(a.Stdout, done)
	return false, nil
}

// pauseLine says whose the pause is and how it is lifted in this browser,
// for grip pause and grip status.
func pauseLine(by, lift string) string {
	who := "by the person"
	if by != "" {
		who = "by agent session " + by
	}
	if lift == "" {
		lift = "the grip popup, or grip resume"
	}
	return "agents are paused " + who + ": every action is refused until the pause is lifted (" + lift + ")"
}

// cmdLog is `grip log [--tab ID] [--limit N] [--json]`: what agents did,
// oldest first.
func cmdLog(ctx context.Context, a *App, argv []string) (bool, error) {
	f := newFlags(a, "log")
	tab := f.Int("tab", 0, "only this tab's actions")
	limit := f.Int("limit", 50, "the latest N actions (0: every one kept)")
	all := f.Bool("all", false, "every session's actions (default: this session's)")
	pos, err := f.parse(argv)
	if err != nil {
		return *f.json, err
	}
	if len(pos) > 0 {
		return *f.json, usagef("log takes flags only, got %q", pos[0])
	}
	if *limit < 0 {
		return *f.json, usagef("--limit must not be negative")
	}
	ops, done, err := a.ops(ctx, f)
	if err != nil {
		return *f.json, err
	}
	defer done()
	res, err := ops.Log(ctx, protocol.LogArgs{Tab: *tab, Limit: *limit, All: *all})
	if err != nil {
		return *f.json, err
	}
	if *f.json {
		a.printJSON(res)
		return true, nil
	}
	if len(res.Entries) == 0 {
		if *all {
			fmt.Fprintln(a.Stdout, "no agent actions recorded")
		} else {
			fmt.Fprintln(a.Stdout, "no actions of this session recorded (grip log --all shows every session's)")
		}
		return false, nil
	}
	for _, e := range res.Entries {
		fmt.Fprintln(a.Stdout, actlog.Line(e))
	}
	return false, nil
}

// cmdPolicy is `grip policy [URL]`: the policy in force, or which rule
// URL falls under.
func cmdPolicy(ctx context.Context, a *App, argv []string) (bool, error) {
	f := newFlags(a, "policy")
	pos, err := f.parse(argv)
	if err != nil {
		return *f.json, err
	}
	if len(pos) > 1 {
		return *f.json, usagef("usage: grip policy [URL]")
	}
	var args protocol.PolicyArgs
	if len(pos) == 1 {
		args.URL = pos[0]
	}
	ops, done, err := a.ops(ctx, f)
	if err != nil {
		return *f.json, err
	}
	defer done()
	res, err := ops.Policy(ctx, args)
	if err != nil {
		return *f.json, err
	}
	if *f.json {
		a.printJSON(res)
		return true, nil
	}
	fmt.Fprint(a.Stdout, policy.Describe(*res))
	if res.Policy.Error != "" {
		fmt.Fprintf(a.Stderr, "grip: the policy file does not read well: %s\n", res.Policy.Error)
	}
	return false, nil
}
