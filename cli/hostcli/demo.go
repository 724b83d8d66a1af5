package hostcli

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/grip-dev/grip/cli"
	"github.com/grip-dev/grip/demo"
	"github.com/grip-dev/grip/launcher"
	"github.com/grip-dev/grip/protocol"
)

// cmdDemo is `grip demo [--headed] [--browser-path PATH] [--keep] [--no-sandbox]`.
func cmdDemo(ctx context.Context, a *cli.App, args []string) (bool, error) {
	f := cli.NewFlags(a, "demo")
	headed := f.Bool("headed", false, "show the browser window")
	path := f.String("browser-path", "", "the Chromium-family browser to run (default: found on PATH or where browsers install)")
	keep := f.Bool("keep", false, "after the last step, keep the browser and the demo shop up until Ctrl-C")
	noSandbox := f.Bool("no-sandbox", false, "run the browser without Chromium's sandbox, for a machine where it cannot run")
	pos, err := f.ParseArgs(args)
	if err != nil {
		return false, err
	}
	if len(pos) > 0 {
		return false, cli.Usagef("demo takes no arguments, got %q", pos[0])
	}
	self, err := os.Executable()
	if err != nil {
		return false, fmt.Errorf("demo: cannot find the grip binary to install as the host: %w", err)
	}
	err = demo.Run(ctx, demo.Config{Out: a.Stdout, GripBin: self, BrowserPath: *path, Headed: *headed, Keep: *keep, NoSandbox: *noSandbox})
	switch {
	case err == nil:
		return false, nil
	case errors.Is(err, launcher.ErrNotFound), errors.Is(err, launcher.ErrNoDisplay), errors.Is(err, launcher.ErrExited):
		return false, protocol.Errorf(protocol.CodeNoBrowser, protocol.BoundaryBrowser, "", "%v", err)
	case ctx.Err() != nil:
		return false, protocol.Errorf(protocol.CodeInternal, protocol.BoundaryHost, "", "demo interrupted; the browser, the shop and the temp files are gone")
	case errors.Is(err, demo.ErrFailed):
		return false, protocol.Errorf(protocol.CodeInternal, protocol.BoundaryHost, "", "demo: a step did not do what it showed (see above)")
	}
	return false, err
}
