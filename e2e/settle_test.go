package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/statedir"
)

// appearedNames lists "role name" of what a reply says appeared.
func appearedNames(res protocol.ActionResult) string {
	var names []string
	for _, e := range res.Changes.Appeared {
		names = append(names, e.Role+" "+e.Name)
	}
	return strings.Join(names, ", ")
}

// A reply is read once the page has settled: a page that builds what the
// click opened in steps, each waiting on the server, is told whole.
func TestReplyAfterThePageSettles(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/settle.html")
	snap := snapshot(t, tab)
	res, perr, code := act(t, "click", mustRef(t, snap, "button", "Open editor"))
	if code != 0 {
		t.Fatalf("click: exit %d %+v", code, perr)
	}
	if got := appearedNames(res); got != "textbox Body, button Confirm changes" {
		t.Errorf("appeared %q, want the whole editor", got)
	}
	if res.Settled == nil || !*res.Settled {
		t.Errorf("settled = %v, want true", res.Settled)
	}
}

// A busy indicator holds the reply until it goes, within the bound.
func TestReplyWaitsForTheBusyIndicator(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/settle.html")
	snap := snapshot(t, tab)
	res, perr, code := act(t, "click", mustRef(t, snap, "button", "Save"))
	if code != 0 {
		t.Fatalf("click: exit %d %+v", code, perr)
	}
	if got := appearedNames(res); got != "link Saved note" {
		t.Errorf("appeared %q, want the saved note's link", got)
	}
	if res.Settled == nil || !*res.Settled {
		t.Errorf("settled = %v, want true", res.Settled)
	}
}

// A panel that slides shut and is removed when its transition ends: the
// reply waits for the animation and says the panel's controls are gone.
func TestReplyWaitsForAClosingAnimation(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/settle.html")
	snap := snapshot(t, tab)
	inside := mustRef(t, snap, "button", "Panel action")
	closer := mustRef(t, snap, "button", "Close panel")
	res, perr, code := act(t, "click", closer)
	if code != 0 {
		t.Fatalf("click: exit %d %+v", code, perr)
	}
	if got := strings.Join(res.Changes.Gone, " "); !strings.Contains(" "+got+" ", " "+inside+" ") || !strings.Contains(" "+got+" ", " "+closer+" ") {
		t.Errorf("gone %q, want the panel's %s and %s: the reply was read before the panel was removed", got, inside, closer)
	}
	if res.Settled == nil || !*res.Settled {
		t.Errorf("settled = %v, want true", res.Settled)
	}
}

// An app that answers a click in its next animation frame (Chart.js
// throttles its events so) is read after that frame: each reply tells the
// shape the click drew. Read before the frame, a reply said nothing
// changed about as often as not on a loaded machine.
func TestReplyAfterTheNextFrame(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/settle.html")
	draw := mustRef(t, snapshot(t, tab), "button", "Draw a shape")
	for i := 1; i <= 8; i++ {
		res, perr, code := act(t, "click", draw)
		if code != 0 {
			t.Fatalf("click %d: exit %d %+v", i, code, perr)
		}
		if got, want := appearedNames(res), fmt.Sprintf("button Shape %d", i); got != want {
			t.Fatalf("click %d: appeared %q, want %q: the reply was read before the page's next frame", i, got, want)
		}
	}
}

// A search box that shows its hits 300 ms after typing stops (a
// debounce, a timer longer than the quiet period): the reply to the fill,
// and to trusted typing, waits for the timer and tells the hits.
func TestReplyWaitsForTheTimersTheInputSet(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/settle.html")
	box := mustRef(t, snapshot(t, tab), "textbox", "Search notes")
	for _, c := range []struct{ verb, text string }{{"fill", "minutes"}, {"type", " old"}} {
		args := []string{c.verb, box, c.text}
		if c.verb == "type" {
			args = append(args, "--trusted")
		}
		res, perr, code := act(t, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d %+v", c.verb, code, perr)
		}
		q := "minutes"
		if c.verb == "type" {
			q = "minutes old"
		}
		if got, want := appearedNames(res), fmt.Sprintf("link %s one, link %s two", q, q); got != want {
			t.Errorf("%s: appeared %q, want %q: the reply was read before the search's timer ran", c.verb, got, want)
		}
	}
}

// A timer set through a reference the page took when it loaded (a module
// system's own setTimeout, as TiddlyWiki's) is waited for too, in a tab an
// agent opened: the wrapper ran at document_start there, before the page
// took its reference (extension/page/timers.js).
func TestReplyWaitsForATimerThePageTookAtLoad(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/kept-timer.html")
	box := mustRef(t, snapshot(t, tab), "textbox", "Draft")
	res, perr, code := act(t, "fill", box, "budget")
	if code != 0 {
		t.Fatalf("fill: exit %d %+v", code, perr)
	}
	if got, want := appearedNames(res), "link saved budget"; got != want {
		t.Errorf("appeared %q, want %q: the reply was read before the page's own timer ran", got, want)
	}
}

// A page still changing at the bound is said to be.
func TestReplySaysStillChanging(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/settle.html")
	snap := snapshot(t, tab)
	ticker := mustRef(t, snap, "button", "Start ticker")
	start := time.Now()
	res, perr, code := act(t, "click", ticker)
	if code != 0 {
		t.Fatalf("click: exit %d %+v", code, perr)
	}
	if res.Settled == nil || *res.Settled {
		t.Errorf("settled = %v, want false: %+v", res.Settled != nil && *res.Settled, res)
	}
	if d := time.Since(start); d > 6*time.Second {
		t.Errorf("the reply took %v: the bound is a second or two", d)
	}
	if text := frames.ActionText("ok: click", res); !strings.Contains(text, "\nstill changing: ") {
		t.Errorf("the text reply does not say the page is still changing:\n%s", text)
	}
}

// A live page — one that has been changing without a pause since before
// the action, as a dashboard or a feed does — is never quiet: its reply is
// read after a beat, not at the bound, says the page is live and still
// changing, and tells the action's own change. The first action (the one
// that starts the ticker) is read at the bound: nothing watched the page
// before it.
func TestReplyOnALivePage(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/settle.html")
	snap := snapshot(t, tab)
	res, perr, code := act(t, "click", mustRef(t, snap, "button", "Start ticker"))
	if code != 0 {
		t.Fatalf("click: exit %d %+v", code, perr)
	}
	if res.Live {
		t.Fatalf("the click that started the ticker was read as live: nothing watched the page before it")
	}
	// Each reply on the live page is read after a beat: live and still
	// changing, or settled where the ticker missed a beat (a loaded
	// machine delays a 5 ms timer by more than the quiet period) — never
	// the bound's "still changing" of a page not known to be live.
	live := 0
	for i := 0; i < 3; i++ {
		res, perr, code = act(t, "click", mustRef(t, snap, "button", "Add a note"))
		if code != 0 {
			t.Fatalf("click: exit %d %+v", code, perr)
		}
		if res.Settled == nil || (!*res.Settled && !res.Live) {
			t.Errorf("click %d on the live page: settled %v live %v, want live or settled", i, res.Settled, res.Live)
		}
		if got := appearedNames(res); got != "link New note" {
			t.Errorf("click %d: appeared %q, want the new note", i, got)
		}
		if res.Live {
			live++
			if text := frames.ActionText("ok: click", res); !strings.Contains(text, "\nstill changing (it changes all the time): ") {
				t.Errorf("the text reply does not say the page is live:\n%s", text)
			}
		}
	}
	if live == 0 {
		t.Errorf("no reply on the live page was read as live")
	}
	// An agent that wants no settling says so, and the reply says nothing of it.
	res, perr, code = act(t, "click", mustRef(t, snap, "button", "Nothing"), "--no-settle")
	if code != 0 {
		t.Fatalf("click --no-settle: exit %d %+v", code, perr)
	}
	if res.Settled != nil {
		t.Errorf("click --no-settle: settled = %v, want no settling", *res.Settled)
	}
}

// BenchmarkSettleQuietPage: a click on a page that is already quiet, with
// the reply read after settling (ms-settled) and at once (ms-no-settle),
// through the socket as `grip mcp` calls; the difference is what settling
// costs a page that does not change.
func BenchmarkSettleQuietPage(b *testing.B) {
	browsertest.Need(b, env)
	tab := env.OpenTab(b, env.Origin1+"/settle.html")
	var snap protocol.Snapshot
	if code := env.GripJSON(b, &snap, "snapshot", "--tab", fmt.Sprint(tab)); code != 0 {
		b.Fatalf("snapshot: exit %d", code)
	}
	nothing := mustRefB(b, snap, "button", "Nothing")
	ctx := context.Background()
	c, err := client.Connect(ctx, client.Options{RuntimeDir: statedir.At(env.StateDir).Runtime, Wait: 10 * time.Second})
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	click := func(noSettle bool) float64 {
		start := time.Now()
		var res protocol.ActionResult
		if err := c.Call(ctx, protocol.OpAct, protocol.ActArgs{Action: "click", Target: nothing, NoSettle: noSettle}, &res); err != nil {
			b.Fatalf("click: %v", err)
		}
		if !noSettle && (res.Settled == nil || !*res.Settled) {
			b.Fatalf("a quiet page did not settle: %+v", res)
		}
		return float64(time.Since(start).Microseconds()) / 1000
	}
	click(false) // the first read of the page's frames
	var on, off []float64
	for b.Loop() {
		on = append(on, click(false))
		off = append(off, click(true))
	}
	b.ReportMetric(medianOf(on), "ms-settled")
	b.ReportMetric(medianOf(off), "ms-no-settle")
	b.ReportMetric(medianOf(on)-medianOf(off), "ms-settle-cost")
}

// In a tab behind the one in front, which draws no frames, an animation
// stands still: the note fading in says 400 ms left at every look. The
// reply waits that long once, as if it ran, and is read settled, not held
// to the bound and called still changing.
func TestReplyOnAPageThatDrawsNoFrames(t *testing.T) {
	browsertest.Need(t, env)
	url := env.Origin1 + "/settle.html?" + t.Name()
	tab := behindTab(t, url)
	snap := snapshot(t, tab)
	res, perr, code := act(t, "click", mustRef(t, snap, "button", "Fade in a note"))
	if code != 0 {
		t.Fatalf("click: exit %d %+v", code, perr)
	}
	if still := browsertest.Eval[bool](t, env, url, `document.visibilityState === 'hidden' && document.getAnimations().some((a) => a.playState === 'running')`); !still {
		t.Fatal("the fade is not running in a hidden page: this test proves nothing")
	}
	if got := appearedNames(res); got != "link Faded note" {
		t.Errorf("appeared %q, want the faded note", got)
	}
	if res.Settled == nil || !*res.Settled {
		t.Errorf("the reply says the page had not settled: it waited for an animation that does not advance")
	}
}
