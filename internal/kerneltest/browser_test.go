package kerneltest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/internal/kerneltest"
	"github.com/grip-dev/grip/launcher"
	"github.com/grip-dev/grip/protocol"
)

// One browser and one fixture server for the whole package; every test gets
// a fresh tab.
var (
	browserCtx  context.Context
	browserErr  error
	browserPath string
	serverURL   string
)

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	srv := httptest.NewServer(http.FileServer(http.Dir("testdata")))
	defer srv.Close()
	serverURL = srv.URL

	browserPath = browsertest.FindBrowser()
	if browserPath == "" {
		if os.Getenv(browsertest.RequireEnv) != "" && !browsertest.Short() {
			fmt.Fprintln(os.Stderr, "kerneltest: no Chromium-family browser found and "+browsertest.RequireEnv+" is set; apt-get install chromium")
			return 1
		}
		return m.Run()
	}
	profile, err := os.MkdirTemp("", "grip-kernel-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "kerneltest:", err)
		return 1
	}
	defer os.RemoveAll(profile)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(browserPath),
		chromedp.Flag("headless", "new"),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("mute-audio", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-quic", true),
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.WindowSize(1280, 800),
		chromedp.UserDataDir(profile),
		chromedp.Env(launcher.Env(profile)...), // crash reports in the profile, not ~/.config/chromium
	)
	defer cancelAlloc()
	ctx, cancel := chromedp.NewContext(allocCtx)
	defer cancel()
	if err := chromedp.Do(ctx); err != nil {
		browserErr = err
	}
	browserCtx = ctx
	return m.Run()
}

// newTab opens a fresh tab on the fixture page and closes it when the test ends.
func newTab(tb testing.TB, page string) context.Context {
	tb.Helper()
	if browserPath == "" {
		tb.Skip("no browser installed (set " + browsertest.RequireEnv + "=1 to make this a failure)")
	}
	if browserErr != nil {
		tb.Fatalf("browser did not start: %v", browserErr)
	}
	ctx, cancel := chromedp.NewContext(browserCtx)
	tb.Cleanup(cancel)
	ctx, cancelT := context.WithTimeout(ctx, 5*time.Minute)
	tb.Cleanup(cancelT)
	if err := chromedp.Do(ctx, chromedp.Navigate(serverURL+"/"+page)); err != nil {
		tb.Fatalf("navigate %s: %v", page, err)
	}
	return ctx
}

// call runs the kernel with req in the page and decodes its reply.
func call(tb testing.TB, ctx context.Context, req any) kerneltest.Reply {
	tb.Helper()
	raw := callRaw(tb, ctx, req)
	var r kerneltest.Reply
	if err := json.Unmarshal(raw, &r); err != nil {
		tb.Fatalf("decode %s: %v", raw, err)
	}
	return r
}

func callRaw(tb testing.TB, ctx context.Context, req any) []byte {
	tb.Helper()
	raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](kerneltest.Expr(req), chromedp.EvalAwaitPromise))
	if err != nil {
		tb.Fatalf("kernel %v: %v", req, err)
	}
	return raw
}

// eval evaluates a page expression and decodes its value.
func eval[T any](tb testing.TB, ctx context.Context, expr string) T {
	tb.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.Fatalf("eval %s: %v", expr, err)
	}
	return v
}

func snap(tb testing.TB, ctx context.Context, mode string) kerneltest.Reply {
	tb.Helper()
	r := call(tb, ctx, map[string]any{"op": "snapshot", "mode": mode})
	if r.Error != nil {
		tb.Fatalf("snapshot: %v", r.Error)
	}
	return r
}

func act(tb testing.TB, ctx context.Context, req map[string]any) kerneltest.Reply {
	tb.Helper()
	req["op"] = "act"
	return call(tb, ctx, req)
}

// find returns the element with that role and name, or nil.
func find(els []protocol.ExtElement, role, name string) *protocol.ExtElement {
	for i := range els {
		if els[i].Role == role && els[i].Name == name {
			return &els[i]
		}
	}
	return nil
}

func mustFind(tb testing.TB, els []protocol.ExtElement, role, name string) protocol.ExtElement {
	tb.Helper()
	e := find(els, role, name)
	if e == nil {
		tb.Fatalf("no [%s %q] in snapshot:\n%s", role, name, dump(els))
	}
	return *e
}

func dump(els []protocol.ExtElement) string {
	var b strings.Builder
	for _, e := range els {
		fmt.Fprintf(&b, "  %d [%s %q", e.ID, e.Role, e.Name)
		if e.Value != nil {
			fmt.Fprintf(&b, " value=%q", *e.Value)
		}
		for _, s := range e.States {
			b.WriteString(" " + s)
		}
		b.WriteString("]\n")
	}
	return b.String()
}

func logOf(tb testing.TB, ctx context.Context) []string {
	tb.Helper()
	return eval[[]string](tb, ctx, `window.__log`)
}

func wantError(tb testing.TB, r kerneltest.Reply, code, boundary, msgPart string) {
	tb.Helper()
	if r.Error == nil {
		tb.Fatalf("want %s/%s error, got %+v", code, boundary, r)
	}
	if string(r.Error.Code) != code || string(r.Error.Boundary) != boundary || !strings.Contains(r.Error.Message, msgPart) {
		tb.Fatalf("want %s/%s containing %q, got %s/%s %q", code, boundary, msgPart, r.Error.Code, r.Error.Boundary, r.Error.Message)
	}
}

func wantOK(tb testing.TB, r kerneltest.Reply) {
	tb.Helper()
	if r.Error != nil || !r.OK {
		tb.Fatalf("want ok, got error %v (%+v)", r.Error, r)
	}
}
