package launcher

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Options say how to run a browser.
type Options struct {
	Path       string   // the browser binary (Find)
	ProfileDir string   // --user-data-dir, prepared by PrepareProfile
	ExtDir     string   // the unpacked extension to load
	Headed     bool     // a visible window instead of --headless=new
	Env        []string // added to this process's environment (GRIP_STATE_DIR=…)
	URL        string   // the first tab's page; "" opens about:blank
	Args       []string // more flags, after Flags
	// WindowWidth and WindowHeight size the browser's window
	// (--window-size); 0 leaves Chromium's own (780x437 headless, a
	// phone's layout on many sites). grip launch gives DefaultWindowWidth
	// by DefaultWindowHeight unless told otherwise.
	WindowWidth, WindowHeight int
	// Output receives the browser's stdout and stderr (Chromium logs
	// there, and so do the hosts it starts). nil discards them. A file and
	// not an io.Writer, so that no goroutine of this process copies it and
	// a detached browser can outlive us.
	Output *os.File
	// Detach lets the browser outlive this process. Without it, on Linux,
	// the kernel kills the browser if this process dies without Stop.
	Detach bool
	// NoSandbox turns Chromium's sandbox off: the user asked for it (grip
	// launch --no-sandbox), or the browser opens only grip's own pages
	// (the test harness). Flags turns it off by itself where it cannot run.
	NoSandbox bool
	// DebugPort opens Chromium's remote debugging port on 127.0.0.1
	// (--remote-debugging-port): 0 leaves it closed, AnyDebugPort lets
	// Chromium pick one (DebugPortOf reads which). Whoever reaches the
	// port drives the browser past grip's policy: grip launch opens it
	// only when asked (docs/person.md, "A browser grip launched").
	DebugPort int
}

// The window grip launch opens when not told a size: a desktop's, so that
// sites show the layout a person at a computer sees.
const DefaultWindowWidth, DefaultWindowHeight = 1280, 800

// The screen a headless browser is given when its window is sized.
const headlessScreenWidth, headlessScreenHeight = 1920, 1080

// AnyDebugPort asks Chromium to pick a free debugging port.
const AnyDebugPort = -1

// Process is a running browser in its own process group.
type Process struct {
	PID  int      // the browser's pid, also its process group id
	Path string   // the binary
	Args []string // the command line after Path
	// NoSandbox says why the browser runs without Chromium's sandbox; ""
	// when it has it.
	NoSandbox string

	cmd      *exec.Cmd
	done     chan struct{} // closed when the browser process has exited
	err      error         // cmd.Wait's error, valid once done is closed
	stopOnce sync.Once
}

// Start runs the browser. ctx bounds the start only: the browser runs until
// Stop (or until it exits by itself, which Done reports).
func Start(ctx context.Context, opt Options) (*Process, error) {
	if opt.Path == "" {
		return nil, errNoPath
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if opt.Headed && runtime.GOOS != "windows" && runtime.GOOS != "darwin" &&
		os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return nil, ErrNoDisplay
	}
	url := opt.URL
	if url == "" {
		url = "about:blank"
	}
	args := Flags(opt.ProfileDir, opt.ExtDir, opt.Headed)
	why := NoSandboxReason(opt.NoSandbox)
	if why != "" && !slices.Contains(args, NoSandboxFlag) {
		args = append(args, NoSandboxFlag)
	}
	if opt.WindowWidth > 0 && opt.WindowHeight > 0 {
		args = append(args, fmt.Sprintf("--window-size=%d,%d", opt.WindowWidth, opt.WindowHeight))
		if !opt.Headed {
			// A headless browser's screen is 800x600 unless told, and
			// Chrome refuses a window mostly off it: a desktop's screen,
			// or the window's size when larger, so grip resize can grow it.
			args = append(args, fmt.Sprintf("--screen-info={0,0 %dx%d}", max(headlessScreenWidth, opt.WindowWidth), max(headlessScreenHeight, opt.WindowHeight)))
		}
	}
	switch {
	case opt.DebugPort == AnyDebugPort:
		args = append(args, "--remote-debugging-port=0")
	case opt.DebugPort > 0:
		args = append(args, fmt.Sprintf("--remote-debugging-port=%d", opt.DebugPort))
	}
	args = append(append(args, opt.Args...), url)
	cmd := exec.Command(opt.Path, args...)
	cmd.Env = append(append(os.Environ(), Env(opt.ProfileDir)...), opt.Env...)
	cmd.Stdout, cmd.Stderr = opt.Output, opt.Output
	cmd.SysProcAttr = sysProcAttr(!opt.Detach)
	p := &Process{Path: opt.Path, Args: args, NoSandbox: why, cmd: cmd, done: make(chan struct{})}
	started := make(chan error, 1)
	go func() {
		// The parent-death signal follows the thread that started the
		// child, not the process: keep this goroutine on its thread for as
		// long as the browser runs.
		runtime.LockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		p.err = cmd.Wait()
		close(p.done)
	}()
	if err := <-started; err != nil {
		return nil, fmt.Errorf("browser: start %s: %w", opt.Path, err)
	}
	p.PID = cmd.Process.Pid
	return p, nil
}

// Done is closed when the browser process has exited.
func (p *Process) Done() <-chan struct{} { return p.done }

// Context returns a context that ends when parent does or when the
// browser exits: waits for something the browser should bring (its host)
// give up at once when it is gone.
func (p *Process) Context(parent context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(parent)
	go func() {
		select {
		case <-p.done:
			cancel()
		case <-ctx.Done():
		}
	}()
	return ctx, cancel
}

// Err is how the browser exited; it is valid once Done is closed.
func (p *Process) Err() error {
	select {
	case <-p.done:
		if p.err == nil {
			return ErrExited
		}
		return fmt.Errorf("%w: %v", ErrExited, p.err)
	default:
		return nil
	}
}

// Owns reports whether pid is the browser or one of the processes it
// started (its process group, or a direct child that left it).
func (p *Process) Owns(pid int) bool {
	return pid > 0 && (pid == p.PID || groupOf(pid) == p.PID || parentOf(pid) == p.PID)
}

// stopGrace is how long a browser gets to close by itself before it is
// killed.
const stopGrace = 5 * time.Second

// Stop asks the browser's whole process group to end, kills what is left
// after a grace period and waits for the browser. It is safe to call more
// than once and after the browser exited.
func (p *Process) Stop() {
	p.stopOnce.Do(func() {
		_ = signalGroup(p.PID, false)
		select {
		case <-p.done:
		case <-time.After(stopGrace):
		}
		// Renderers or a host may outlive the browser for a moment.
		_ = signalGroup(p.PID, true)
		deadline := time.After(stopGrace)
	wait:
		for {
			select {
			case <-p.done:
				if !GroupAlive(p.PID) {
					break wait
				}
			case <-deadline:
				break wait
			}
			time.Sleep(20 * time.Millisecond)
		}
	})
}

// StopGroup ends the process group of a browser that another process
// started (grip launch --detach), and waits up to wait for it to go.
func StopGroup(pid int, wait time.Duration) error {
	if err := signalGroup(pid, false); err != nil {
		return err
	}
	deadline := time.Now().Add(wait)
	for GroupAlive(pid) && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if GroupAlive(pid) {
		_ = signalGroup(pid, true)
	}
	return nil
}

// DebugPortOf waits up to wait for the browser using profileDir to say
// which debugging port it listens on (Chromium writes it to
// PROFILE/DevToolsActivePort once the port is open) and returns it.
func DebugPortOf(ctx context.Context, profileDir string, wait time.Duration) (int, error) {
	path := filepath.Join(profileDir, "DevToolsActivePort")
	deadline := time.Now().Add(wait)
	for {
		if b, err := os.ReadFile(path); err == nil {
			first, _, _ := strings.Cut(string(b), "\n")
			if port, err := strconv.Atoi(strings.TrimSpace(first)); err == nil && port > 0 {
				return port, nil
			}
		}
		if time.Now().After(deadline) {
			return 0, fmt.Errorf("browser: no debugging port in %s after %v", path, wait)
		}
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-time.After(100 * time.Millisecond):
		}
	}
}
