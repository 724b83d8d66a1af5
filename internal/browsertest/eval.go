package browsertest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

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
			t.Fatalf("no page target with URL %s", urlPrefix)
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
