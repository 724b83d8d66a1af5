package e2e

import (
	"context"
	"encoding/json"
	"io/fs"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/grip-dev/grip/extension"
	"github.com/grip-dev/grip/install"
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
// it. It failed in 3 of 20 runs (load average 15 to 30) while the
// sessions before were stopped as soon as their worker ran, before its
// registration was activated: see waitWorkerBuild for what Chromium then
// does. Its premise, registrations that finished, now holds by
// construction (the worker waited for is the active one).
func TestUpgradedProfileRestartsWithTheNewWorker(t *testing.T) {
	browsertest.Need(t, env)
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

// grip install, run again after an upgrade, rewrites the folder the person
// loaded unpacked (the browser keeps its profile, and its registration of
// the worker): the browser started again runs the new build's worker, as
// a kept launch profile does (install.Install writes the build through
// extension.ForFolder). It is install.Install that runs here, as `grip
// install` does, with two builds the binary cannot hold.
func TestInstallUpgradeRunsTheNewWorker(t *testing.T) {
	browsertest.Need(t, env)
	bin, err := filepath.Abs(env.BinOrSkip(t))
	if err != nil {
		t.Fatal(err)
	}
	e, err := browsertest.Start(browsertest.Options{Bin: env.Bin})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := e.Close(); err != nil {
			t.Error(err)
		}
	})
	waitWorkerBuild(t, e, "undefined")
	root := t.TempDir()
	opt := install.Options{
		Browsers: []string{"chromium"}, UserDataDir: e.ProfileDir, HostPath: bin, Force: true,
		DataDir: filepath.Join(root, "data"), StateRoot: root, Home: root, GOOS: runtime.GOOS,
		Getenv: func(string) string { return "" }, SystemRoot: filepath.Join(root, "system"),
	}
	for _, build := range []struct {
		dir  fs.FS
		mark string
	}{{markedBuild(t, "A", "0000aa"), "A"}, {markedBuild(t, "B", "0000bb"), "B"}} {
		e.Stop()
		opt.ExtensionFS = build.dir
		res, err := install.Install(opt)
		if err != nil {
			t.Fatal(err)
		}
		// The browser loads the folder install wrote, as the person's
		// "Load unpacked" does.
		e.ExtDir = res.ExtensionDir
		if err := e.Launch(false, nil); err != nil {
			t.Fatal(err)
		}
		waitWorkerBuild(t, e, build.mark)
	}
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
	// The browser's first start registers the embedded build: finished
	// before it stops (see waitWorkerBuild).
	waitWorkerBuild(t, e, "undefined")
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
// marker its code set), and the registration's active worker, activated.
// Chrome may first start the worker it had registered and then the new
// build's in its place, so a worker that runs the old build at first is
// waited past; one that stays so fails.
//
// Activated, not only running: a browser stopped while the worker it was
// registering ran but was not yet the registration's active worker (its
// code answers from the first moment, parsed, installing, activating) may
// start next time with no worker at all. Measured on Chromium 156 (its
// log, --enable-logging=stderr --v=1, and the histograms it prints as it
// exits): while this wait took any running worker of build want, and the
// browser's first start was stopped at once, 3 of 20 runs of
// TestUpgradedProfileRestartsWithTheNewWorker failed, and 5 of 30 of the
// same sequence restarted once more (each after the upgraded session was
// stopped with the new worker still parsed: 5 of the 11 so stopped). At
// the failing start Chrome activated a version it had stored as waiting,
// failed to read its script back (ServiceWorker.StartWorker.Status 16,
// kErrorDiskCache), deleted the whole registration
// (ServiceWorker.Registration.Delete.Result.ByForceDelete), and its
// extension system, which had just registered the worker again (the
// version it records was still the old build's), started none for the
// rest of that session (DidStartWorkerFail 5, not found); the start after
// it registered the worker anew and ran it (5 of 5). That is Chromium's,
// and no code of the extension runs then to help. The tests' premise is a
// registration that finished, which this wait makes hold: with it, 0 of
// 30 runs failed.
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
// ("?" for one that did not answer), with its state after it where it is
// not the registration's active worker, activated: "B (installed)".
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
		// The marker, and the worker's state where it is not yet the
		// registration's active worker, activated ("B (activating)").
		b, err := chromedp.Run(ctx, chromedp.Evaluate[string](`String(globalThis.__gripTestBuild) +
  (registration.active === serviceWorker && serviceWorker.state === 'activated' ? '' : ' (' + serviceWorker.state + ')')`))
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
