package hostcli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/grip-dev/grip/cli"
	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/launcher"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/statedir"
)

// launchInfo is what `grip launch --json` prints.
type launchInfo struct {
	BrowserPID   int    `json:"browser_pid"`
	BrowserPath  string `json:"browser_path"`
	ProfileDir   string `json:"profile_dir"`
	ExtensionDir string `json:"extension_dir"`
	StateDir     string `json:"state_dir"`
	Profile      string `json:"profile"`
	HostPID      int    `json:"host_pid"`
	Socket       string `json:"socket"`
	Headed       bool   `json:"headed"`
	Detached     bool   `json:"detached"`
	// Sandbox says whether the browser runs in Chromium's sandbox, and
	// NoSandboxReason why not.
	Sandbox         bool   `json:"sandbox"`
	NoSandboxReason string `json:"no_sandbox_reason,omitempty"`
	// ResumeTokenFile lifts a pause in this browser: grip resume
	// --token-file FILE (docs/person.md, "A browser grip launched").
	ResumeTokenFile string `json:"resume_token_file"`
	// Paused says agents are paused here already: the pause lives in the
	// profile and outlasts the browser.
	Paused bool `json:"paused,omitempty"`
	// DevToolsPort is the remote debugging port on 127.0.0.1, when
	// --remote-debugging-port opened one.
	DevToolsPort int `json:"devtools_port,omitempty"`
}

// cmdLaunch is `grip launch [--headed] [--window-size W,H] [--profile-dir DIR] [--browser-path
// PATH] [--detach] [--no-sandbox] [URL]`: a dedicated Chromium with grip
// installed and connected, for people who would rather not install grip
// into their own browser, and for scripts. The browser keeps Chromium's
// sandbox unless it cannot run (as root) or the user turns it off, and
// says so on stderr and in --json when it is off.
func cmdLaunch(ctx context.Context, a *cli.App, args []string) (bool, error) {
	f := cli.NewFlags(a, "launch")
	headed := f.Bool("headed", false, "show the browser window")
	profileDir := f.String("profile-dir", "", "the browser profile folder (default: launch-profile in grip's state dir); it keeps logins between launches")
	path := f.String("browser-path", "", "the Chromium-family browser to run (default: found on PATH or where browsers install)")
	detach := f.Bool("detach", false, "leave the browser running and exit once it is connected")
	windowSize := f.String("window-size", fmt.Sprintf("%d,%d", launcher.DefaultWindowWidth, launcher.DefaultWindowHeight), "the window's width and height in CSS pixels, W,H (grip resize changes it later)")
	debugPort := f.Int("remote-debugging-port", -1, "open Chromium's debugging port on 127.0.0.1 (0: any free port; its number is in --json): any program of this machine that reaches it drives the browser past grip's policy, so only for tools that observe grip (scripts/walk)")
	noSandbox := f.Bool("no-sandbox", false, "run the browser without Chromium's sandbox, for a machine where it cannot run: a bug in a page's renderer then runs as you")
	// A cold browser start takes longer than the usual wait for a host.
	if w := f.Lookup("wait"); w != nil {
		w.DefValue = "30s"
		_ = w.Value.Set(w.DefValue)
	}
	pos, err := f.ParseArgs(args)
	if err != nil {
		return f.JSON(), err
	}
	if len(pos) > 1 {
		return f.JSON(), cli.Usagef("usage: grip launch [flags] [URL]")
	}
	url := ""
	if len(pos) == 1 {
		url = pos[0]
	}
	width, height, err := parseWindowSize(*windowSize)
	if err != nil {
		return f.JSON(), err
	}
	bin, err := launcher.Find(*path)
	if err != nil {
		return f.JSON(), protocol.Errorf(protocol.CodeNoBrowser, protocol.BoundaryBrowser, "", "%v", err)
	}
	dirs, err := statedir.Get()
	if err != nil {
		return f.JSON(), err
	}
	if *profileDir == "" {
		*profileDir = filepath.Join(dirs.Root, "launch-profile")
	}
	if *profileDir, err = filepath.Abs(*profileDir); err != nil {
		return f.JSON(), err
	}
	self, err := os.Executable()
	if err != nil {
		return f.JSON(), fmt.Errorf("launch: cannot find the grip binary to install as the host: %w", err)
	}
	extDir, err := launcher.PrepareProfile(*profileDir, self)
	if err != nil {
		return f.JSON(), err
	}
	if err := statedir.Ensure(dirs.Logs); err != nil {
		return f.JSON(), err
	}
	logf, err := os.OpenFile(filepath.Join(dirs.Logs, "launch-browser.log"), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o600)
	if err != nil {
		return f.JSON(), err
	}
	defer logf.Close()
	// The resume token is the launcher's: its file is written once this
	// browser's host is up; the browser's environment holds only its hash.
	token, sum, err := launcher.NewResumeToken()
	if err != nil {
		return f.JSON(), err
	}
	port := 0
	switch {
	case *debugPort == 0:
		port = launcher.AnyDebugPort
	case *debugPort > 0 && *debugPort < 65536:
		port = *debugPort
	case *debugPort != -1:
		return f.JSON(), cli.Usagef("--remote-debugging-port takes a port number, or 0 for any free one")
	}
	if port != 0 {
		// A file left by an earlier browser of this profile names its port.
		_ = os.Remove(filepath.Join(*profileDir, "DevToolsActivePort"))
	}
	launch := launcher.Launch{ProfileDir: *profileDir, Headless: !*headed, ResumeSHA256: sum}
	proc, err := launcher.Start(ctx, launcher.Options{
		Path: bin, ProfileDir: *profileDir, ExtDir: extDir, Headed: *headed,
		Env: []string{statedir.EnvVar + "=" + dirs.Root, launch.Env()}, Output: logf, Detach: *detach, NoSandbox: *noSandbox,
		WindowWidth: width, WindowHeight: height,
		DebugPort: port,
	})
	if err != nil {
		if errors.Is(err, launcher.ErrNoDisplay) {
			err = protocol.Errorf(protocol.CodeNoBrowser, protocol.BoundaryBrowser, "", "%v", err)
		}
		return f.JSON(), err
	}
	stopped := false
	defer func() {
		if !stopped && !*detach {
			proc.Stop()
		}
	}()
	if proc.NoSandbox != "" {
		// Said even with --json: stderr is not the JSON's channel.
		fmt.Fprintf(a.Stderr, "grip: warning: the browser runs without Chromium's sandbox (%s); a bug in a page's renderer runs as this user\n", proc.NoSandbox)
	}
	if !f.JSON() {
		fmt.Fprintf(a.Stderr, "grip: started %s (pid %d) with profile %s; waiting up to %s for grip's host…\n", bin, proc.PID, *profileDir, f.Wait())
	}
	info, err := waitOwnHost(ctx, dirs.Runtime, proc, f.Wait())
	if err != nil {
		proc.Stop()
		stopped = true
		if hint := launcher.SandboxHint(logf.Name()); hint != "" {
			return f.JSON(), fmt.Errorf("%w; %s (the browser's log: %s)", err, hint, logf.Name())
		}
		return f.JSON(), fmt.Errorf("%w (the browser's log: %s)", err, logf.Name())
	}
	tokenFile, err := launcher.WriteResumeToken(*profileDir, token)
	if err != nil {
		return f.JSON(), fmt.Errorf("launch: write the resume token: %w", err)
	}
	paused := launchedPaused(ctx, dirs.Runtime, proc)
	devtools := 0
	if port != 0 {
		if devtools, err = launcher.DebugPortOf(ctx, *profileDir, 10*time.Second); err != nil {
			return f.JSON(), err
		}
		// Said even with --json: stderr is not the JSON's channel.
		fmt.Fprintf(a.Stderr, "grip: warning: the browser's debugging port is open on 127.0.0.1:%d; any program of this machine that reaches it drives the browser past grip's policy\n", devtools)
	}
	if url != "" {
		// The start URL is opened through grip once its host is there, not
		// on the browser's command line: a tab the browser opened before
		// grip's extension ran is one the extension may not read ("Cannot
		// access contents of the page") until it loads again.
		if err := openStartURL(ctx, dirs.Runtime, proc, url); err != nil {
			fmt.Fprintf(a.Stderr, "grip: warning: the browser is up, but opening %s failed: %s\n", url, protocol.AsError(err).Error())
		}
	}
	out := launchInfo{
		BrowserPID: proc.PID, BrowserPath: bin, ProfileDir: *profileDir, ExtensionDir: extDir,
		StateDir: dirs.Root, Profile: info.Profile, HostPID: info.PID, Socket: info.Socket,
		Headed: *headed, Detached: *detach, Sandbox: proc.NoSandbox == "", NoSandboxReason: proc.NoSandbox,
		ResumeTokenFile: tokenFile, Paused: paused, DevToolsPort: devtools,
	}
	if paused {
		// Said even with --json: stderr is not the JSON's channel.
		fmt.Fprintf(a.Stderr, "grip: warning: agents are paused in this browser (the pause is kept in its profile); lift it with: grip resume --token-file %s\n", tokenFile)
	}
	if f.JSON() {
		a.PrintJSON(out)
	} else {
		fmt.Fprintf(a.Stdout, "browser: pid %d (%s)\nprofile: %s (folder %s)\nhost:    pid %d, socket %s\n",
			out.BrowserPID, bin, out.Profile, out.ProfileDir, out.HostPID, out.Socket)
		fmt.Fprintf(a.Stdout, "grip commands now drive this browser (GRIP_STATE_DIR=%s; add --profile %s when several browsers are connected).\n", dirs.Root, out.Profile)
		fmt.Fprintf(a.Stdout, "After grip pause, resume it with: grip resume --token-file %s (keep that file from the agent).\n", tokenFile)
		if *detach {
			fmt.Fprintf(a.Stdout, "It keeps running; stop it with: kill -- -%d\n", proc.PID)
		} else {
			fmt.Fprintln(a.Stdout, "Ctrl-C stops it.")
		}
	}
	if *detach {
		return f.JSON(), nil
	}
	select {
	case <-ctx.Done():
		if !f.JSON() {
			fmt.Fprintln(a.Stderr, "grip: stopping the browser")
		}
		proc.Stop()
		stopped = true
		return f.JSON(), nil
	case <-proc.Done():
		stopped = true
		if !f.JSON() {
			fmt.Fprintln(a.Stderr, "grip: the browser closed")
		}
		return f.JSON(), nil
	}
}

// waitOwnHost waits for the host that proc's extension starts to publish
// itself in runtimeDir, and checks that it answers. Other browsers may be
// connected already (the user's own Chrome): only a host that proc started
// counts.
func waitOwnHost(ctx context.Context, runtimeDir string, proc *launcher.Process, wait time.Duration) (protocol.HostInfo, error) {
	ctx, cancel := proc.Context(ctx)
	defer cancel()
	c, err := client.Connect(ctx, client.Options{RuntimeDir: runtimeDir, Wait: wait,
		Accept: func(h protocol.HostInfo) bool { return proc.Owns(h.PID) }})
	switch {
	case err == nil:
		c.Close()
		return c.Info, nil
	case protocol.AsError(err).Code == protocol.CodeNoBrowser:
		return protocol.HostInfo{}, protocol.Errorf(protocol.CodeNoBrowser, protocol.BoundaryHost,
			"grip doctor says what is missing; the host's log is in grip's state dir",
			"the launched browser's grip host did not connect within %s", wait)
	}
	select {
	case <-proc.Done():
		return protocol.HostInfo{}, fmt.Errorf("launch: %w before grip's host connected (is another browser using this profile folder?)", proc.Err())
	default:
		return protocol.HostInfo{}, err
	}
}

// launchedPaused asks proc's host whether agents are paused there (a
// pause from an earlier run of the profile); false when it cannot tell.
func launchedPaused(ctx context.Context, runtimeDir string, proc *launcher.Process) bool {
	ctx, cancel := proc.Context(ctx)
	defer cancel()
	c, err := client.Connect(ctx, client.Options{RuntimeDir: runtimeDir, Wait: 5 * time.Second, Client: "grip launch",
		Accept: func(h protocol.HostInfo) bool { return proc.Owns(h.PID) }})
	if err != nil {
		return false
	}
	defer c.Close()
	st, err := client.Ops{Caller: c}.Status(ctx)
	return err == nil && st.Paused
}

// openStartURL navigates the launched browser's active tab to url through
// its own host.
func openStartURL(ctx context.Context, runtimeDir string, proc *launcher.Process, url string) error {
	ctx, cancel := proc.Context(ctx)
	defer cancel()
	c, err := client.Connect(ctx, client.Options{RuntimeDir: runtimeDir, Wait: 5 * time.Second, Client: "grip launch",
		Accept: func(h protocol.HostInfo) bool { return proc.Owns(h.PID) }})
	if err != nil {
		return err
	}
	defer c.Close()
	_, err = client.Ops{Caller: c}.Act(ctx, protocol.ActArgs{Action: protocol.ActNavigate, Text: url})
	return err
}

// parseWindowSize reads --window-size: W,H (or WxH) in CSS pixels, within
// the sizes grip resize takes.
func parseWindowSize(s string) (w, h int, err error) {
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == 'x' })
	if len(parts) == 2 {
		w, err = strconv.Atoi(strings.TrimSpace(parts[0]))
		if err == nil {
			h, err = strconv.Atoi(strings.TrimSpace(parts[1]))
		}
	}
	if len(parts) != 2 || err != nil || w < protocol.MinWindowWidth || w > protocol.MaxWindowWidth ||
		h < protocol.MinWindowHeight || h > protocol.MaxWindowHeight {
		return 0, 0, cli.Usagef("--window-size is W,H: a width of %d to %d and a height of %d to %d CSS pixels, e.g. --window-size 1280,800",
			protocol.MinWindowWidth, protocol.MaxWindowWidth, protocol.MinWindowHeight, protocol.MaxWindowHeight)
	}
	return w, h, nil
}
