package e2e

import (
	"fmt"
	"testing"
	"time"

	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/protocol"
)

// BenchmarkFetchCapture is what watching a tab's requests costs the page:
// the time of one fetch (request, response, body read), timed by the page,
// in a tab grip never touched and in one grip is attached to with the
// Network domain on (docs/devtools.md, "Developer tools").
func BenchmarkFetchCapture(b *testing.B) {
	browsertest.Need(b, env)
	const perIter = 50
	run := `(async () => { const t = performance.now();
	  for (let i = 0; i < ` + fmt.Sprint(perIter) + `; i++) { await (await fetch('/data.txt?bench=' + Math.random())).text(); }
	  return performance.now() - t; })()`
	for _, watched := range []bool{false, true} {
		name := "unwatched"
		if watched {
			name = "watched"
		}
		b.Run(name, func(b *testing.B) {
			url := fmt.Sprintf("%s/home.html?bench=%s-%d", env.Origin1, name, time.Now().UnixNano())
			tab := personTab(b, url)
			if watched {
				var res protocol.NetworkResult
				if code := env.GripJSON(b, &res, "network", "--tab", fmt.Sprint(tab)); code != 0 {
					b.Fatalf("grip network: exit %d", code)
				}
			}
			browsertest.Eval[float64](b, env, url, run) // warm up
			var ms float64
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				ms += browsertest.Eval[float64](b, env, url, run)
			}
			b.StopTimer()
			b.ReportMetric(ms*1e6/float64(b.N*perIter), "page-ns/fetch")
			if watched {
				var res protocol.NetworkResult
				env.GripJSON(b, &res, "network", "--tab", fmt.Sprint(tab), "--filter", "bench=", "--budget", "100")
				if len(res.Requests)+res.Omitted < perIter {
					b.Errorf("grip saw %d requests, want at least %d", len(res.Requests)+res.Omitted, perIter)
				}
			}
		})
	}
}

// BenchmarkConsoleRead is one grip console of devtools.html (page, frame
// and worker: three sessions replayed), end to end through the CLI.
func BenchmarkConsoleRead(b *testing.B) {
	browsertest.Need(b, env)
	tab := personTab(b, env.Origin1+"/card.html"+"&bench=console")
	var res protocol.ConsoleResult
	env.GripJSON(b, &res, "console", "--tab", fmt.Sprint(tab))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if code := env.GripJSON(b, &res, "console", "--tab", fmt.Sprint(tab)); code != 0 || len(res.Messages) == 0 {
			b.Fatalf("grip console: exit %d, %d messages", code, len(res.Messages))
		}
	}
}

// BenchmarkTabsNew is grip tabs new URL through the CLI until the page has
// loaded: grip attaches to the blank tab first, so the page's requests are
// listed from its first (docs/devtools.md, "Developer tools").
func BenchmarkTabsNew(b *testing.B) {
	browsertest.Need(b, env)
	for i := 0; i < b.N; i++ {
		var res protocol.ActionResult
		if code := env.GripJSON(b, &res, "tabs", "new", env.Origin1+"/card.html"); code != 0 {
			b.Fatalf("tabs new: exit %d", code)
		}
		b.StopTimer()
		env.GripJSON(b, &res, "tabs", "close", fmt.Sprint(res.Tab.ID))
		b.StartTimer()
	}
}
