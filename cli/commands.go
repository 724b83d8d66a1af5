package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/outdir"
	"github.com/grip-dev/grip/protocol"
)

// commandTable is every subcommand but the actions, whose commands lookup
// makes from protocol.Actions when one runs. It is plain data the linker
// lays out, so no start of the binary runs code to build it
// (docs/cli-cost.md, "The CLI's fixed cost"). owns marks a command that
// owns what a Ctrl-C would tear: it runs interruptible. ops are the socket
// operations it calls (rows of protocol.Operations; nil for the commands
// that set grip up); an action's command calls protocol.OpAct. A nil run
// is a command of the heavy side (App.Heavy, else the grip-host binary).
var commandTable = [...]struct {
	name string
	run  command
	owns bool
	ops  []string
}{
	{"tabs", cmdTabs, false, []string{protocol.OpTabs, protocol.OpAct}},
	{"snapshot", cmdSnapshot, false, []string{protocol.OpSnapshot}},
	{"read", cmdRead, false, []string{protocol.OpRead}},
	{"wait", cmdWait, false, []string{protocol.OpWait}},
	{"status", cmdStatus, false, []string{protocol.OpStatus}},
	{"dialog", cmdDialog, false, []string{protocol.OpDialog, protocol.OpAct}},
	{"downloads", cmdDownloads, false, []string{protocol.OpDownloads}},
	{"handoff", cmdHandoff, false, []string{protocol.OpHandoff}},
	{"console", cmdConsole, false, []string{protocol.OpConsole}},
	{"network", cmdNetwork, false, []string{protocol.OpNetwork, protocol.OpNetworkBody}},
	{"eval", cmdEval, false, []string{protocol.OpEval}},
	{"resize", cmdResize, false, []string{protocol.OpResize}},
	{"pause", cmdPause, false, []string{protocol.OpPause}},
	{"resume", cmdResume, false, []string{protocol.OpResume}},
	{"log", cmdLog, false, []string{protocol.OpLog}},
	{"policy", cmdPolicy, false, []string{protocol.OpPolicy}},
	{"doctor", nil, true, nil},
	{"screenshot", cmdScreenshot, true, []string{protocol.OpScreenshot, protocol.OpScreenshotShape}},
	{"pdf", cmdPDF, true, []string{protocol.OpPDF}},
	{"record", cmdRecord, true, []string{protocol.OpRecord}},
	{"replay", cmdReplay, true, []string{protocol.OpSnapshot, protocol.OpAct, protocol.OpWait}},
	{"install", nil, true, nil},
	{"uninstall", nil, true, nil},
	{"mcp", nil, true, nil},
	{"demo", nil, true, nil},
	{"launch", nil, true, nil},
}

// lookup finds the subcommand called name.
func (a *App) lookup(name string) (command, bool) {
	for _, c := range commandTable {
		if c.name != name {
			continue
		}
		if c.run == nil {
			if a.Heavy == nil {
				return nil, false // Run hands it to grip-host first
			}
			cmd, ok := a.Heavy.Lookup(name)
			if !ok {
				return nil, false
			}
			return interruptible(cmd), true
		}
		if c.owns {
			return interruptible(c.run), true
		}
		return c.run, true
	}
	for _, spec := range protocol.Actions {
		if spec.Name == name && isCommand(spec) {
			return actionCommand(spec), true
		}
	}
	return nil, false
}

// heavyCommand says whether name is a command of the heavy side.
func heavyCommand(name string) bool {
	for _, c := range commandTable {
		if c.name == name {
			return c.run == nil
		}
	}
	return false
}

// isCommand says whether an action is a command of its own: tabs and
// dialog have theirs (tabs new, dialog accept).
func isCommand(spec protocol.Action) bool {
	return spec.InPage() || !strings.HasPrefix(spec.Name, "tab_") && spec.Ext != string(protocol.ExtDialog)
}

// commandNames is every subcommand's name.
func commandNames() []string {
	names := make([]string, 0, len(commandTable)+len(protocol.Actions))
	for _, c := range commandTable {
		names = append(names, c.name)
	}
	for _, spec := range protocol.Actions {
		if isCommand(spec) {
			names = append(names, spec.Name)
		}
	}
	return names
}

func cmdTabs(ctx context.Context, a *App, args []string) (bool, error) {
	f := newFlags(a, "tabs")
	pos, err := f.parse(args)
	if err != nil {
		return *f.json, err
	}
	if len(pos) > 0 {
		return tabsSubcommand(ctx, a, f, pos)
	}
	ops, done, err := a.ops(ctx, f)
	if err != nil {
		return *f.json, err
	}
	defer done()
	tabs, err := ops.Tabs(ctx)
	if err != nil {
		return *f.json, err
	}
	if *f.json {
		a.printJSON(protocol.TabsResult{Tabs: tabs})
		return true, nil
	}
	// * marks the session's default tab: where a command without --tab goes.
	for _, t := range tabs {
		mark := " "
		if t.Default {
			mark = "*"
		}
		if t.Others && t.OwnerIdle {
			fmt.Fprintf(a.Stdout, "%s %d\t(session %q's tab, no agent connected: if it was yours, grip --session %s)\n", mark, t.ID, t.Owner, t.Owner)
			continue
		}
		if t.Others {
			fmt.Fprintf(a.Stdout, "%s %d\t(session %q's tab: not yours)\n", mark, t.ID, t.Owner)
			continue
		}
		if t.Blocked {
			fmt.Fprintf(a.Stdout, "%s %d\t(blocked by the policy)\n", mark, t.ID)
			continue
		}
		// The title is the page's: quoted and on one line (frames.Quote).
		fmt.Fprintf(a.Stdout, "%s %d\t%s\t%s%s\n", mark, t.ID, frames.Quote(t.Title, frames.MaxName), frames.Fold(t.URL, frames.MaxURL), tabNotes(t))
	}
	return false, nil
}

func tabsSubcommand(ctx context.Context, a *App, f *flags, pos []string) (bool, error) {
	args := protocol.ActArgs{}
	switch pos[0] {
	case "new":
		if len(pos) > 2 {
			return *f.json, usagef("usage: grip tabs new [URL]")
		}
		args.Action = protocol.ActTabNew
		if len(pos) == 2 {
			args.Text = pos[1]
		}
	case "close", "select":
		if len(pos) != 2 {
			return *f.json, usagef("usage: grip tabs %s ID", pos[0])
		}
		id, err := strconv.Atoi(pos[1])
		if err != nil || id <= 0 {
			return *f.json, usagef("tab id %q is not a positive number", pos[1])
		}
		args.Tab = id
		args.Action = protocol.ActTabClose
		if pos[0] == "select" {
			args.Action = protocol.ActTabSelect
		}
	default:
		return *f.json, usagef("unknown tabs subcommand %q (new, close, select)", pos[0])
	}
	return *f.json, a.doAct(ctx, f, args)
}

func cmdSnapshot(ctx context.Context, a *App, args []string) (bool, error) {
	f := newFlags(a, "snapshot")
	mode := f.String("mode", protocol.ModeInteractive, "interactive or content")
	budget := f.Int("budget", protocol.DefaultBudget, "token allowance")
	after := f.String("after", "", "continue after this ref (from the trailer)")
	tab := f.Int("tab", 0, "tab id (default: the session's tab)")
	timings := f.Bool("timings", false, "report where the time went (in the JSON, or on stderr)")
	pos, err := f.parse(args)
	if err != nil {
		return *f.json, err
	}
	if len(pos) > 0 {
		return *f.json, usagef("snapshot takes no arguments, got %q", pos[0])
	}
	if *budget <= 0 {
		return *f.json, usagef("--budget must be positive")
	}
	ops, done, err := a.ops(ctx, f)
	if err != nil {
		return *f.json, err
	}
	defer done()
	snap, err := ops.Snapshot(ctx, protocol.SnapshotArgs{Tab: *tab, Mode: *mode, Budget: *budget, After: *after, Timings: *timings,
		TextOnly: !*f.json})
	if err != nil {
		return *f.json, err
	}
	if *f.json {
		a.printJSON(snap)
		return true, nil
	}
	fmt.Fprint(a.Stdout, snap.Text)
	if t := snap.Timings; t != nil {
		walk := 0.0
		for _, fr := range t.Frames {
			walk = max(walk, fr.WalkMS)
		}
		fmt.Fprintf(a.Stderr, "timings: extension %.1f ms (worker %.1f, inject %.1f, slowest frame walk %.1f of %d frames), host decode %.1f, refs %.1f, ledger %.1f, render %.1f; %d bytes\n",
			t.Extension, t.Worker, t.Inject, walk, len(t.Frames), t.Decode, t.Refs, t.Ledger, t.Render, t.Bytes)
	}
	return false, nil
}

// actFlags are the flags every action takes.
type actFlags struct {
	*flags
	tab      *int
	epoch    *uint64
	trusted  *bool
	snapshot *bool
	noSettle *bool
	budget   *int
	changes  *int
	param    *string
}

func newActFlags(a *App, name string) *actFlags {
	f := newFlags(a, name)
	return &actFlags{
		flags:    f,
		tab:      f.Int("tab", 0, "tab id (default: the ref's tab, else the session's tab)"),
		epoch:    f.Uint64("epoch", 0, "refuse if the tab's page changed since this snapshot epoch"),
		trusted:  f.Bool("trusted", false, "real mouse and keyboard input through the debugger"),
		snapshot: f.Bool("snapshot", false, "include a fresh snapshot in the reply"),
		noSettle: f.Bool("no-settle", false, "read the reply at once, without waiting for the page to settle"),
		budget:   f.Int("budget", protocol.DefaultBudget, "token allowance of --snapshot"),
		changes:  f.Int("changes-budget", protocol.DefaultChangesBudget, "token allowance of the reply's lines of what appeared and changed"),
		param:    f.String("param", "", "in a workflow being recorded, keep this action's text as {{NAME}}, not the text"),
	}
}

func (f *actFlags) args(action string) protocol.ActArgs {
	return protocol.ActArgs{Action: action, Tab: *f.tab, Epoch: *f.epoch, Trusted: *f.trusted, Snapshot: *f.snapshot, NoSettle: *f.noSettle, Budget: *f.budget, ChangesBudget: *f.changes, Param: *f.param}
}

// actionUsage is an action's arguments as the usage text shows them:
// the target, then the text, then an optional target ("KEY [TARGET]").
func actionUsage(spec protocol.Action) string {
	var parts []string
	if spec.To {
		parts = append(parts, "SOURCE", "TARGET")
	} else if spec.Target == protocol.TargetRequired {
		parts = append(parts, "TARGET")
	}
	if spec.Text != "" {
		parts = append(parts, spec.Text)
	}
	if spec.Files {
		parts = append(parts, "FILE...")
	}
	if spec.Target == protocol.TargetOptional {
		parts = append(parts, "[TARGET]")
	}
	return strings.Join(parts, " ")
}

// actionCommand builds the command of one action from its description:
// its positionals in actionUsage's order, and the flags every action takes.
func actionCommand(spec protocol.Action) command {
	return func(ctx context.Context, a *App, argv []string) (bool, error) {
		f := newActFlags(a, spec.Name)
		var src textSource
		if spec.Text == "TEXT" {
			f.StringVar(&src.file, "text-file", "", "read TEXT from this file instead (for secrets: not in the process table)")
		}
		var up *bool
		if spec.Name == protocol.ActScroll {
			up = f.Bool("up", false, "scroll the page up instead of down")
		}
		var at, to, toOffset *string
		if spec.At {
			at = f.String("at", "", "X,Y: act at this point, CSS pixels from the top-left of TARGET's box (a canvas, a drawing); refused outside it")
		}
		if spec.To {
			to = f.String("to", "", "X%,Y%: drop at this point of TARGET, in percent of its width and height")
			toOffset = f.String("to-offset", "", "X,Y: drop at this point of TARGET, CSS pixels from its top-left corner")
		}
		var in *string
		if spec.Name == protocol.ActFind {
			in = f.String("in", "", "the list or region to search, scrolling its content (a ref or a snapshot line); default: the page")
		}
		pos, err := f.parse(argv)
		if err != nil {
			return *f.json, err
		}
		src.stdin = a.Stdin
		args, err := actionArgs(spec, f.args(spec.Name), pos, src)
		if err != nil {
			return *f.json, err
		}
		if up != nil && *up {
			args.Text = "up"
		}
		if err := spotFlags(&args, at, to, toOffset); err != nil {
			return *f.json, err
		}
		if in != nil && *in != "" {
			if args.Target != "" && args.Target != *in {
				return *f.json, usagef("usage: grip find TEXT [--in TARGET]: name the list once")
			}
			args.Target = *in
		}
		return *f.json, a.doAct(ctx, f.flags, args)
	}
}

// spotFlags reads --at, --to and --to-offset into args.
func spotFlags(args *protocol.ActArgs, at, to, toOffset *string) error {
	if at != nil && *at != "" {
		s, err := protocol.ParseSpot(*at, true)
		if err != nil {
			return usagef("--at %v", err)
		}
		args.At = &s
	}
	if to != nil && toOffset != nil && *to != "" && *toOffset != "" {
		return usagef("give --to or --to-offset, not both")
	}
	if to != nil && *to != "" {
		s, err := protocol.ParseSpot(*to, true)
		if err != nil {
			return usagef("--to %v", err)
		}
		if !s.Percent {
			return usagef("--to takes percent (--to 40%%,60%%); for pixels use --to-offset X,Y")
		}
		args.ToAt = &s
	}
	if toOffset != nil && *toOffset != "" {
		s, err := protocol.ParseSpot(*toOffset, false)
		if err != nil {
			return usagef("--to-offset %v", err)
		}
		args.ToAt = &s
	}
	return nil
}

// textSource is where TEXT comes from when it is not on the command line:
// `-` reads stdin, --text-file a file; either keeps a secret out of the
// process table, where other local users can read arguments.
type textSource struct {
	file  string
	stdin io.Reader
}

// maxText bounds TEXT read from stdin or a file.
const maxText = 1 << 20

// read returns the text of name ("-" for stdin), without one trailing
// newline (what echo and most editors add).
func (s textSource) read(name string, r io.Reader) (string, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxText+1))
	if err != nil {
		return "", usagef("cannot read TEXT from %s: %v", name, err)
	}
	if len(b) > maxText {
		return "", usagef("TEXT from %s is over %d bytes", name, maxText)
	}
	t := strings.TrimSuffix(string(b), "\n")
	return strings.TrimSuffix(t, "\r"), nil
}

// actionArgs fills args from the positionals in actionUsage's order, with
// TEXT from src when it says so.
func actionArgs(spec protocol.Action, args protocol.ActArgs, pos []string, src textSource) (protocol.ActArgs, error) {
	textOnLine := spec.Text != "" && src.file == ""
	need := 0
	if spec.Target == protocol.TargetRequired {
		need++
	}
	if spec.To {
		need++
	}
	if textOnLine {
		need++
	}
	most := need
	if spec.Target == protocol.TargetOptional {
		most++
	}
	if spec.Files {
		need++
		most = need + protocol.MaxUploadFiles - 1
	}
	if len(pos) < need || len(pos) > most {
		return args, usagef("usage: grip %s %s", spec.Name, actionUsage(spec))
	}
	if spec.Target == protocol.TargetRequired {
		args.Target, pos = pos[0], pos[1:]
	}
	if spec.To {
		args.To, pos = pos[0], pos[1:]
	}
	if textOnLine {
		args.Text, pos = pos[0], pos[1:]
	}
	if spec.Files {
		files, err := absPaths(pos)
		if err != nil {
			return args, err
		}
		args.Files, pos = files, nil
	}
	if len(pos) == 1 {
		args.Target = pos[0]
	}
	var err error
	switch {
	case src.file != "":
		var fh *os.File
		if fh, err = os.Open(src.file); err != nil {
			return args, usagef("--text-file: %v", err)
		}
		defer fh.Close()
		args.Text, err = src.read(src.file, fh)
	case spec.Text == "TEXT" && args.Text == "-":
		if src.stdin == nil {
			return args, usagef("TEXT is - but there is no stdin")
		}
		args.Text, err = src.read("stdin", src.stdin)
	}
	return args, err
}

// doAct sends an action and prints its reply.
func (a *App) doAct(ctx context.Context, f *flags, args protocol.ActArgs) error {
	ops, done, err := a.ops(ctx, f)
	if err != nil {
		return err
	}
	defer done()
	res, err := ops.Act(ctx, args)
	if err != nil {
		return err
	}
	target := args.Target
	if args.To != "" {
		target += " " + args.To
	}
	a.printAction(f, frames.Done(args.Action, target), *res)
	return nil
}

// printAction prints an action's reply: JSON, or the text that starts
// with what.
func (a *App) printAction(f *flags, what string, res protocol.ActionResult) {
	if *f.json {
		a.printJSON(res)
		return
	}
	fmt.Fprint(a.Stdout, frames.ActionText(what, res))
}

// absPaths makes the FILE arguments absolute: the host that reads them
// runs in another folder.
func absPaths(paths []string) ([]string, error) {
	out := make([]string, len(paths))
	for i, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, usagef("%s: %v", p, err)
		}
		out[i] = abs
	}
	return out, nil
}

func cmdWait(ctx context.Context, a *App, argv []string) (bool, error) {
	f := newFlags(a, "wait")
	text := f.String("text", "", "wait until this text is on the page")
	textGone := f.String("text-gone", "", "wait until this text is no longer on the page")
	gone := f.String("gone", "", "wait until this ref's element is gone")
	url := f.String("url", "", "wait until the tab's URL is or contains this")
	ms := f.Int("ms", 0, "just wait this many milliseconds")
	download := f.Bool("download", false, "wait for the next download to finish and print its path")
	timeout := f.Duration("timeout", 10*time.Second, "give up after this long")
	tab := f.Int("tab", 0, "tab id (default: the session's tab)")
	pos, err := f.parse(argv)
	if err != nil {
		return *f.json, err
	}
	if len(pos) > 0 {
		return *f.json, usagef("wait takes flags only, got %q", pos[0])
	}
	n := 0
	for _, set := range []bool{*text != "", *textGone != "", *gone != "", *url != "", *ms > 0, *download} {
		if set {
			n++
		}
	}
	if n != 1 {
		return *f.json, usagef("give exactly one of --text, --text-gone, --gone, --url, --ms, --download")
	}
	ops, done, err := a.ops(ctx, f)
	if err != nil {
		return *f.json, err
	}
	defer done()
	res, err := ops.Wait(ctx, protocol.WaitArgs{Tab: *tab, Text: *text, TextGone: *textGone, Gone: *gone, URL: *url, MS: *ms, Download: *download, TimeoutMS: int(timeout.Milliseconds())})
	if err != nil {
		return *f.json, err
	}
	if *download && !*f.json && res.Download != nil {
		fmt.Fprintln(a.Stdout, res.Download.Path) // the path alone, for f=$(grip wait --download)
		return false, nil
	}
	a.printAction(f, frames.Done("wait", ""), *res)
	return *f.json, nil
}

func cmdScreenshot(ctx context.Context, a *App, argv []string) (bool, error) {
	f := newFlags(a, "screenshot")
	out := f.String("o", "", "write the PNG here, a new file (default screenshot-TAB-TIME.png)")
	force := f.Bool("force", false, "with -o: replace an existing file (never a link)")
	tab := f.Int("tab", 0, "tab id (default: the session's tab)")
	refs := f.Bool("refs", false, "take a snapshot and draw its refs over the page")
	grid := f.Bool("grid", false, "with @eN: draw coordinates over the element, CSS pixels from its top-left corner (for click --at)")
	pos, err := f.parse(argv)
	if err != nil {
		return *f.json, err
	}
	if len(pos) > 1 || len(pos) == 1 && *refs || *grid && len(pos) != 1 {
		return *f.json, usagef("usage: grip screenshot [@eN [--grid] | --refs] [-o FILE]")
	}
	if len(pos) == 1 || *refs {
		target := ""
		if len(pos) == 1 {
			target = pos[0]
		}
		return *f.json, a.shapedScreenshot(ctx, f, protocol.ScreenshotShapeArgs{Tab: *tab, Target: target, Refs: *refs, Grid: *grid}, *out, *force) // cli/devtools.go
	}
	ops, done, err := a.ops(ctx, f)
	if err != nil {
		return *f.json, err
	}
	defer done()
	res, err := ops.Screenshot(ctx, *tab)
	if err != nil {
		return *f.json, err
	}
	path, err := writeScreenshot(*out, res.Tab.ID, time.Now(), res.PNG, *force)
	if err != nil {
		return *f.json, err
	}
	if *f.json {
		a.printJSON(map[string]any{"ok": true, "tab": res.Tab, "path": path, "bytes": len(res.PNG)})
	} else {
		fmt.Fprintf(a.Stdout, "wrote %s (%d bytes)\n", path, len(res.PNG))
	}
	return *f.json, nil
}

func cmdStatus(ctx context.Context, a *App, argv []string) (bool, error) {
	f := newFlags(a, "status")
	if _, err := f.parse(argv); err != nil {
		return *f.json, err
	}
	ops, done, err := a.ops(ctx, f)
	if err != nil {
		return *f.json, err
	}
	defer done()
	st, err := ops.Status(ctx)
	if err != nil {
		return *f.json, err
	}
	// The folder grip mcp writes to and reads from for this profile
	// (docs/files.md, "Files in and out").
	outputDir, _ := outdir.ForProfile(st.Host.Profile)
	if *f.json {
		a.printJSON(struct {
			*protocol.Status
			OutputDir string `json:"output_dir,omitempty"`
		}{st, outputDir})
		return true, nil
	}
	fmt.Fprintf(a.Stdout, "host %s (pid %d), extension %s, profile %s\nrefs: %d live, %d stale, next @e%d\n",
		st.Host.HostVersion, st.Host.PID, st.Host.ExtensionVersion, st.Host.Profile, st.LiveRefs, st.InactiveRefs, st.NextRef)
	if st.LedgerError != "" {
		fmt.Fprintf(a.Stdout, "ledger: %s\n", st.LedgerError)
	}
	if st.Paused {
		fmt.Fprintln(a.Stdout, pauseLine(st.PausedBy, st.Lift))
	}
	if p := st.Policy; p != nil && p.Error != "" {
		fmt.Fprintf(a.Stdout, "policy: %s\n", p.Error)
	}
	if outputDir != "" {
		fmt.Fprintf(a.Stdout, "output_dir: %s (grip mcp's files)\n", outputDir)
	}
	return false, nil
}

// writeScreenshot writes png to a new file only the user can read: path,
// or screenshot-TAB-TIME.png in the current folder. It never writes through
// a link, nor over an existing file unless force (--force) names one (a
// page's pixels may be private, and a predictable name in a shared folder
// must not become someone else's file).
func writeScreenshot(path string, tab int, now time.Time, png []byte, force bool) (string, error) {
	if path != "" {
		if err := writeNew(path, png, force); err != nil {
			return "", err
		}
		return path, nil
	}
	stamp := now.Format("20060102-150405")
	for i := 0; ; i++ {
		name := fmt.Sprintf("screenshot-%d-%s.png", tab, stamp)
		if i > 0 {
			name = fmt.Sprintf("screenshot-%d-%s-%d.png", tab, stamp, i)
		}
		err := writeNew(name, png, false)
		if errors.Is(err, protocol.ErrBadRequest) && i < 100 {
			continue
		}
		if err != nil {
			return "", err
		}
		return name, nil
	}
}
