// Package demo is `grip demo`: with nothing set up but a Chromium-family
// browser, it installs grip into a temporary profile, serves a bundled
// demo shop on two loopback origins, and walks an agent's loop through it
// with the same socket operations the CLI uses, printing each step as the
// agent sees it and checking that it did what it showed. It removes
// everything it made when it ends, Ctrl-C included.
package demo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/launcher"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/statedir"
)

// ErrFailed is returned when a step did not do what it showed.
var ErrFailed = errors.New("demo: a step did not do what it showed")

// Config shapes a run of the demo.
type Config struct {
	Out         io.Writer // the transcript
	GripBin     string    // the binary Chrome starts as the host: the running grip
	BrowserPath string    // "" finds one
	Headed      bool      // a visible window
	// Keep leaves the browser and the shop up after the last step, until
	// ctx is done, so a person can run grip commands against them.
	Keep bool
	// ConnectWait bounds the wait for the host (default 30s).
	ConnectWait time.Duration
	// NoSandbox runs the browser without Chromium's sandbox (grip demo
	// --no-sandbox); as root it is off anyway.
	NoSandbox bool
}

// Run runs the demo. It returns ErrFailed when a step failed its check,
// and cleans up on every path, including ctx being cancelled.
func Run(ctx context.Context, cfg Config) (err error) {
	start := time.Now()
	if cfg.ConnectWait <= 0 {
		cfg.ConnectWait = 30 * time.Second
	}
	path, err := launcher.Find(cfg.BrowserPath)
	if err != nil {
		return err
	}
	root, err := os.MkdirTemp("", "grip-demo-")
	if err != nil {
		return err
	}
	out := &printer{w: cfg.Out}
	var hostPIDs []int
	stateDir := filepath.Join(root, "state")
	runtimeDir := statedir.At(stateDir).Runtime
	defer func() {
		if rerr := removeAll(root); rerr != nil && err == nil {
			err = rerr
		}
	}()

	extDir, err := launcher.PrepareProfile(filepath.Join(root, "profile"), cfg.GripBin)
	if err != nil {
		return err
	}
	site, err := Serve()
	if err != nil {
		return err
	}
	defer site.Close()
	logf, err := os.Create(filepath.Join(root, "browser.log"))
	if err != nil {
		return err
	}
	defer logf.Close()

	mode := "headless"
	if cfg.Headed {
		mode = "headed"
	}
	// Chromium keeps some files in TMPDIR and may leave them when it is
	// stopped: give it one inside root, which goes at the end.
	tmp := filepath.Join(root, "tmp")
	if err := os.Mkdir(tmp, 0o700); err != nil {
		return err
	}
	proc, err := launcher.Start(ctx, launcher.Options{
		Path: path, ProfileDir: filepath.Join(root, "profile"), ExtDir: extDir, Headed: cfg.Headed,
		Env: []string{statedir.EnvVar + "=" + stateDir, "TMPDIR=" + tmp}, Output: logf,
		NoSandbox: cfg.NoSandbox,
	})
	if err != nil {
		return err
	}
	if proc.NoSandbox != "" {
		mode += ", without Chromium's sandbox: " + proc.NoSandbox
	}
	out.line("grip demo — %s (%s, pid %d), a temporary profile with grip installed", path, mode, proc.PID)
	out.line("demo shop: %s (card form served from %s)", site.CheckoutURL(), site.Card)
	defer func() {
		// Stop the browser, then wait for the hosts it started (they save
		// their ledger as they go) before the temp dir is removed.
		if hosts, _ := client.Hosts(runtimeDir); len(hosts) > 0 {
			for _, h := range hosts {
				hostPIDs = append(hostPIDs, h.PID)
			}
		}
		proc.Stop()
		waitGone(hostPIDs, 5*time.Second)
	}()

	sess, err := connect(ctx, proc, runtimeDir, cfg.ConnectWait)
	if err != nil {
		if hint := launcher.SandboxHint(logf.Name()); hint != "" {
			err = fmt.Errorf("%w; %s", err, hint)
		}
		return fmt.Errorf("%w\n%s", err, diagnostics(root, stateDir))
	}
	defer sess.Close()
	hostPIDs = append(hostPIDs, sess.Info().PID)
	out.line("connected to grip's host: pid %d, browser profile %s (%.1f s after start)", sess.Info().PID, sess.Info().Profile, time.Since(start).Seconds())

	// The shop is opened through grip once its host is there, not on the
	// browser's command line: a tab the browser opened before grip's
	// extension ran is one the extension may not read until it loads again.
	if _, err := sess.Ops.Act(ctx, protocol.ActArgs{Action: protocol.ActNavigate, Text: site.CheckoutURL()}); err != nil {
		return fmt.Errorf("opening the demo shop: %w\n%s", protocol.AsError(err), diagnostics(root, stateDir))
	}
	w := &walk{ctx: ctx, c: sess.Ops, out: out, site: site}
	passed := w.run()
	if ctx.Err() != nil {
		out.line("\ninterrupted: cleaning up")
		return ctx.Err()
	}
	if !passed {
		out.line("\n✗ the demo failed at step %d (%.1f s); the host's log: %s", w.failed, time.Since(start).Seconds(),
			filepath.Join(statedir.At(stateDir).Logs, "host.log"))
		if tail := diagnostics(root, stateDir); tail != "" {
			out.line("%s", tail)
		}
		return ErrFailed
	}
	out.line("\n✓ all %d steps did what they showed (%.1f s)", len(steps), time.Since(start).Seconds())
	if cfg.Keep {
		out.line("\nThe browser and the shop stay up; in another terminal:\n  GRIP_STATE_DIR=%s grip snapshot\nCtrl-C stops them and removes %s", stateDir, root)
		select {
		case <-ctx.Done():
		case <-proc.Done():
		}
	}
	return nil
}

// connect waits for the host of the browser's extension, giving up early
// when the browser exits.
func connect(ctx context.Context, proc *launcher.Process, runtimeDir string, wait time.Duration) (*client.Session, error) {
	cctx, cancel := proc.Context(ctx)
	defer cancel()
	sess, err := client.NewSession(cctx, client.Options{RuntimeDir: runtimeDir, Wait: wait})
	if err != nil {
		if perr := proc.Err(); perr != nil {
			return nil, fmt.Errorf("demo: the browser exited before grip's host connected: %w", perr)
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("demo: grip's host did not connect: %w", err)
	}
	return sess, nil
}

// diagnostics returns the ends of the browser's and the host's logs.
func diagnostics(root, stateDir string) string {
	var b strings.Builder
	for _, f := range []string{filepath.Join(root, "browser.log"), filepath.Join(statedir.At(stateDir).Logs, "host.log")} {
		if t := tail(f, 15); t != "" {
			fmt.Fprintf(&b, "--- last lines of %s\n%s\n", filepath.Base(f), t)
		}
	}
	return strings.TrimRight(b.String(), "\n")
}

func tail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// waitGone waits for the processes to exit, then kills those left.
func waitGone(pids []int, d time.Duration) {
	deadline := time.Now().Add(d)
	for _, pid := range pids {
		for launcher.Alive(pid) && time.Now().Before(deadline) {
			time.Sleep(50 * time.Millisecond)
		}
		if launcher.Alive(pid) {
			if p, err := os.FindProcess(pid); err == nil {
				_ = p.Kill()
			}
		}
	}
}

// removeAll removes dir, retrying briefly: a dying browser may still
// write into its profile.
func removeAll(dir string) error {
	var err error
	for range 10 {
		if err = os.RemoveAll(dir); err == nil {
			if _, serr := os.Stat(dir); os.IsNotExist(serr) {
				return nil
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("demo: could not remove %s: %v", dir, err)
}
