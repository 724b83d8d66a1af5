package e2e

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/grip-dev/grip/extension"
	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/launcher"
)

// A profile kept across an upgrade (grip launch's, ~/.local/state/grip/
// launch-profile) runs the new build's service worker, not the one Chrome
// registered for the old build, once the folder is rewritten with the new
// build (launcher.ReplaceExtension): its manifest's version moves on and
// names a worker script of its own, which takes over from the old at once
// (extension.ForFolder). Two builds differ in their worker's code: each
// sets a marker the test reads in the running worker.
func TestUpgradedProfileRunsTheNewWorker(t *testing.T) {
	browsertest.Need(t, env)
	upgradedProfile(t)
}

// The upgraded profile started again with the same build keeps running
// it. It does not pass every time yet, so it runs only with
// GRIP_UPGRADE_TEST=1: in about 1 start in 10 (5 of some 75 runs, load
// average 10 to 27), Chromium 156 started no worker at all for 30 s, and
// the extension's own page then found no registration
// (navigator.serviceWorker.getRegistration() null,
// chrome://serviceworker-internals empty) while Preferences still held
// service_worker_registration_info 0.1.0.1 beside the folder's 0.1.0.2.
// Not yet known: why the registration goes (the old build's, replaced by
// skipWaiting in the session before, whose scripts Chrome purges?), and
// why Chrome then registers none (it registers again at a version
// mismatch, but before the loss).
func TestUpgradedProfileRestartsWithTheNewWorker(t *testing.T) {
	browsertest.Need(t, env)
	if os.Getenv("GRIP_UPGRADE_TEST") == "" {
		t.Skip("a reproduction of a lost worker registration, not fixed yet: set GRIP_UPGRADE_TEST=1")
	}
	e, buildB := upgradedProfile(t)
	e.Stop()
	if err := launcher.ReplaceExtension(e.ExtDir, buildB); err != nil {
		t.Fatal(err)
	}
	if err := e.Launch(false, nil); err != nil {
		t.Fatal(err)
	}
	waitWorkerBuild(t, e, "B")
}

// upgradedProfile starts a browser whose kept profile ran build A, then
// was upgraded to build B, and waits for B's worker; it returns the
// browser and build B.
func upgradedProfile(t *testing.T) (*browsertest.Env, fs.FS) {
	t.Helper()
	buildA, buildB := markedBuild(t, "A", "0000aa"), markedBuild(t, "B", "0000bb")
	e, err := browsertest.Start(browsertest.Options{Bin: env.Bin})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := e.Close(); err != nil {
			t.Error(err)
		}
	})
	// The profile's first build, as grip launch writes it; then the
	// upgrade: the same profile, the folder rewritten with build B.
	for _, build := range []struct {
		dir  fs.FS
		mark string
	}{{buildA, "A"}, {buildB, "B"}} {
		e.Stop()
		if err := launcher.ReplaceExtension(e.ExtDir, build.dir); err != nil {
			t.Fatal(err)
		}
		if err := e.Launch(false, nil); err != nil {
			t.Fatal(err)
		}
		waitWorkerBuild(t, e, build.mark)
	}
	return e, buildB
}

// waitWorkerBuild waits until grip's one service worker is build want (the
// marker its code set). Chrome may first start the worker it had
// registered and then the new build's in its place, so a worker that runs
// the old build at first is waited past; one that stays so fails.
func waitWorkerBuild(t *testing.T, e *browsertest.Env, want string) {
	t.Helper()
	start := time.Now()
	var got []string
	for time.Since(start) < 30*time.Second {
		if got = workerBuilds(e); len(got) == 1 && got[0] == want {
			t.Logf("build %s runs %s after the browser started", want, time.Since(start).Round(time.Millisecond))
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("grip's service workers run builds %q 30 s after the browser started, want only %s; the browser's targets: %s", got, want, targetList(e))
}

// targetList is the browser's targets, type and URL, for a failure's message.
func targetList(e *browsertest.Env) string {
	infos, err := chromedp.Targets(e.BrowserContext())
	if err != nil {
		return err.Error()
	}
	var out []string
	for _, info := range infos {
		out = append(out, string(info.Type)+" "+info.URL)
	}
	return strings.Join(out, ", ")
}

// workerBuilds returns the marker of each grip service worker now running
// ("?" for one that did not answer).
func workerBuilds(e *browsertest.Env) []string {
	infos, err := chromedp.Targets(e.BrowserContext())
	if err != nil {
		return nil
	}
	var builds []string
	for _, info := range infos {
		// worker/background.js, or a kept folder's worker/background-VERSION.js (extension.ForFolder)
		if info.Type != "service_worker" || !strings.HasPrefix(info.URL, "chrome-extension://") || !strings.Contains(info.URL, "/worker/background") {
			continue
		}
		sw, cancel := chromedp.NewContext(e.BrowserContext(), chromedp.WithTargetID(info.TargetID), chromedp.WithDetachOnCancel())
		ctx, tcancel := context.WithTimeout(sw, 5*time.Second)
		b, err := chromedp.Run(ctx, chromedp.Evaluate[string]("String(globalThis.__gripTestBuild)"))
		tcancel()
		cancel()
		if err != nil {
			b = "?"
		}
		builds = append(builds, b)
	}
	return builds
}

// markedBuild is the embedded extension as another build: its worker sets
// globalThis.__gripTestBuild to marker, and its manifest names build hash.
func markedBuild(t *testing.T, marker, hash string) fs.FS {
	t.Helper()
	out := fstest.MapFS{}
	files := extension.Files()
	err := fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(files, p)
		out[p] = &fstest.MapFile{Data: b, Mode: 0o644}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	bg := out["worker/background.js"]
	bg.Data = append(bg.Data, []byte("\nglobalThis.__gripTestBuild = '"+marker+"';\n")...)
	var m map[string]any
	if err := json.Unmarshal(out["manifest.json"].Data, &m); err != nil {
		t.Fatal(err)
	}
	m["version_name"] = "0.1.0 build " + hash
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	out["manifest.json"].Data = b
	return out
}
