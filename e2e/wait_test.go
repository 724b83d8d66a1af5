package e2e

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/statedir"
)

// openWaits opens waits.html with its cross-origin side frame loaded.
func openWaits(t testing.TB) (int, protocol.Snapshot) {
	tab := env.OpenTab(t, env.Origin1+"/waits.html?other="+env.Origin2)
	deadline := time.Now().Add(10 * time.Second)
	for {
		var snap protocol.Snapshot
		if code := env.GripJSON(t, &snap, "snapshot", "--tab", fmt.Sprint(tab), "--mode", "content"); code == 0 && strings.Contains(snap.Text, "side frame") {
			return tab, snap
		}
		if time.Now().After(deadline) {
			t.Fatalf("the side frame never loaded")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Each kind of wait answers when its condition comes true while it waits:
// text in a cross-origin frame, text gone, an element gone, a URL.
func TestWaitsAnswerWhenTheConditionComes(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openWaits(t)
	page := env.Origin1 + "/waits.html"
	sideFrame := env.Origin2 + "/waitsframe.html"
	tabArg := fmt.Sprint(tab)
	for _, c := range []struct {
		name   string
		change func()
		args   []string
		detail string
	}{
		{"text in a cross-origin frame", func() { browsertest.Eval[bool](t, env, sideFrame, "setTimeout(() => say('Paid in full'), 300), true") },
			[]string{"--text", "Paid in full"}, "text is on the page"},
		{"text gone", func() { browsertest.Eval[bool](t, env, page, "later(300, done), true") },
			[]string{"--text-gone", "Loading…"}, "text is gone from the page"},
		{"element gone", func() { browsertest.Eval[bool](t, env, page, "later(300, bye), true") },
			[]string{"--gone", mustRef(t, snap, "link", "Goes away")}, "is gone"},
		{"url", func() { browsertest.Eval[bool](t, env, page, "later(300, move), true") },
			[]string{"--url", "step=2"}, "url is"},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.change()
			start := time.Now()
			res, perr, code := act(t, append([]string{"wait", "--tab", tabArg, "--timeout", "8s"}, c.args...)...)
			if code != 0 {
				t.Fatalf("wait %v: exit %d %+v", c.args, code, perr)
			}
			if !strings.Contains(res.Detail, c.detail) {
				t.Errorf("detail %q, want it to say %q", res.Detail, c.detail)
			}
			if time.Since(start) >= 8*time.Second {
				t.Errorf("the wait ran to its timeout")
			}
		})
	}
	// A wait whose text never comes times out, and says so.
	_, perr, code := act(t, "wait", "--tab", tabArg, "--text-gone", "side frame", "--timeout", "700ms")
	if code != 1 || perr == nil || perr.Code != protocol.CodeTimeout {
		t.Errorf("text that stays: exit %d %+v, want timeout", code, perr)
	}
}

// A wait spans a navigation: the text comes on the next page.
func TestWaitSpansANavigation(t *testing.T) {
	browsertest.Need(t, env)
	tab, _ := openWaits(t)
	browsertest.Eval[bool](t, env, env.Origin1+"/waits.html", "later(400, () => { location.href = '/home.html'; }), true")
	if _, perr, code := act(t, "wait", "--tab", fmt.Sprint(tab), "--text", "Go to form", "--timeout", "8s"); code != 0 {
		t.Fatalf("wait across a navigation: exit %d %+v", code, perr)
	}
}

// BenchmarkWaitLatency: from the page adding the text to the wait's reply
// on an open socket, medians over b.N; and the page's script time while a
// wait sits idle for a second (CDP Performance.getMetrics ScriptDuration).
//
//	GRIP_REQUIRE_BROWSER=1 go test ./e2e -run x -bench WaitLatency -benchtime 20x
func BenchmarkWaitLatency(b *testing.B) {
	browsertest.Need(b, env)
	tab, _ := openWaits(b)
	page := env.Origin1 + "/waits.html"
	ctx := context.Background()
	c, err := client.Connect(ctx, client.Options{RuntimeDir: statedir.At(env.StateDir).Runtime, Wait: 10 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	var lat []float64
	for i := 0; b.Loop(); i++ {
		text := fmt.Sprintf("mark %d", i)
		browsertest.Eval[bool](b, env, page, fmt.Sprintf("later(200, () => mark(%q)), true", text))
		var res protocol.ActionResult
		if err := c.Call(ctx, protocol.OpWait, protocol.WaitArgs{Tab: tab, Text: text, TimeoutMS: 5000}, &res); err != nil {
			b.Fatal(err)
		}
		answered := float64(time.Now().UnixNano()) / 1e6
		marked := browsertest.Eval[float64](b, env, page, "window.__markedAt")
		lat = append(lat, answered-marked)
	}
	b.ReportMetric(medianOf(lat), "ms-change-to-reply")

	// Script time in the page while a wait for absent text sits for 1 s.
	idle := browsertest.PageScriptSeconds(b, env, page, func() {
		var res protocol.ActionResult
		_ = c.Call(ctx, protocol.OpWait, protocol.WaitArgs{Tab: tab, Text: "never there", TimeoutMS: 1000}, &res)
	})
	b.ReportMetric(idle*1000, "page-script-ms-per-idle-s")

	// Side by side: what the old design cost the page in the same second,
	// the kernel's probe injected every 100 ms from the worker.
	polled := browsertest.PageScriptSeconds(b, env, page, func() {
		browsertest.EvalWorker[bool](b, env, fmt.Sprintf(`(async () => {
			const probe = (t) => globalThis.__gripKernel__ ? globalThis.__gripKernel__.run({ op: 'probe', text: t }) : null;
			for (let i = 0; i < 10; i++) {
				await chrome.scripting.executeScript({ target: { tabId: %d, frameIds: [0] }, world: 'ISOLATED', func: probe, args: ['never there'] });
				await new Promise((r) => setTimeout(r, 100));
			}
			return true;
		})()`, tab))
	})
	b.ReportMetric(polled*1000, "polling-page-script-ms-per-s")
}

func medianOf(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
