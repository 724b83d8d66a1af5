//go:build unix

package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/grip-dev/grip/extension"
	"github.com/grip-dev/grip/manifest"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/statedir"
)

// A browser's stderr may be a pipe no one reads (a Chrome started from a
// terminal since closed). The host Chrome starts with it must live past
// its log lines there: it logs "host ready" at once, and the test ends it
// by closing stdin, as Chrome does, after that line is in the host's log
// file. Without SIGPIPE ignored the host died of the signal at that line.
func TestHostLivesWithAClosedStderr(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "grip-host")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	state, err := os.MkdirTemp("", "grip") // short: the socket's path has a limit
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(state) })
	id, err := manifest.ExtensionID(extension.ManifestJSON)
	if err != nil {
		t.Fatal(err)
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	errR.Close() // no reader: every write to errW is EPIPE
	defer errW.Close()

	cmd := exec.Command(bin, "chrome-extension://"+id+"/")
	cmd.Env = append(os.Environ(), statedir.EnvVar+"="+state)
	cmd.Stderr = errW // the host's fd 2 itself, not a pipe Go copies from
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() { cmd.Process.Kill() })

	// The extension's side: hello, and an answer to what the host asks at
	// its start (the documents the browser has).
	w := protocol.NewNativeWriter(stdin, protocol.MaxFromExtension)
	hello, _ := json.Marshal(protocol.ExtensionHello{Protocol: protocol.Version, Profile: "sigpipe", ExtensionVersion: "0.1.0"})
	if err := w.Write(protocol.NativeMessage{Type: protocol.MsgHello, Params: hello}); err != nil {
		t.Fatal(err)
	}
	welcomed := make(chan string, 1)
	go func() {
		r := protocol.NewNativeReader(stdout, 0)
		for {
			var msg protocol.NativeMessage
			if err := r.Read(&msg); err != nil {
				return
			}
			switch {
			case msg.Type == "documents":
				w.Write(protocol.NativeMessage{ID: msg.ID, Result: json.RawMessage(`{"documents":[]}`)})
			case msg.Type == protocol.MsgWelcome || msg.Type == "refused":
				welcomed <- msg.Type
			}
		}
	}()
	select {
	case typ := <-welcomed:
		if typ != protocol.MsgWelcome {
			t.Fatalf("the host answered the hello with %s", typ)
		}
	case err := <-exited:
		t.Fatalf("the host exited before its welcome: %v", describe(err))
	case <-time.After(30 * time.Second):
		t.Fatal("no welcome within 30 s")
	}
	logFile := filepath.Join(statedir.At(state).Logs, "host.log")
	for {
		b, _ := os.ReadFile(logFile)
		if strings.Contains(string(b), "host ready") {
			break // written to stderr first, then to the file (cli/hostmode.go)
		}
		select {
		case err := <-exited:
			t.Fatalf("the host exited at its first log line: %v", describe(err))
		case <-time.After(20 * time.Millisecond):
		}
	}
	select {
	case err := <-exited:
		t.Fatalf("the host exited after logging %q: %v", "host ready", describe(err))
	default:
	}
	stdin.Close() // the extension closes the channel
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("the host, its extension gone: %v, want a normal end", describe(err))
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the host still runs 30 s after its stdin closed")
	}
}

// describe names the signal that ended a process, if one did.
func describe(err error) string {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return "killed by " + ws.Signal().String()
		}
	}
	if err == nil {
		return "exit 0"
	}
	return err.Error()
}
