package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"
)

// TabContext returns a chromedp context attached to the page whose URL
// starts with urlPrefix, for tests that must reach into a page (the page's
// own main world, not grip's isolated one). Cancelling it leaves the tab open.
func (e *Env) TabContext(t testing.TB, urlPrefix string) (context.Context, context.CancelFunc) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		infos, err := chromedp.Targets(e.browserCtx)
		if err != nil {
			t.Fatalf("list targets: %v", err)
		}
		var id target.ID
		for _, info := range infos {
			if (info.Type == "page" || info.Type == "iframe") && strings.HasPrefix(info.URL, urlPrefix) {
				id = info.TargetID
			}
		}
		if id != "" {
			ctx, cancel := chromedp.NewContext(e.browserCtx, chromedp.WithTargetID(id), chromedp.WithDetachOnCancel())
			// Attach now, on a context without a deadline: the first Run's
			// context bounds the attachment's life.
			if err := chromedp.Do(ctx); err != nil {
				cancel()
				t.Fatalf("attach to %s: %v", urlPrefix, err)
			}
			return ctx, cancel
		}
		if time.Now().After(deadline) {
			var urls []string
			for _, info := range infos {
				if info.Type == "page" {
					urls = append(urls, info.URL)
				}
			}
			t.Fatalf("no page target with URL %s (the pages: %s)", urlPrefix, strings.Join(urls, ", "))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Eval evaluates expr in the main world of the page whose URL starts with
// urlPrefix and decodes the result into T.
func Eval[T any](t testing.TB, e *Env, urlPrefix, expr string) T {
	t.Helper()
	ctx, cancel := e.TabContext(t, urlPrefix)
	defer cancel()
	tctx, tcancel := context.WithTimeout(ctx, 20*time.Second)
	defer tcancel()
	v, err := chromedp.Run(tctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("eval %s in %s: %v", expr, urlPrefix, err)
	}
	return v
}

// EvalGripWorld evaluates expr in grip's own isolated world (the
// extension's content-script context, where its kernel lives) in the top
// frame of the page whose URL starts with urlPrefix, and decodes the
// result into T. The world exists once grip has run something in the page.
func EvalGripWorld[T any](t testing.TB, e *Env, urlPrefix, expr string) T {
	t.Helper()
	v, err := TryEvalGripWorld[T](t, e, urlPrefix, expr)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TryEvalGripWorld is EvalGripWorld returning its error, e.g. when the
// page has no grip world.
func TryEvalGripWorld[T any](t testing.TB, e *Env, urlPrefix, expr string) (T, error) {
	t.Helper()
	var zero T
	ctx, cancel := e.TabContext(t, urlPrefix)
	defer cancel()
	tctx, tcancel := context.WithTimeout(ctx, 20*time.Second)
	defer tcancel()
	top := string(chromedp.FromContext(ctx).Target.TargetID)
	found := make(chan runtime.ExecutionContextID, 1)
	lctx, lcancel := context.WithCancel(ctx)
	defer lcancel()
	err := chromedp.Listen(lctx, func(ev any) {
		c, ok := ev.(*runtime.EventExecutionContextCreated)
		if !ok || c.Context == nil || !strings.HasPrefix(c.Context.Origin, "chrome-extension://") {
			return
		}
		var aux struct {
			FrameID   string `json:"frameId"`
			IsDefault bool   `json:"isDefault"`
		}
		if json.Unmarshal(c.Context.AuxData, &aux) != nil || aux.IsDefault || aux.FrameID != top {
			return
		}
		select {
		case found <- c.Context.ID:
		default:
		}
	})
	if err != nil {
		return zero, fmt.Errorf("listen to %s: %w", urlPrefix, err)
	}
	// Runtime.enable reports every context that exists, grip's included.
	if _, err := chromedp.Call(tctx, runtime.Disable, cdp.Empty{}); err != nil {
		return zero, fmt.Errorf("CDP Runtime.disable: %w", err)
	}
	if _, err := chromedp.Call(tctx, runtime.Enable, cdp.Empty{}); err != nil {
		return zero, fmt.Errorf("CDP Runtime.enable: %w", err)
	}
	var id runtime.ExecutionContextID
	select {
	case id = <-found:
	case <-time.After(3 * time.Second):
		return zero, fmt.Errorf("no grip world in %s (has grip run in it?)", urlPrefix)
	}
	v, err := chromedp.Run(tctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise, func(p *runtime.EvaluateParams) {
		p.ContextID = id
	}))
	if err != nil {
		return zero, fmt.Errorf("eval %s in grip's world of %s: %w", expr, urlPrefix, err)
	}
	return v, nil
}

// TabURL returns the URL grip reports for tab.
func (e *Env) TabURL(t testing.TB, tab int) string {
	t.Helper()
	var res struct {
		Tabs []struct {
			ID  int    `json:"id"`
			URL string `json:"url"`
		} `json:"tabs"`
	}
	e.GripJSON(t, &res, "tabs")
	for _, tb := range res.Tabs {
		if tb.ID == tab {
			return tb.URL
		}
	}
	t.Fatalf("tab %d not listed", tab)
	return ""
}

// Sprint is fmt.Sprint, for building grip arguments.
func Sprint(v any) string { return fmt.Sprint(v) }

// WorkerTarget returns the target id of grip's service worker.
func (e *Env) WorkerTarget(t testing.TB) target.ID {
	t.Helper()
	infos, err := chromedp.Targets(e.BrowserContext())
	if err != nil {
		t.Fatalf("list targets: %v", err)
	}
	for _, info := range infos {
		// worker/background.js, or a kept folder's worker/background-VERSION.js (extension.ForFolder)
		if info.Type == "service_worker" && strings.HasPrefix(info.URL, "chrome-extension://") && strings.Contains(info.URL, "/worker/background") {
			return info.TargetID
		}
	}
	t.Fatalf("no grip service worker among %d targets", len(infos))
	return ""
}

// EvalWorker evaluates expr in grip's service worker (awaiting a promise)
// and decodes the result into T: how tests reach chrome.* state and the
// worker's test hooks. It detaches without closing the worker.
func EvalWorker[T any](t testing.TB, e *Env, expr string) T {
	t.Helper()
	sw, cancel := chromedp.NewContext(e.BrowserContext(), chromedp.WithTargetID(e.WorkerTarget(t)), chromedp.WithDetachOnCancel())
	defer cancel()
	tctx, tcancel := context.WithTimeout(sw, 20*time.Second)
	defer tcancel()
	// A worker Chrome has just started may be attached to before its
	// script has run (the first test of a fresh browser): wait for its
	// chrome.* to exist.
	for {
		ready, err := chromedp.Run(tctx, chromedp.Evaluate[bool](`typeof chrome === 'object' && !!chrome.runtime && !!chrome.runtime.id`))
		if err == nil && ready {
			break
		}
		if tctx.Err() != nil {
			t.Fatalf("grip's service worker never had chrome.runtime: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	v, err := chromedp.Run(tctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("eval %s in grip's service worker: %v", expr, err)
	}
	return v
}

// PageScriptSeconds runs f and returns the seconds of script the page whose
// URL starts with urlPrefix ran meanwhile, by the renderer's own count
// (CDP Performance.getMetrics ScriptDuration; frames in other processes are
// not counted).
func PageScriptSeconds(t testing.TB, e *Env, urlPrefix string, f func()) float64 {
	t.Helper()
	ctx, cancel := e.TabContext(t, urlPrefix)
	defer cancel()
	script := func() float64 {
		res, err := chromedp.Call(ctx, performance.GetMetrics, cdp.Empty{})
		if err != nil {
			t.Fatalf("Performance.getMetrics: %v", err)
		}
		for _, m := range res.Metrics {
			if m.Name == "ScriptDuration" {
				return m.Value
			}
		}
		t.Fatal("no ScriptDuration metric")
		return 0
	}
	if _, err := chromedp.Call(ctx, performance.Enable, performance.EnableParams{}); err != nil {
		t.Fatalf("Performance.enable: %v", err)
	}
	before := script()
	f()
	return script() - before
}
