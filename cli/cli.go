// Package cli is grip's command line: the agent-facing commands, which
// cmd/grip links alone. The heavy side (the host mode Chrome starts,
// install/doctor, mcp, demo, launch) is package cli/hostcli, which
// cmd/grip-host links in through App.Heavy; without it an App hands
// those commands to the grip-host binary (docs/cli-cost.md, "The
// CLI's fixed cost"). The mains only build an App from the process and
// call Run, so tests drive the same code.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/internal/version"
	"github.com/grip-dev/grip/protocol"
)

// Exit codes: 0 ok, 1 a refused or failed action, 2 a usage error.
const (
	ExitOK      = 0
	ExitFailed  = 1
	ExitUsage   = 2
	hostPrefix  = "chrome-extension://"
	defaultWait = 10 * time.Second
)

// App is one invocation of grip.
type App struct {
	Args   []string // without the program name
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
	Getenv func(string) string
	// Heavy runs the commands of the other side in this process
	// (cmd/grip-host); nil hands them to the grip-host binary.
	Heavy *Heavy
}

// Heavy is the side of grip that links the host, the MCP server, the
// installer and the demo site (package cli/hostcli).
type Heavy struct {
	Host   func(ctx context.Context, a *App) int // `grip chrome-extension://ID/`, as Chrome starts it
	Lookup func(name string) (Command, bool)     // install, uninstall, doctor, mcp, demo, launch
}

// Command runs a subcommand and says whether its output is JSON (so its
// error is printed as JSON too).
type Command = command

// Usagef is a usage error (exit 2).
func Usagef(format string, args ...any) error { return usagef(format, args...) }

// ErrSilent fails a command (exit 1) without printing anything more: the
// command already said what is wrong.
var ErrSilent = errSilent

var errSilent = errors.New("")

// errUsage marks an error as a usage error (exit 2).
type errUsage struct{ msg string }

func (e errUsage) Error() string { return e.msg }

func usagef(format string, args ...any) error { return errUsage{fmt.Sprintf(format, args...)} }

// Run runs the command and returns the process exit code.
func (a *App) Run(ctx context.Context) int {
	if a.Getenv == nil {
		a.Getenv = os.Getenv
	}
	if len(a.Args) > 0 && strings.HasPrefix(a.Args[0], hostPrefix) {
		if a.Heavy == nil {
			return a.handOff(ctx)
		}
		ctx, stop := untilInterrupted(ctx)
		defer stop()
		return a.Heavy.Host(ctx, a)
	}
	a.Args = sessionFirst(a.Args)
	if len(a.Args) == 0 || a.Args[0] == "help" || a.Args[0] == "--help" || a.Args[0] == "-h" {
		fmt.Fprint(a.Stdout, usage())
		return ExitOK
	}
	if a.Args[0] == "version" || a.Args[0] == "--version" {
		fmt.Fprint(a.Stdout, versionLine())
		return ExitOK
	}
	if a.Heavy == nil && heavyCommand(a.Args[0]) {
		return a.handOff(ctx)
	}
	cmd, ok := a.lookup(a.Args[0])
	if !ok {
		fmt.Fprintf(a.Stderr, "grip: unknown command %q (grip help lists them)\n", a.Args[0])
		return ExitUsage
	}
	return a.finish(cmd(ctx, a, a.Args[1:]))
}

// sessionFirst lets the session be named before the command, as a
// person thinks of it (grip --session A tabs new URL): it is moved just
// behind the command, where every command's flags are parsed.
func sessionFirst(args []string) []string {
	switch {
	case len(args) >= 3 && (args[0] == "--session" || args[0] == "-session"):
		return append([]string{args[2], "--session", args[1]}, args[3:]...)
	case len(args) >= 2 && (strings.HasPrefix(args[0], "--session=") || strings.HasPrefix(args[0], "-session=")):
		return append([]string{args[1], args[0]}, args[2:]...)
	}
	return args
}

// VersionLine is what `grip --version` prints (versionLine).
func VersionLine() string { return versionLine() }

// versionLine is what `grip --version` prints: the version the host
// reports as host_version, and the socket protocol it speaks.
func versionLine() string {
	return fmt.Sprintf("grip %s (protocol %d)\n", version.String(), protocol.Version)
}

// finish prints an error (JSON on stdout with --json, else one line on
// stderr: "grip: <code>: <message> (<hint>)") and picks the exit code.
func (a *App) finish(jsonOut bool, err error) int {
	if err == nil {
		return ExitOK
	}
	if err == errSilent {
		return ExitFailed
	}
	var ue errUsage
	if errors.As(err, &ue) || errors.Is(err, flag.ErrHelp) {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintf(a.Stderr, "grip: %s\n", ue.msg)
		}
		return ExitUsage
	}
	perr := protocol.AsError(err)
	if jsonOut {
		a.printJSON(map[string]any{"error": perr})
	} else {
		fmt.Fprintf(a.Stderr, "grip: %s\n", perr.Error())
	}
	return ExitFailed
}

// PrintJSON prints v as one JSON object on stdout.
func (a *App) PrintJSON(v any) { a.printJSON(v) }

func (a *App) printJSON(v any) {
	enc := json.NewEncoder(a.Stdout)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

type command func(ctx context.Context, a *App, args []string) (jsonOut bool, err error)

// interruptible gives cmd a context that Ctrl-C and SIGTERM cancel, for a
// command that owns what a kill would tear: a browser or a server it
// started (host, mcp, demo, launch), a file it writes (screenshot, pdf,
// record), the files it installs, the steps of a replay. The agent
// commands that only ask the host go without: the signal handler's
// goroutine and thread were a fifth of every start (docs/cli-cost.md,
// "The CLI's fixed cost"), and when Ctrl-C kills one its socket closes and the
// host drops what it asked, as it did when the context was cancelled.
func interruptible(cmd command) command {
	return func(ctx context.Context, a *App, args []string) (bool, error) {
		ctx, stop := untilInterrupted(ctx)
		defer stop()
		return cmd(ctx, a, args)
	}
}

func untilInterrupted(ctx context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
}

// flags is a flag set parsed with flags and positionals interleaved, as
// agents write them (`grip click @e3 --json`).
type flags struct {
	*flag.FlagSet
	json    *bool
	profile *string
	session *string
	wait    *time.Duration
}

func newFlags(a *App, name string) *flags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(a.Stderr)
	return &flags{
		FlagSet: fs,
		json:    fs.Bool("json", false, "print one JSON object on stdout"),
		profile: fs.String("profile", "", "the browser profile to use when several are connected"),
		session: fs.String("session", "", "the session this agent works in: it owns the tabs it opens (default $GRIP_SESSION, else cli)"),
		wait:    fs.Duration("wait", defaultWait, "how long to wait for a browser to connect"),
	}
}

// Flags are the flags every command takes, and its own.
type Flags = flags

// NewFlags is a command's flag set with the flags every command takes.
func NewFlags(a *App, name string) *Flags { return newFlags(a, name) }

func (f *flags) JSON() bool                                { return *f.json }
func (f *flags) Profile() string                           { return *f.profile }
func (f *flags) SessionFlag() string                       { return *f.session }
func (f *flags) Wait() time.Duration                       { return *f.wait }
func (f *flags) ParseArgs(args []string) ([]string, error) { return f.parse(args) }

// parse parses flags anywhere among the positionals.
func (f *flags) parse(args []string) ([]string, error) {
	var pos []string
	for {
		if err := f.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, usagef("%v", err)
		}
		rest := f.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if rest[0] == "--" {
			return append(pos, rest[1:]...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// session connects to the host, waiting up to --wait for one.
// A host that warns (an extension from another build) says so on stderr,
// where it cannot spoil --json output.
func (a *App) session(ctx context.Context, f *flags) (*client.Session, error) {
	s, err := client.NewSession(ctx, client.Options{
		Profile: *f.profile,
		Session: a.sessionName(f),
		Wait:    *f.wait,
		Waiting: func(msg string) {
			if !*f.json {
				fmt.Fprintln(a.Stderr, "grip: "+msg)
			}
		},
	})
	if err == nil && s.Info().Warning != "" {
		fmt.Fprintln(a.Stderr, "grip: warning: "+s.Info().Warning)
	}
	return s, err
}

// Session connects to the host, waiting up to --wait for one.
func (a *App) Session(ctx context.Context, f *Flags) (*client.Session, error) {
	return a.session(ctx, f)
}

// SessionName is the session the command works in.
func (a *App) SessionName(f *Flags) string { return a.sessionName(f) }

// sessionName is the session the command works in: --session, else
// GRIP_SESSION, else "" (the host's default session, cli).
func (a *App) sessionName(f *flags) string {
	if *f.session != "" {
		return *f.session
	}
	return a.Getenv("GRIP_SESSION")
}

// ops connects to the host and returns its typed operations, and the
// function that closes the connection.
func (a *App) ops(ctx context.Context, f *flags) (client.Ops, func(), error) {
	s, err := a.session(ctx, f)
	if err != nil {
		return client.Ops{}, nil, err
	}
	return s.Ops, func() { s.Close() }, nil
}

// usage is the help text; the actions come from protocol.Actions.
func usage() string {
	var b strings.Builder
	b.WriteString(`grip — drive your own Chrome from an AI agent, with element refs that keep their meaning.

Reading:
  grip tabs [new URL | close ID | select ID]   list or change tabs
  grip snapshot [--mode interactive|content] [--budget N] [--after @eN] [--tab ID]
  grip read TARGET [--from N] [--budget N]   one element's whole text, which a snapshot line cuts
Acting (a target is a ref @eN, a snapshot line "button 'Save'", else CSS; "iframe >>> sel" enters frames):
`)
	for _, spec := range protocol.Actions {
		if !isCommand(spec) {
			continue
		}
		fmt.Fprintf(&b, "  %-35s%s\n", "grip "+spec.Name+" "+actionUsage(spec), spec.Help)
	}
	b.WriteString(`  grip dialog [accept [--text T] | dismiss]   show or answer the tab's alert, confirm, prompt, beforeunload
  grip wait (--text T | --text-gone T | --gone @eN | --url U | --ms N) [--timeout D]
  grip wait --download [--timeout D]         wait for the next download to finish; prints its path
  grip downloads [--limit N] [--tab ID]      the browser's downloads, newest first
  grip screenshot [@eN | --refs] [-o FILE]   the viewport, one element, or the viewport with refs drawn
  grip handoff "WHY" [--tab ID] [--timeout D] ask the person to do a step (CAPTCHA, 2FA code, login,
                                               payment): returns when they press Done, with what changed
Developer tools (under the policy; eval only where it says script):
  grip console [--level error|warning|info|debug]   the page's console and uncaught errors
  grip network [--filter TEXT] [--all] | --body ID [-o FILE]   its requests; a response body
  grip eval EXPR                             run EXPR in the page, print its JSON value
  grip pdf [-o FILE] [--landscape]           the page as a PDF
  grip resize W H [--tab ID]                 the size of the tab's window (a browser grip launched)
  Action flags: --tab ID, --epoch N, --trusted, --snapshot, --no-settle, --param NAME; scroll also --up
Recorded workflows (run again with no model; stop, not guess, where the page changed):
  grip record start FILE [--person [--timeout D]] | grip record stop | grip record status
  grip replay FILE [--param NAME=VALUE …] [--params FILE|-] [--tab ID]
Setting up:
  grip install [--browser chrome|chromium|edge|brave|vivaldi|all] [--user-data-dir DIR]
  sudo grip install --system [--browser …]    Linux: every user, no Developer mode
  grip uninstall [--system] | grip doctor | grip status
  grip demo [--headed] [--browser-path PATH]   see it work on a bundled site
  grip launch [--headed] [--window-size W,H] [--profile-dir DIR] [--detach] [--no-sandbox] [URL]
                                               a separate Chromium with grip connected
  grip mcp                                     MCP server on stdio for agent runners
  grip --version                               this grip's version (the host reports the same)
You stay in charge:
  grip pause | grip resume                     refuse every agent action / allow again (resume asks in the browser)
  grip resume --token-file FILE                in a browser grip launch started: lift the pause with the
                                               token file it printed (no one to ask in a headless one)
  grip log [--tab ID] [--limit N]              what agents did: time, tab, site, action, outcome, client
  grip policy [URL]                            the policy in force (block, read, confirm, act, script by site),
                                               or which rule URL falls under
Every command takes --json, --profile ID, --wait DURATION (default 10s) and --session NAME
(default $GRIP_SESSION, else cli): a session owns the tabs it opens (grip tabs new opens one in
the background, in a tab group named after the session) and never touches another session's.
Exit codes: 0 ok, 1 refused or failed, 2 usage.
`)
	return b.String()
}
