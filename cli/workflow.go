package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/grip-dev/grip/internal/privatefile"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/workflow"
)

// Recorded workflows (README, "Recorded workflows"): grip record start
// FILE … grip record stop writes what the session did; grip replay FILE
// runs it again with no model.

func cmdRecord(ctx context.Context, a *App, argv []string) (bool, error) {
	f := newFlags(a, "record")
	force := f.Bool("force", false, "start: replace FILE at stop if it exists (a regular file, never a link)")
	person := f.Bool("person", false, "start: ask the person to show the task in their own tab, and wait for their Done in grip's popup (the file is written then)")
	timeout := f.Duration("timeout", time.Duration(protocol.DefaultPersonRecordTimeoutMS)*time.Millisecond, "start --person: how long to wait for the person's Done (at most 1h)")
	pos, err := f.parse(argv)
	if err != nil {
		return *f.json, err
	}
	if len(pos) == 0 || pos[0] == protocol.RecordStart && len(pos) != 2 || pos[0] != protocol.RecordStart && len(pos) != 1 {
		return *f.json, usagef("usage: grip record start FILE [--person [--timeout D]] | grip record stop | grip record status")
	}
	if *person && pos[0] != protocol.RecordStart {
		return *f.json, usagef("--person goes with grip record start FILE")
	}
	if *timeout <= 0 {
		return *f.json, usagef("give a positive --timeout")
	}
	args := protocol.RecordArgs{Action: pos[0]}
	switch pos[0] {
	case protocol.RecordStart:
		abs, err := filepath.Abs(pos[1])
		if err != nil {
			return *f.json, usagef("%v", err)
		}
		if st, err := os.Lstat(abs); err == nil && (!*force || !st.Mode().IsRegular()) {
			return *f.json, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
				"choose a new file name, or pass --force to replace a regular file", "%s already exists; grip does not overwrite files", abs)
		}
		args.File, args.Force = abs, *force
		if *person {
			args.Person, args.TimeoutMS = true, int(min(*timeout, time.Duration(protocol.MaxPersonRecordTimeoutMS)*time.Millisecond)/time.Millisecond)
		}
	case protocol.RecordStop, protocol.RecordStatus:
	default:
		return *f.json, usagef("usage: grip record start FILE [--person [--timeout D]] | grip record stop | grip record status")
	}
	ops, done, err := a.ops(ctx, f)
	if err != nil {
		return *f.json, err
	}
	defer done()
	if args.Person && !*f.json {
		fmt.Fprintln(a.Stderr, "grip: waiting for the person to show the task (grip's popup: Record what I do, then Done)…")
	}
	res, err := ops.Record(ctx, args)
	if err != nil {
		return *f.json, err
	}
	stopped := pos[0] == protocol.RecordStop || args.Person // a person's recording ends at their Done
	if stopped {
		if res.File, err = saveWorkflow(res); err != nil {
			return *f.json, err
		}
		res.Text = "" // in the file, not on the terminal
	}
	if *f.json {
		a.printJSON(res)
		return true, nil
	}
	switch {
	case stopped:
		fmt.Fprintf(a.Stdout, "wrote %d steps to %s", res.Steps, res.File)
		if len(res.Params) > 0 {
			fmt.Fprintf(a.Stdout, " (parameters: %s)", strings.Join(res.Params, ", "))
		}
		fmt.Fprintln(a.Stdout)
		if res.Refused > 0 {
			what := "1 action refused while recording is"
			if res.Refused > 1 {
				what = fmt.Sprintf("%d actions refused while recording are", res.Refused)
			}
			fmt.Fprintf(a.Stdout, "%s not in it: read the file, and record again if a step is missing\n", what)
		}
	case res.Recording:
		fmt.Fprintf(a.Stdout, "recording into %s (%d steps so far)\n", res.File, res.Steps)
	default:
		fmt.Fprintln(a.Stdout, "not recording")
	}
	return false, nil
}

// saveWorkflow writes a stopped recording to the file its start named,
// never through a link, and never over a file that appeared meanwhile
// (then beside it, as FILE.1…) unless the start said --force: then over
// a regular file, whole or not at all.
func saveWorkflow(res protocol.RecordResult) (string, error) {
	if res.File == "" {
		return "", protocol.Errorf(protocol.CodeInternal, protocol.BoundaryHost, "", "the recording names no file")
	}
	if res.Force {
		return res.File, writeNew(res.File, []byte(res.Text), true)
	}
	name := res.File
	for i := 1; ; i++ {
		err := privatefile.WriteNew(name, []byte(res.Text))
		if errors.Is(err, fs.ErrExist) && i < 100 {
			name = fmt.Sprintf("%s.%d", res.File, i)
			continue
		}
		return name, err
	}
}

// paramFlags gathers --param NAME=VALUE flags.
type paramFlags map[string]string

func (p paramFlags) String() string { return "" }

func (p paramFlags) Set(v string) error {
	name, value, ok := strings.Cut(v, "=")
	if !ok || name == "" {
		return fmt.Errorf("give --param NAME=VALUE")
	}
	p[name] = value
	return nil
}

func cmdReplay(ctx context.Context, a *App, argv []string) (bool, error) {
	f := newFlags(a, "replay")
	params := paramFlags{}
	f.Var(params, "param", "a parameter's value, NAME=VALUE (repeat for each)")
	paramsFile := f.String("params", "", "read NAME=VALUE lines from this file (- for stdin): secrets stay out of the process table")
	tab := f.Int("tab", 0, "the tab to replay in (default: the session's default tab)")
	pos, err := f.parse(argv)
	if err != nil {
		return *f.json, err
	}
	if len(pos) != 1 {
		return *f.json, usagef("usage: grip replay FILE [--param NAME=VALUE …] [--params FILE|-] [--tab ID]")
	}
	w, err := readWorkflow(pos[0])
	if err != nil {
		return *f.json, err
	}
	if *paramsFile != "" {
		if err := readParams(*paramsFile, a.Stdin, params); err != nil {
			return *f.json, err
		}
	}
	ops, done, err := a.ops(ctx, f)
	if err != nil {
		return *f.json, err
	}
	defer done()
	opt := workflow.Options{Tab: *tab, Params: params}
	if !*f.json {
		opt.Step = func(n int, s workflow.Step, _ *protocol.ActionResult) {
			fmt.Fprintf(a.Stdout, "✓ %d/%d  %s\n", n, len(w.Steps), workflow.FormatStep(s))
		}
	}
	res, err := workflow.Replay(ctx, ops, w, opt)
	if *f.json {
		if err != nil {
			a.printJSON(struct {
				*workflow.Result
				Error *protocol.Error `json:"error"`
			}{res, protocol.AsError(err)})
			return true, errSilent
		}
		a.printJSON(res)
		return true, nil
	}
	if err != nil {
		if d := res.Diverged; d != nil {
			fmt.Fprintf(a.Stdout, "✗ %d/%d  %s\n  expected: %s\n  found:    %s\n", d.Step, res.Steps, d.Text, d.Expected, d.Found)
			for _, c := range d.Candidates {
				fmt.Fprintf(a.Stdout, "  closest:  %s\n", c)
			}
		}
		return false, err
	}
	fmt.Fprintf(a.Stdout, "replayed %d steps\n", res.Done)
	return false, nil
}

// readWorkflow reads and parses a workflow file: a regular file of at
// most workflow.MaxFile bytes whose first line is workflow.Header. The
// refusal of a file that is not a workflow quotes nothing of it
// (docs/workflows.md, "Recorded workflows").
func readWorkflow(path string) (*workflow.Workflow, error) {
	notFile := protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "give the file grip record stop wrote", "%s is not a regular file", path)
	st, err := os.Stat(path) // before the open: a named pipe is never waited on
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "give the file grip record stop wrote", "%v", err)
	}
	if !st.Mode().IsRegular() {
		return nil, notFile
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "give the file grip record stop wrote", "%v", err)
	}
	defer fh.Close()
	if now, err := fh.Stat(); err != nil || !os.SameFile(st, now) {
		return nil, notFile
	}
	w, err := workflow.Read(fh)
	switch {
	case errors.Is(err, workflow.ErrNotWorkflow):
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"give the file grip record stop wrote; an older workflow needs the line \""+workflow.Header+"\" added at its top", "%s: %v", path, err)
	case errors.Is(err, workflow.ErrTooLarge):
		return nil, protocol.Errorf(protocol.CodeTooLarge, protocol.BoundaryPayload, "give the file grip record stop wrote", "%s: %v", path, err)
	case err != nil:
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"fix that line (the README's \"Recorded workflows\" shows the format)", "%s: %v", path, err)
	}
	return w, nil
}

// readParams reads NAME=VALUE lines (blank lines and # comments skipped).
func readParams(name string, stdin io.Reader, into paramFlags) error {
	r := stdin
	if name != "-" {
		fh, err := os.Open(name)
		if err != nil {
			return usagef("--params: %v", err)
		}
		defer fh.Close()
		r = fh
	}
	sc := bufio.NewScanner(io.LimitReader(r, maxText))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		if err := into.Set(line); err != nil {
			return usagef("--params %s line %d: %v", name, n, err)
		}
	}
	return sc.Err()
}
