package e2e

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/protocol"
)

// TestInjectionCost measures what grip's requests cost through the real
// extension and the host's socket: the first snapshot of a fresh document
// (the kernel's installation in each of its frames included), a later
// snapshot, a click (with the host's own snapshot after it), and one
// `wait --text` poll, on a page with one frame and on one with ten. It
// runs only with GRIP_MEASURE_INJECTION=ROUNDS.
// With GRIP_BASELINE_EXTENSION=DIR it also loads that unpacked extension
// (another build, e.g. from `git archive`) into a second browser, same
// host binary, and alternates between the two every round, so both are
// measured side by side under the same load.
//
//	GRIP_MEASURE_INJECTION=25 GRIP_BASELINE_EXTENSION=/tmp/base/extension \
//	  go test -count=1 -run TestInjectionCost -v ./e2e/
func TestInjectionCost(t *testing.T) {
	rounds, _ := strconv.Atoi(os.Getenv("GRIP_MEASURE_INJECTION"))
	if rounds <= 0 {
		t.Skip("set GRIP_MEASURE_INJECTION=ROUNDS to measure")
	}
	browsertest.Need(t, env)
	builds := []*costRun{{name: "this build", env: env}}
	if dir := os.Getenv("GRIP_BASELINE_EXTENSION"); dir != "" {
		fixtures, err := fs.Sub(testdata, "testdata")
		if err != nil {
			t.Fatal(err)
		}
		base, err := browsertest.Start(browsertest.Options{Fixtures: fixtures, Bin: env.Bin, Extension: os.DirFS(dir)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() {
			if err := base.Close(); err != nil {
				t.Error(err)
			}
		})
		builds = append([]*costRun{{name: "baseline", env: base}}, builds...)
		t.Logf("baseline: %s", dir)
	}
	ctx := t.Context()
	for _, b := range builds {
		c, err := client.Connect(ctx, client.Options{RuntimeDir: filepath.Join(b.env.StateDir, "run"), Wait: 30 * time.Second})
		if err != nil {
			t.Fatalf("%s: %v", b.name, err)
		}
		t.Cleanup(func() { c.Close() })
		b.c = c
		b.tab = b.env.OpenTab(t, b.env.Origin1+"/home.html")
	}
	pages := []costPage{
		{"act.html: top + 1 cross-origin frame", 2, func(e *browsertest.Env, i int) string {
			return fmt.Sprintf("%s/act.html?card=%s&round=%d", e.Origin1, e.Origin2, i)
		}},
		{"frames.html: top + 10 frames, 5 cross-origin", 11, func(e *browsertest.Env, i int) string {
			return fmt.Sprintf("%s/frames.html?n=10&other=%s&round=%d", e.Origin1, e.Origin2, i)
		}},
	}
	for i := range rounds {
		for p := range pages {
			for j := range builds {
				// Alternate who goes first.
				builds[(i+j)%len(builds)].round(t, ctx, pages[p], i)
			}
		}
	}
	var out strings.Builder
	fmt.Fprintf(&out, "medians over %d rounds, ms:\n", rounds)
	for _, p := range pages {
		fmt.Fprintf(&out, "%s\n%-12s %12s %12s %12s %12s\n", p.name, "build", "1st snapshot", "2nd snapshot", "click", "wait --text")
		for _, b := range builds {
			s := b.samples[p.name]
			fmt.Fprintf(&out, "%-12s %12.1f %12.1f %12.1f %12.1f\n", b.name, median(s.first), median(s.later), median(s.click), median(s.wait))
		}
	}
	t.Log("\n" + out.String())
}

// costPage is a page the cost is measured on, in a fresh document each
// round; frames is how many documents it has.
type costPage struct {
	name   string
	frames int
	url    func(e *browsertest.Env, round int) string
}

// costRun is one build's browser, connection, tab and samples by page.
type costRun struct {
	name    string
	env     *browsertest.Env
	c       *client.Client
	tab     int
	samples map[string]*costSamples
}

type costSamples struct{ first, later, click, wait []float64 }

// round loads the page in a fresh document and times the four requests.
func (b *costRun) round(t *testing.T, ctx context.Context, p costPage, i int) {
	t.Helper()
	if b.samples == nil {
		b.samples = map[string]*costSamples{}
	}
	s := b.samples[p.name]
	if s == nil {
		s = &costSamples{}
		b.samples[p.name] = s
	}
	var res protocol.ActionResult
	if err := b.c.Call(ctx, protocol.OpAct, protocol.ActArgs{Action: protocol.ActNavigate, Tab: b.tab, Text: p.url(b.env, i)}, &res); err != nil {
		t.Fatalf("%s: navigate: %v", b.name, err)
	}
	var snap protocol.Snapshot
	ms := func(f func() error) float64 {
		t0 := time.Now()
		if err := f(); err != nil {
			t.Fatalf("%s: %v", b.name, err)
		}
		return float64(time.Since(t0).Microseconds()) / 1000
	}
	snapshot := func() error { return b.c.Call(ctx, protocol.OpSnapshot, protocol.SnapshotArgs{Tab: b.tab}, &snap) }
	s.first = append(s.first, ms(snapshot))
	if len(snap.Frames) != p.frames {
		t.Fatalf("%s: %d frames answered, want %d:\n%s", b.name, len(snap.Frames), p.frames, snap.Text)
	}
	s.later = append(s.later, ms(snapshot))
	beta := refOf(snap, "button", "Beta")
	if beta == "" {
		t.Fatalf("%s: no Beta in\n%s", b.name, snap.Text)
	}
	s.click = append(s.click, ms(func() error {
		return b.c.Call(ctx, protocol.OpAct, protocol.ActArgs{Action: protocol.ActClick, Tab: b.tab, Target: beta}, &res)
	}))
	s.wait = append(s.wait, ms(func() error {
		return b.c.Call(ctx, protocol.OpWait, protocol.WaitArgs{Tab: b.tab, Text: "Gamma", TimeoutMS: 5000}, &res)
	}))
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
