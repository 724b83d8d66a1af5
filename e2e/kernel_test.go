package e2e

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/grip-dev/grip/extension"
	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/manifest"
)

// How the worker installs the in-page kernel (extension/worker/inject.js): its
// files once per document, then only a small caller per request; and never
// a kernel an older build of the extension left in the page.

// inGripWorld evaluates expr in grip's isolated world of tab's top frame.
func inGripWorld[T any](t *testing.T, tab int, expr string) T {
	t.Helper()
	return browsertest.EvalGripWorld[T](t, env, env.TabURL(t, tab), expr)
}

var buildRE = regexp.MustCompile(`^[0-9a-f]{32}$`)

// TestKernelInstalledOncePerDocument: after the first snapshot the
// document keeps its kernel; later snapshots, actions and probes use it
// instead of injecting it again.
func TestKernelInstalledOncePerDocument(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openAct(t)
	build := inGripWorld[string](t, tab, `(() => { const k = globalThis.__gripKernel__; k.marked = true; return k.build; })()`)
	if !buildRE.MatchString(build) {
		t.Fatalf("the installed kernel's build is %q, want a hash", build)
	}
	snapshot(t, tab)
	if _, perr, code := act(t, "click", mustRef(t, snap, "button", "Beta")); code != 0 {
		t.Fatalf("click: %+v", perr)
	}
	if _, perr, code := act(t, "wait", "--tab", fmt.Sprint(tab), "--text", "Alpha", "--timeout", "5s"); code != 0 {
		t.Fatalf("wait --text: %+v", perr)
	}
	if !inGripWorld[bool](t, tab, `globalThis.__gripKernel__.marked === true`) {
		t.Errorf("the kernel was injected again")
	}
}

// olderKernel is what an older build of the extension might have left in
// the isolated world: its own object, answering everything with a
// failure that names it.
const olderKernel = `{run: () => ({error: {code: 'internal', boundary: 'document', message: 'the older kernel ran', hint: ''}})}`

// TestOlderKernelNeverRuns: a kernel left in the page by another build
// (another hash, an install that never got its stamp, or the single
// function of builds before the split) is replaced, never run, on every
// path: snapshot, action, probe.
func TestOlderKernelNeverRuns(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openAct(t)
	build := inGripWorld[string](t, tab, `globalThis.__gripKernel__.build`)
	beta := mustRef(t, snap, "button", "Beta")
	for _, left := range []struct{ name, install string }{
		{"another build", `globalThis.__gripKernel__ = Object.assign(` + olderKernel + `, {build: 'an-older-build'})`},
		{"an unstamped install", `globalThis.__gripKernel__ = Object.assign(` + olderKernel + `, {build: ''})`},
		{"a build before the split", `globalThis.__gripKernel__ = {id: 'x', fn: () => 'the older kernel ran'}`},
	} {
		for _, path := range []struct {
			name string
			run  func(t *testing.T)
		}{
			{"snapshot", func(t *testing.T) {
				if got := snapshot(t, tab); refOf(got, "button", "Beta") != beta {
					t.Errorf("snapshot lost Beta:\n%s", got.Text)
				}
			}},
			{"click", func(t *testing.T) {
				before := len(pageLog(t, tab))
				if _, perr, code := act(t, "click", beta); code != 0 {
					t.Fatalf("click: exit %d %+v", code, perr)
				}
				if got := pageLog(t, tab); len(got) != before+1 || got[len(got)-1] != "b" {
					t.Errorf("page log %v, want one more b", got)
				}
			}},
			{"wait --text", func(t *testing.T) {
				if _, perr, code := act(t, "wait", "--tab", fmt.Sprint(tab), "--text", "Gamma", "--timeout", "5s"); code != 0 {
					t.Fatalf("wait --text: exit %d %+v", code, perr)
				}
			}},
			{"wait --gone", func(t *testing.T) {
				// Beta is there: the probe must say so (the older kernel would
				// answer an error), so the wait times out.
				_, perr, code := act(t, "wait", "--tab", fmt.Sprint(tab), "--gone", beta, "--timeout", "1s")
				if code == 0 || perr == nil || perr.Code != "timeout" {
					t.Fatalf("wait --gone %s on a present element: exit %d %+v, want a timeout", beta, code, perr)
				}
			}},
		} {
			t.Run(left.name+"/"+path.name, func(t *testing.T) {
				inGripWorld[bool](t, tab, `(() => { `+left.install+`; return true; })()`)
				path.run(t)
				got := inGripWorld[string](t, tab, `(() => { const k = globalThis.__gripKernel__; return typeof k.run === 'function' && !String(k.run).includes('older kernel') ? k.build : 'older: ' + k.build; })()`)
				if got != build {
					t.Errorf("the kernel in the page after the %s: %q, want this build %q", path.name, got, build)
				}
			})
		}
	}
}

// TestKernelFilesHiddenFromPages: a page cannot fetch the kernel's files
// (they are not web-accessible), though the worker reads them.
func TestKernelFilesHiddenFromPages(t *testing.T) {
	browsertest.Need(t, env)
	id, err := manifest.ExtensionID(extension.ManifestJSON)
	if err != nil {
		t.Fatal(err)
	}
	tab, _ := openAct(t)
	url := env.TabURL(t, tab)
	for _, f := range []string{"kernel/base.js", "worker/inject.js"} {
		got := browsertest.Eval[string](t, env, url, fmt.Sprintf(`fetch('chrome-extension://%s/%s').then((r) => 'fetched ' + r.status, (e) => 'refused: ' + e)`, id, f))
		if !strings.HasPrefix(got, "refused") {
			t.Errorf("the page fetched %s: %s", f, got)
		}
	}
}

// restartWorker stops grip's service worker, as Chrome does when idle,
// after clearing its session storage if asked (what Chrome does when it
// reloads or updates the extension), then wakes it with a navigation in a
// tab of its own and waits for the new host.
func restartWorker(t *testing.T, e *browsertest.Env, clearSession bool) {
	t.Helper()
	before := statusOf(t, e)
	ctx := e.BrowserContext()
	if clearSession {
		browsertest.EvalWorker[bool](t, e, `chrome.storage.session.clear().then(() => true)`)
	}
	stopServiceWorker(t, e)
	waitGone(t, before.Host.PID, 20*time.Second)
	// webNavigation.onCommitted wakes the worker.
	wake, cancel := chromedp.NewContext(ctx)
	defer cancel()
	if err := chromedp.Do(wake, chromedp.Navigate(e.Origin1+"/home.html")); err != nil {
		t.Fatalf("open a tab: %v", err)
	}
	if st := statusOf(t, e); st.Host.PID == before.Host.PID {
		t.Fatalf("the same host %d after the worker restarted", st.Host.PID)
	}
}

// TestKernelKeptAcrossWorkerRestartsReplacedAfterReload: a worker that
// stopped and started again keeps using the kernels it installed; after a
// reload or an update of the extension (session storage cleared) a kernel
// left in an open page is replaced, never run.
func TestKernelKeptAcrossWorkerRestartsReplacedAfterReload(t *testing.T) {
	e := ownEnv(t)
	tab := e.OpenTab(t, e.Origin1+"/act.html")
	url := e.TabURL(t, tab)
	snapOn(t, e, tab)
	mark := `(() => { const k = globalThis.__gripKernel__; k.marked = true; return k.build; })()`
	check := `(() => { const k = globalThis.__gripKernel__; return (k.marked === true ? 'kept ' : 'new ') + k.build; })()`
	build := browsertest.EvalGripWorld[string](t, e, url, mark)
	click := func() {
		t.Helper()
		before := len(evalOn[[]string](t, e, tab, "window.__log"))
		snap := snapOn(t, e, tab)
		if _, perr, code := actOn(t, e, "click", mustRef(t, snap, "button", "Beta")); code != 0 {
			t.Fatalf("click: %+v", perr)
		}
		if got := evalOn[[]string](t, e, tab, "window.__log"); len(got) != before+1 {
			t.Fatalf("page log %v, want one more click", got)
		}
	}

	restartWorker(t, e, false)
	click()
	if got := browsertest.EvalGripWorld[string](t, e, url, check); got != "kept "+build {
		t.Errorf("after a worker restart: %q, want the same kernel (kept %s)", got, build)
	}

	restartWorker(t, e, true)
	if got := browsertest.EvalGripWorld[string](t, e, url, check); got != "kept "+build {
		t.Fatalf("before grip ran again: %q, want the old kernel still there", got)
	}
	click()
	got := browsertest.EvalGripWorld[string](t, e, url, check)
	if !strings.HasPrefix(got, "new ") || got == "new "+build || !buildRE.MatchString(strings.TrimPrefix(got, "new ")) {
		t.Errorf("after a new extension session: %q, want a new kernel with a new build (not %s)", got, build)
	}
}
