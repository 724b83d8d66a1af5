//go:build unix

package main

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// An agent command that only asks the host leaves Ctrl-C to its default
// (a signal handler costs every start a goroutine and a thread;
// docs/ARCHITECTURE.md, "The CLI's fixed cost"): interrupted while it
// waits for a browser, it dies of the signal. grip mcp, which owns a
// server loop, ends on it as a normal way for an MCP server to end.
func TestCtrlCIsTheDefaultForAgentCommands(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "grip")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	state := t.TempDir() // no host publishes here: the commands wait
	start := func(args ...string) (*exec.Cmd, *bufio.Reader) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "GRIP_STATE_DIR="+state)
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		stdin, err := cmd.StdinPipe() // open until the end: grip mcp reads it
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { stdin.Close() })
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd, bufio.NewReader(stderr)
	}
	interrupt := func(cmd *exec.Cmd) error {
		t.Helper()
		if err := cmd.Process.Signal(os.Interrupt); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			return err
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%v still running 10 s after Ctrl-C", cmd.Args)
			return nil
		}
	}

	tabs, stderr := start("tabs", "--wait", "30s")
	if line, _ := stderr.ReadString('\n'); !strings.Contains(line, "waiting up to 30s") {
		t.Fatalf("grip tabs said %q, not that it waits for a browser", line)
	}
	var exit *exec.ExitError
	err := interrupt(tabs)
	if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGINT {
		t.Errorf("grip tabs after Ctrl-C: %v, want killed by SIGINT", err)
	}

	mcp, _ := start("mcp")
	time.Sleep(300 * time.Millisecond) // its handler is set before it reads stdin
	if err := interrupt(mcp); err != nil {
		t.Errorf("grip mcp after Ctrl-C: %v, want a normal end", err)
	}
}
