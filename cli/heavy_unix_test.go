//go:build unix

package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Without App.Heavy, grip hands the heavy side's commands and the host's
// origin to the grip-host it finds (here on PATH: none is beside the test
// binary), with their arguments, streams and exit code; an agent command
// stays in this process.
func TestHeavyCommandsGoToGripHost(t *testing.T) {
	dir := t.TempDir()
	script := "#!/bin/sh\necho \"grip-host $*\"\nread line; echo \"stdin $line\"\necho oops >&2\nexit 3\n"
	if err := os.WriteFile(filepath.Join(dir, HeavyBinary), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir)
	for _, args := range [][]string{{"install", "--browser", "chromium"}, {"mcp"}, {"chrome-extension://abc/", "--parent-window=0"}} {
		var out, errb bytes.Buffer
		a := &App{Args: args, Stdin: strings.NewReader("hello\n"), Stdout: &out, Stderr: &errb}
		if code := a.Run(context.Background()); code != 3 || out.String() != "grip-host "+strings.Join(args, " ")+"\nstdin hello\n" || errb.String() != "oops\n" {
			t.Errorf("grip %v: exit %d, stdout %q, stderr %q", args, code, out.String(), errb.String())
		}
	}
	var out bytes.Buffer
	if code := (&App{Args: []string{"--version"}, Stdout: &out, Stderr: &out}).Run(context.Background()); code != ExitOK || strings.Contains(out.String(), "grip-host") {
		t.Errorf("grip --version went to grip-host: %d %q", code, out.String())
	}
}

// With no grip-host to hand to, grip says what to install.
func TestHeavyCommandWithoutGripHost(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	var out, errb bytes.Buffer
	a := &App{Args: []string{"doctor"}, Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}
	if code := a.Run(context.Background()); code != ExitFailed || !strings.Contains(errb.String(), "grip-host, which is not beside this grip nor on PATH") {
		t.Errorf("grip doctor without grip-host: exit %d, stderr %q", code, errb.String())
	}
}
