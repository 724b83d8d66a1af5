package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// HeavyBinary is the binary that runs the heavy side: the host Chrome
// starts, install/doctor, mcp, demo and launch (cmd/grip-host). grip
// finds it beside itself, else on PATH (docs/cli-cost.md, "The CLI's
// fixed cost").
const HeavyBinary = "grip-host"

// heavyPath finds grip-host: beside this binary, else on PATH.
func heavyPath() (string, error) {
	name := HeavyBinary
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	if self, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(self), name)
		if st, err := os.Stat(p); err == nil && !st.IsDir() {
			return p, nil
		}
	}
	return exec.LookPath(name)
}

// handOff runs this invocation in grip-host and returns its exit code.
// With the process's own streams it replaces this process where the OS
// can (execve: Chrome, an MCP client or a shell keep talking to the same
// pid); otherwise it runs grip-host as a child wired to the App's
// streams and passes its exit code on.
func (a *App) handOff(ctx context.Context) int {
	bin, err := heavyPath()
	if err != nil {
		fmt.Fprintf(a.Stderr, "grip: %s needs %s, which is not beside this grip nor on PATH: install both (go install github.com/grip-dev/grip/cmd/...), or unpack the release archive whole\n", a.Args[0], HeavyBinary)
		return ExitFailed
	}
	if canExec && a.Stdin == os.Stdin && a.Stdout == os.Stdout && a.Stderr == os.Stderr {
		if err := execSelf(bin, a.Args); err != nil {
			fmt.Fprintf(a.Stderr, "grip: cannot start %s: %v\n", bin, err)
			return ExitFailed
		}
	}
	cmd := exec.CommandContext(ctx, bin, a.Args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = a.Stdin, a.Stdout, a.Stderr
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &exit) && exit.ExitCode() >= 0:
		return exit.ExitCode()
	}
	fmt.Fprintf(a.Stderr, "grip: cannot run %s: %v\n", bin, err)
	return ExitFailed
}
