//go:build unix

package main

import (
	"bufio"
	"errors"
	"io"
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
// docs/cli-cost.md, "The CLI's fixed cost"): interrupted while it
// waits for a browser, it dies of the signal. grip mcp, which owns a
// server loop, ends on it as a normal way for an MCP server to end: grip
// hands it to grip-host by execve, so the signal reaches the server in the
// same process.
func TestCtrlCIsTheDefaultForAgentCommands(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "grip")
	for _, b := range [][2]string{{bin, "."}, {filepath.Join(dir, "grip-host"), "../grip-host"}} {
		if out, err := exec.Command("go", "build", "-o", b[0], b[1]).CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", b[1], err, out)
		}
	}
	state := t.TempDir() // no host publishes here: the commands wait
	var stdin io.WriteCloser
	var stdout io.Reader
	start := func(args ...string) (*exec.Cmd, *bufio.Reader) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "GRIP_STATE_DIR="+state)
		stderr, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if stdout, err = cmd.StdoutPipe(); err != nil {
			t.Fatal(err)
		}
		in, err := cmd.StdinPipe() // open until the end: grip mcp reads it
		if err != nil {
			t.Fatal(err)
		}
		stdin = in
		t.Cleanup(func() { in.Close() })
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
	// Its handler is set before it reads stdin: once it answers, it is.
	if _, err := io.WriteString(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`+"\n"); err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || !strings.Contains(line, `"id":1`) {
		t.Fatalf("grip mcp answered initialize with %q, %v", line, err)
	}
	if err := interrupt(mcp); err != nil {
		t.Errorf("grip mcp after Ctrl-C: %v, want a normal end", err)
	}
}
