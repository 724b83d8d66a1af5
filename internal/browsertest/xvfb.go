package browsertest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// StartXvfb starts the X server xvfb (its path) on a free display for
// this test, stops it when the test ends, and returns the display's name
// (":91"): the headed browser tests run under it.
func StartXvfb(t testing.TB, xvfb string) string {
	t.Helper()
	for n := 90; n < 140; n++ {
		if lock, err := os.ReadFile(fmt.Sprintf("/tmp/.X%d-lock", n)); err == nil {
			// A server that was killed leaves its lock behind: a display
			// is taken only while the lock's process lives.
			pid := strings.TrimSpace(string(lock))
			if _, err := os.Stat("/proc/" + pid); pid != "" && err == nil {
				continue
			}
			os.Remove(fmt.Sprintf("/tmp/.X%d-lock", n))
			os.Remove(fmt.Sprintf("/tmp/.X11-unix/X%d", n))
		}
		if _, err := os.Stat(fmt.Sprintf("/tmp/.X11-unix/X%d", n)); err == nil {
			continue
		}
		cmd := exec.Command(xvfb, fmt.Sprintf(":%d", n), "-screen", "0", "1280x900x24", "-nolisten", "tcp")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			cmd.Process.Kill()
			cmd.Wait()
		})
		sock := filepath.Join("/tmp/.X11-unix", fmt.Sprintf("X%d", n))
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
			if _, err := os.Stat(sock); err == nil {
				return fmt.Sprintf(":%d", n)
			}
		}
		t.Fatalf("Xvfb :%d did not start", n)
	}
	t.Fatal("no free X display")
	return ""
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
