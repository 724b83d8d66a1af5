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
	env = browsertest.ForMain(browsertest.Options{Fixtures: fixtures, Headed: os.Getenv("GRIP_E2E_HEADED") != ""})
	code := m.Run()
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
