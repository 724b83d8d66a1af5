package browsertest

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// StartXvfb starts the X server xvfb (its path) on a free display for
// this test, stops it when the test ends, and returns the display's name
// (":91"): the headed browser tests run under it. The server picks the
// display itself and says it is ready by writing its number (-displayfd):
// polling for its socket with a deadline failed on a loaded machine, where
// Xvfb took longer than the deadline to compile its keymap. A server that
// exits before it is ready fails the test with what it printed.
func StartXvfb(t testing.TB, xvfb string) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	stderr := &limitedBuffer{b: &bytes.Buffer{}, max: 8 << 10}
	cmd := exec.Command(xvfb, "-displayfd", "3", "-screen", "0", "1280x900x24", "-nolisten", "tcp")
	cmd.ExtraFiles = []*os.File{w}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		w.Close()
		t.Fatal(err)
	}
	w.Close()
	// exited is closed when the server has exited, waitErr its error:
	// both the start and the cleanup wait for it.
	exited := make(chan struct{})
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		// SIGTERM lets the server remove its lock and socket.
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
	})
	ready := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		ready <- strings.TrimSpace(line)
	}()
	select {
	case n := <-ready:
		if n == "" {
			<-exited
			t.Fatalf("Xvfb exited before it was ready (%v): %s", waitErr, stderr.String())
		}
		return ":" + n
	case <-exited:
		t.Fatalf("Xvfb exited before it was ready (%v): %s", waitErr, stderr.String())
	case <-time.After(2 * time.Minute):
		t.Fatalf("Xvfb was not ready within 2 minutes: %s", stderr.String())
	}
	return ""
}

// limitedBuffer keeps the first max bytes written to it: what a failed
// server printed, for the test's message.
type limitedBuffer struct {
	mu  sync.Mutex
	b   *bytes.Buffer
	max int
}

// String is what was kept so far.
func (l *limitedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if room := l.max - l.b.Len(); room > 0 {
		l.b.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// StartHeaded starts a headed browser (opts with Headed set) under an X
// server of this test's own (StartXvfb), sets DISPLAY for the test and
// returns the browser's Env, closed when the test ends; without Xvfb the
// test is skipped, saying why it needs a headed browser (why).
func StartHeaded(t testing.TB, why string, opts Options) *Env {
	t.Helper()
	xvfb, err := exec.LookPath("Xvfb")
	if err != nil {
		t.Skipf("Xvfb is not installed (apt-get install xvfb): %s", why)
	}
	t.Setenv("DISPLAY", StartXvfb(t, xvfb))
	opts.Headed = true
	e, err := Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := e.Close(); err != nil {
			t.Error(err)
		}
	})
	return e
}
