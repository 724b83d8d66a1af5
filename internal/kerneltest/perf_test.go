package kerneltest_test

import (
	"context"
	"testing"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/heapprofiler"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/grip-dev/grip/internal/kerneltest"
)

// heapUsed collects garbage and returns the page's used JS heap and the
// embedder (DOM) heap, in bytes.
func heapUsed(tb testing.TB, ctx context.Context) (js, dom float64) {
	tb.Helper()
	res, err := chromedp.Run(ctx, func(ctx context.Context, t *chromedp.Target) (runtime.GetHeapUsageResult, error) {
		for range 3 {
			if _, err := cdp.Call(ctx, t, heapprofiler.CollectGarbage, cdp.Empty{}); err != nil {
				return runtime.GetHeapUsageResult{}, err
			}
		}
		return cdp.Call(ctx, t, runtime.GetHeapUsage, cdp.Empty{})
	})
	if err != nil {
		tb.Fatalf("heap usage: %v", err)
	}
	return res.UsedSize, res.EmbedderHeapUsedSize
}

// TestNoLeakOnRerender re-renders a 500-row table 1,000 times, with a
// snapshot after every render: the cache must not keep the old rows.
func TestNoLeakOnRerender(t *testing.T) {
	ctx := newTab(t, "table.html")
	// The kernel as a page function, so the loop runs in the page.
	eval[any](t, ctx, `window.__k = `+kerneltest.Source())
	eval[any](t, ctx, `(() => { for (let i = 0; i < 20; i++) { render(); __k({op: 'snapshot', mode: 'interactive'}); } })()`)
	js0, dom0 := heapUsed(t, ctx)
	n := eval[int](t, ctx, `(() => {
		let n = 0;
		for (let i = 0; i < 1000; i++) { render(); n = __k({op: 'snapshot', mode: 'interactive'}).elements.length; }
		return n;
	})()`)
	if n != 500 {
		t.Fatalf("snapshot has %d elements, want 500", n)
	}
	js1, dom1 := heapUsed(t, ctx)
	t.Logf("JS heap %.1f → %.1f MB, DOM heap %.1f → %.1f MB", js0/1e6, js1/1e6, dom0/1e6, dom1/1e6)
	if js1-js0 > 5e6 {
		t.Errorf("JS heap grew by %.1f MB over 1,000 re-renders", (js1-js0)/1e6)
	}
	type cacheInfo struct {
		ByID int `json:"byId"`
		Sig  int `json:"sig"`
		Next int `json:"next"`
	}
	c := eval[cacheInfo](t, ctx, `({byId: __gripRefCache__.byId.size, sig: __gripRefCache__.sig.size, next: __gripRefCache__.next})`)
	if c.ByID != 500 || c.Sig != 500 || c.Next != 1020*500+1 {
		t.Errorf("cache = %+v, want 500 live entries and next = %d", c, 1020*500+1)
	}
}

// TestSnapshot5000 checks a 5,000-control page is read whole (a fresh
// injection each time, as the extension does). Its speed is a benchmark's
// business (BenchmarkSnapshot5000, bench/), not a timed test's: these
// machines are shared and noisy.
func TestSnapshot5000(t *testing.T) {
	ctx := newTab(t, "many.html")
	r := snap(t, ctx, "interactive")
	if len(r.Elements) != 5000 {
		t.Fatalf("snapshot has %d elements, want 5000", len(r.Elements))
	}
	t.Logf("5,000 controls: %.1f ms in page", r.Stats.MS)
}

func BenchmarkSnapshot5000(b *testing.B) {
	ctx := newTab(b, "many.html")
	eval[any](b, ctx, `window.__k = `+kerneltest.Source())
	snap(b, ctx, "interactive") // warm: every id assigned
	var total float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ms := eval[float64](b, ctx, `(() => { const t = performance.now(); const r = __k({op: 'snapshot', mode: 'interactive'}); if (r.elements.length !== 5000) throw new Error('got ' + r.elements.length); return performance.now() - t; })()`)
		total += ms
	}
	b.ReportMetric(total/float64(b.N), "page-ms/op")
}

func BenchmarkSnapshot5000Content(b *testing.B) {
	ctx := newTab(b, "many.html")
	eval[any](b, ctx, `window.__k = `+kerneltest.Source())
	var total float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		total += eval[float64](b, ctx, `(() => { const t = performance.now(); __k({op: 'snapshot', mode: 'content'}); return performance.now() - t; })()`)
	}
	b.ReportMetric(total/float64(b.N), "page-ms/op")
}

// BenchmarkFullWalkFloor5000 puts the kernel's full walk of many.html
// (5,000 controls; the body's class toggled before each read, so no
// kept walk answers) beside its floors, in one run: a bare walk of the
// same elements with nothing computed, and the bare walk with
// checkVisibility on each element (the style and layout a changed page
// makes the first visibility read pay). Medians in ms; kernel-cpu-ms is
// the kernel's walk by the page's main-thread CPU clock, the figure to
// compare across runs on a shared machine.
func BenchmarkFullWalkFloor5000(b *testing.B) {
	ctx := newTab(b, "many.html")
	eval[any](b, ctx, `window.__k = `+kerneltest.Source())
	eval[any](b, ctx, `__k({op: 'snapshot', mode: 'interactive', asJSON: true})`) // warm: every id assigned
	type row struct {
		Bare    float64 `json:"bare"`
		Visible float64 `json:"visible"`
		Kernel  float64 `json:"kernel"`
		Nodes   int     `json:"nodes"`
	}
	var bare, visible, kernel, kernelCPU []float64
	nodes := 0
	for b.Loop() {
		// The kernel's walk alone by the main thread's CPU clock, which the
		// other processes of a shared machine do not inflate as they do the
		// wall clock (the rows below).
		t0 := threadMS(b, ctx)
		eval[any](b, ctx, `(() => { document.body.classList.toggle('bench-tick'); __k({op: 'snapshot', mode: 'interactive', asJSON: true}); return 0; })()`)
		kernelCPU = append(kernelCPU, threadMS(b, ctx)-t0)
		r := eval[row](b, ctx, `(() => {
			const walk = (vis) => {
				let n = 0;
				const visit = (el) => {
					n++;
					if (vis) el.checkVisibility({visibilityProperty: true});
					for (let c = el.firstElementChild; c; c = c.nextElementSibling) visit(c);
				};
				visit(document.documentElement);
				return n;
			};
			document.body.classList.toggle('bench-tick');
			let t = performance.now();
			const nodes = walk(false);
			const bare = performance.now() - t;
			document.body.classList.toggle('bench-tick');
			t = performance.now();
			walk(true);
			const visible = performance.now() - t;
			document.body.classList.toggle('bench-tick');
			t = performance.now();
			const s = JSON.parse(__k({op: 'snapshot', mode: 'interactive', asJSON: true}));
			const kernel = performance.now() - t;
			if (s.stats.reread || s.elements.length !== 5000) throw new Error('not a full walk of 5,000 controls');
			return {bare, visible, kernel, nodes};
		})()`)
		bare, visible, kernel = append(bare, r.Bare), append(visible, r.Visible), append(kernel, r.Kernel)
		nodes = r.Nodes
	}
	k := median(kernel)
	b.ReportMetric(float64(nodes), "elements")
	b.ReportMetric(median(bare), "bare-walk-ms")
	b.ReportMetric(median(visible), "walk+checkVisibility-ms")
	b.ReportMetric(k, "kernel-ms")
	b.ReportMetric(median(visible)/k, "floor/kernel")
	b.ReportMetric(median(kernelCPU), "kernel-cpu-ms")
}

// threadMS is the page's main-thread CPU time so far, in ms (CDP
// Performance.getMetrics ThreadTime; the domain enabled on first use).
func threadMS(tb testing.TB, ctx context.Context) float64 {
	tb.Helper()
	res, err := chromedp.Run(ctx, func(ctx context.Context, t *chromedp.Target) (performance.GetMetricsResult, error) {
		if _, err := cdp.Call(ctx, t, performance.Enable, performance.EnableParams{TimeDomain: performance.EnableTimeDomainThreadTicks}); err != nil {
			return performance.GetMetricsResult{}, err
		}
		return cdp.Call(ctx, t, performance.GetMetrics, cdp.Empty{})
	})
	if err != nil {
		tb.Fatalf("performance metrics: %v", err)
	}
	for _, m := range res.Metrics {
		if m.Name == "ThreadTime" {
			return m.Value * 1000
		}
	}
	tb.Fatal("performance metrics: no ThreadTime")
	return 0
}

// benchChangedWalk reports the median CPU ms (the page's main-thread
// clock) of the kernel's full walk of page, the body's class toggled
// before each read so no kept walk answers.
func benchChangedWalk(b *testing.B, page string) {
	ctx := newTab(b, page)
	eval[any](b, ctx, `window.__k = `+kerneltest.Source())
	eval[any](b, ctx, `__k({op: 'snapshot', mode: 'interactive', asJSON: true})`) // warm: every id assigned
	var cpu []float64
	for b.Loop() {
		t0 := threadMS(b, ctx)
		eval[any](b, ctx, `(() => { document.body.classList.toggle('bench-tick'); __k({op: 'snapshot', mode: 'interactive', asJSON: true}); return 0; })()`)
		cpu = append(cpu, threadMS(b, ctx)-t0)
	}
	b.ReportMetric(median(cpu), "kernel-cpu-ms")
}

// BenchmarkUnnamedControls900 is the kernel's full walk of 300 buttons
// drawn by an icon font, 300 clickables drawn by their ::before and 300
// buttons with text (unnamed.html; the body's class toggled before
// each read, so no kept walk answers): what naming controls by the
// content their style generates costs (names.js generatedText), read
// only for the controls that hold no text. Median ms by the page's
// main-thread CPU clock.
func BenchmarkUnnamedControls900(b *testing.B) {
	benchChangedWalk(b, "unnamed.html")
}

// BenchmarkUnnamedFields900 is the kernel's full walk of 900 fields that
// no label is tied to (unlabelled.html; the body's class toggled
// before each read, so no kept walk answers): 600 in Bootstrap form groups
// whose label names them (names.js orphanLabelName), 300 three to a row
// with no label, which every inference tries and none names. Median ms
// by the page's main-thread CPU clock.
func BenchmarkUnnamedFields900(b *testing.B) {
	benchChangedWalk(b, "unlabelled.html")
}
