// Package e2e holds grip's end-to-end tests: the real grip binary, a real
// Chromium with the extension loaded, fixture pages on two loopback
// origins. One browser serves the whole package.
package e2e

import (
	"embed"
	"fmt"
	"io/fs"
	"os"
	"testing"

	"github.com/grip-dev/grip/internal/browsertest"
)

//go:embed testdata
var testdata embed.FS

var env *browsertest.Env

func TestMain(m *testing.M) {
	fixtures, err := fs.Sub(testdata, "testdata")
	if err != nil {
		panic(err)
	}
	if bin, ok := privateChildBin(); ok {
		// A child process that runs one install test, which starts its
		// own browser (private_system_linux_test.go).
		env = &browsertest.Env{Bin: bin}
		os.Exit(m.Run())
	}
	// GRIP_E2E_HEADED=1 runs the suite in a headed browser (under xvfb-run
	// on a machine with no display): the checks of what the person sees.
	// GRIP_E2E_SECOND_CLIENT runs it with another DevTools-protocol client
	// connected to the same browser for the whole run, auto-attached to
	// every target: =cdp a raw client as DevTools' frontend is
	// (browsertest.Neighbour), =playwright Playwright's connectOverCDP
	// (which dismisses every dialog, so grip's dialog tests cannot pass
	// beside it). grip's replies must be as true beside either as alone
	// (docs/debugger.md, "The debugger").
	second := os.Getenv(secondClientEnv)
	env = browsertest.ForMain(browsertest.Options{Fixtures: fixtures, Headed: os.Getenv("GRIP_E2E_HEADED") != "", DebugPort: second != ""})
	stop := func() {}
	if env != nil && second != "" {
		var err error
		if stop, err = holdSecondClient(env, second); err != nil {
			fmt.Fprintln(os.Stderr, err)
			env.Close()
			os.Exit(1)
		}
	}
	code := m.Run()
	stop()
	if env != nil {
		if err := env.Close(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			if code == 0 {
				code = 1
			}
		}
	}
	os.Exit(code)
}
