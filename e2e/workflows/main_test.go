// Package workflows_test records workflows through the grip CLI as an
// agent would (snapshot, act with refs, one parameter marked) and replays
// them with other parameters and no model, on a fixture sign-in form and
// on a real application, TiddlyWiki from the npm registry (the version
// package.json pins; npm ci installs it into the git-ignored node_modules
// here, scripts/setup --js does it). Each outcome is read apart from grip:
// the page's own storage over CDP, or the wiki's files on disk. Then the
// page is changed, and the replay must stop at the first step that no
// longer matches, having done nothing after it.
package workflows_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/grip-dev/grip/internal/browsertest"
)

var env *browsertest.Env

// wikiMissing says why TiddlyWiki cannot be run ("" when it can).
var wikiMissing string

func TestMain(m *testing.M) {
	if _, err := os.Stat(filepath.Join("node_modules", "tiddlywiki", "tiddlywiki.js")); err != nil {
		wikiMissing = "tiddlywiki is not installed in e2e/workflows/node_modules"
		if os.Getenv(browsertest.RequireEnv) != "" {
			fmt.Fprintln(os.Stderr, "workflows: "+wikiMissing+"; run scripts/setup --js (npm ci in e2e/workflows)")
			os.Exit(1)
		}
	}
	env = browsertest.ForMain(browsertest.Options{Fixtures: os.DirFS(".")})
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
