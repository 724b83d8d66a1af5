package browsertest

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// fatalTB is a testing.TB whose Fatalf records its message and ends the
// goroutine, and whose Cleanup keeps the functions for the test to run.
type fatalTB struct {
	testing.TB
	msg      string
	cleanups []func()
}

func (f *fatalTB) Helper() {}
func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
func (f *fatalTB) Fatal(args ...any) { f.Fatalf("%s", fmt.Sprint(args...)) }
func (f *fatalTB) Cleanup(fn func()) { f.cleanups = append(f.cleanups, fn) }

// TestStartXvfbServerExitsFirst: an X server that exits before it is
// ready fails the start at once with what it printed, and stopping it
// then returns (the start and the cleanup both wait for its exit).
func TestStartXvfbServerExitsFirst(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("a shell script stands in for Xvfb")
	}
	fake := filepath.Join(t.TempDir(), "Xvfb")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho 'no screens found' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tb := &fatalTB{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		StartXvfb(tb, fake)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("StartXvfb did not return within 30 s of the server exiting")
	}
	if !strings.Contains(tb.msg, "exited before it was ready") || !strings.Contains(tb.msg, "no screens found") {
		t.Errorf("StartXvfb failed with %q, want the exit and what the server printed", tb.msg)
	}
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		for _, fn := range tb.cleanups {
			fn()
		}
	}()
	select {
	case <-stopped:
	case <-time.After(30 * time.Second):
		t.Fatal("stopping a server that had exited did not return within 30 s")
	}
}
