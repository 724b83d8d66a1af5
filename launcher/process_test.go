//go:build !windows

package launcher

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A fake browser that starts a helper child, as Chromium starts renderers:
// Stop must end both, and Owns must know the child.
func TestStartStopKillsTheGroup(t *testing.T) {
	dir := t.TempDir()
	childFile := filepath.Join(dir, "child")
	script := "#!/bin/sh\nsleep 60 &\necho $! > " + childFile + "\nwait\n"
	fake := filepath.Join(dir, "fake-browser")
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	p, err := Start(context.Background(), Options{Path: fake, ProfileDir: dir, ExtDir: dir, Env: []string{"X=1"}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop()
	child := 0
	for deadline := time.Now().Add(5 * time.Second); child == 0 && time.Now().Before(deadline); {
		if b, err := os.ReadFile(childFile); err == nil && strings.HasSuffix(string(b), "\n") {
			child, _ = strconv.Atoi(strings.TrimSpace(string(b)))
		}
		time.Sleep(20 * time.Millisecond)
	}
	if child == 0 {
		t.Fatal("the fake browser did not start its child")
	}
	if !p.Owns(child) || !p.Owns(p.PID) || p.Owns(os.Getpid()) {
		t.Errorf("Owns: child %v, browser %v, test %v", p.Owns(child), p.Owns(p.PID), p.Owns(os.Getpid()))
	}
	if p.Args[len(p.Args)-1] != "about:blank" {
		t.Errorf("args do not end with the start page: %q", p.Args)
	}
	if p.Err() != nil {
		t.Errorf("Err before exit = %v", p.Err())
	}
	p.Stop()
	select {
	case <-p.Done():
	default:
		t.Fatal("Stop returned before the browser exited")
	}
	if Alive(p.PID) || Alive(child) || GroupAlive(p.PID) {
		t.Errorf("alive after Stop: browser %v, child %v, group %v", Alive(p.PID), Alive(child), GroupAlive(p.PID))
	}
	p.Stop() // twice is fine
}

func TestStartMissingBinary(t *testing.T) {
	_, err := Start(context.Background(), Options{Path: filepath.Join(t.TempDir(), "nope")})
	if err == nil {
		t.Fatal("Start of a missing binary succeeded")
	}
	if _, err := Start(context.Background(), Options{}); err == nil {
		t.Fatal("Start without a path succeeded")
	}
}

// Start keeps Chromium's sandbox for a user who did not turn it off, adds
// --no-sandbox when asked (Options.NoSandbox), and says why on Process.
func TestStartSandbox(t *testing.T) {
	defer func(f func() bool) { isRoot = f }(isRoot)
	isRoot = func() bool { return false }
	t.Setenv(EnvNoSandbox, "")
	dir := t.TempDir()
	fake := filepath.Join(dir, "fake-browser")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, asked := range []bool{false, true} {
		p, err := Start(context.Background(), Options{Path: fake, ProfileDir: dir, ExtDir: dir, NoSandbox: asked})
		if err != nil {
			t.Fatal(err)
		}
		<-p.Done()
		if has := slices.Contains(p.Args, "--no-sandbox"); has != asked {
			t.Errorf("asked %v: --no-sandbox in %q = %v", asked, p.Args, has)
		}
		if (p.NoSandbox != "") != asked {
			t.Errorf("asked %v: Process.NoSandbox = %q", asked, p.NoSandbox)
		}
	}
}

// DebugPortOf reads the port Chromium wrote, and says so when none came.
func TestDebugPortOf(t *testing.T) {
	dir := t.TempDir()
	if _, err := DebugPortOf(context.Background(), dir, 200*time.Millisecond); err == nil {
		t.Fatal("no DevToolsActivePort file, yet a port")
	}
	if err := os.WriteFile(filepath.Join(dir, "DevToolsActivePort"), []byte("40123\n/devtools/browser/x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	port, err := DebugPortOf(context.Background(), dir, time.Second)
	if err != nil || port != 40123 {
		t.Fatalf("DebugPortOf = %d, %v; want 40123", port, err)
	}
}

// The debugging port is on the command line only when asked for.
func TestStartDebugPortOnlyWhenAsked(t *testing.T) {
	bin, err := exec.LookPath("true")
	if err != nil {
		t.Skip("no true(1)")
	}
	for _, c := range []struct {
		port int
		want string
	}{{0, ""}, {AnyDebugPort, "--remote-debugging-port=0"}, {9333, "--remote-debugging-port=9333"}} {
		p, err := Start(context.Background(), Options{Path: bin, ProfileDir: t.TempDir(), DebugPort: c.port})
		if err != nil {
			t.Fatal(err)
		}
		<-p.Done()
		got := ""
		for _, a := range p.Args {
			if strings.HasPrefix(a, "--remote-debugging-port") {
				got = a
			}
		}
		if got != c.want {
			t.Errorf("DebugPort %d: flag %q, want %q", c.port, got, c.want)
		}
	}
}
