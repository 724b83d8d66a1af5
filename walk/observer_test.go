package walk

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/grip-dev/grip/launcher"
)

const observedPage = `<!doctype html><title>observed</title>
<button id="b"><span>Go</span></button><p id="x">text</p>
<script>document.getElementById('b').onmousedown = () => {}</script>`

// The observer, in a real browser and without grip: it sees a press land
// on the span inside a button, judges the button the element the press
// stands for, and says the button is connected until the page removes it.
func TestObserverInABrowser(t *testing.T) {
	bin, err := launcher.Find("")
	if err != nil {
		if os.Getenv("GRIP_REQUIRE_BROWSER") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, observedPage) })}
	go srv.Serve(ln)
	defer srv.Close()
	profile := t.TempDir()
	logf, err := os.Create(profile + ".log")
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		logf.Close()
		if t.Failed() {
			b, _ := os.ReadFile(logf.Name())
			t.Logf("the browser's log:\n%s", b)
		}
		os.Remove(logf.Name())
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Second)
	defer cancel()
	proc, err := launcher.Start(ctx, launcher.Options{Path: bin, ProfileDir: profile, DebugPort: launcher.AnyDebugPort,
		URL: "http://" + ln.Addr().String() + "/", NoSandbox: true, Output: logf})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { proc.Stop(); <-proc.Done() }()
	port, err := launcher.DebugPortOf(ctx, profile, 60*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var pages []string
	for len(pages) == 0 && ctx.Err() == nil {
		// A browser that has just opened its port may refuse the first
		// handshake: connect again until it answers.
		bctx, bcancel := Browser(ctx, port)
		defer bcancel()
		infos, err := PageTargets(bctx)
		if err != nil {
			time.Sleep(200 * time.Millisecond)
			continue
		}
		for _, i := range infos {
			if strings.HasPrefix(i.URL, "http://"+ln.Addr().String()) {
				pages = append(pages, string(i.TargetID))
				o, err := Observe(bctx, i.TargetID)
				if err != nil {
					t.Fatal(err)
				}
				defer o.Close()
				observe(t, ctx, o)
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func observe(t *testing.T, ctx context.Context, o *Observer) {
	main := func(expr string) float64 {
		t.Helper()
		res, err := chromedp.Call(o.tab, runtime.Evaluate, runtime.EvaluateParams{Expression: expr, ReturnByValue: ptr(true)})
		if err != nil || res.ExceptionDetails != nil {
			t.Fatalf("%s: %v %v", expr, err, res.ExceptionDetails)
		}
		var f float64
		fmt.Sscan(string(res.Result.Value), &f)
		return f
	}
	// The target is listed before its page has loaded.
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if main(`document.querySelector('#b span') ? 1 : 0`) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the page never loaded")
		}
	}
	o.Cover()
	o.Drain(ctx)
	x := main(`(() => { const r = document.querySelector('#b span').getBoundingClientRect(); return r.x + r.width / 2; })()`)
	y := main(`(() => { const r = document.querySelector('#b span').getBoundingClientRect(); return r.y + r.height / 2; })()`)
	for _, typ := range []input.DispatchMouseEventType{input.DispatchMouseEventTypeMousePressed, input.DispatchMouseEventTypeMouseReleased} {
		if _, err := chromedp.Call(o.tab, input.DispatchMouseEvent, input.DispatchMouseEventParams{Type: typ, X: x, Y: y, Button: input.MouseButtonLeft, ClickCount: 1}); err != nil {
			t.Fatal(err)
		}
	}
	var press *Event
	events := o.Drain(ctx)
	for i, e := range events {
		if e.Type == "mousedown" {
			press = &events[i]
			break
		}
	}
	if press == nil {
		t.Fatalf("the observer saw no press: %+v", events)
	}
	if d := o.Describe(ctx, press.Node()); !strings.HasPrefix(d, "<span") {
		t.Errorf("the press landed on %s, not the span", d)
	}
	button, err := o.Element(ctx, press.Node(), "Go")
	if err != nil {
		t.Fatal(err)
	}
	if d := o.Describe(ctx, button); !strings.HasPrefix(d, "<button#b") {
		t.Errorf("the press stands for %s, not the button", d)
	}
	if !o.Within(ctx, press.Node(), button) || o.Within(ctx, button, press.Node()) {
		t.Error("the span is not within the button, or the button within the span")
	}
	if a := o.Alive(ctx, button); a != Connected {
		t.Fatalf("the button is %v", a)
	}
	// A change a timer set before the action makes (in an animation frame
	// it asked for, as jQuery fades) is the page's own doing (old); one a timer set after it makes, and one made outside
	// any timer, are the action's (caused).
	waitFor := func(what, expr string) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); main(expr) != 1; time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s never happened", what)
			}
		}
	}
	main(`window.__t1 = 0, setTimeout(() => requestAnimationFrame(() => { document.getElementById('x').textContent = 'hidden by an old timer'; window.__t1 = 1; }), 300), 0`)
	o.Begin(ctx)
	if said := o.Replied(ctx); len(said) != 0 {
		t.Errorf("said %+v with no live region changed", said)
	}
	waitFor("the old timer", `window.__t1`)
	if old, caused := o.Since(ctx); old == 0 || caused != 0 {
		t.Errorf("a change by a timer set before the action: old %d, caused %d; want old > 0, caused 0", old, caused)
	}
	o.Begin(ctx)
	main(`window.__t2 = 0, setTimeout(() => setTimeout(() => { document.getElementById('x').textContent = 'drawn by the action'; window.__t2 = 1; }, 50), 0), 0`)
	o.Replied(ctx)
	waitFor("the action's timer", `window.__t2`)
	if old, caused := o.Since(ctx); caused == 0 || old != 0 {
		t.Errorf("a change by a chain of timers the action set: old %d, caused %d; want caused > 0, old 0", old, caused)
	}
	owed := func(what string, want ...string) {
		t.Helper()
		var got []string
		for _, r := range o.Replied(ctx) {
			if s := Owed(r); s != "" {
				got = append(got, s)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: owed %q, want %q", what, got, want)
		}
	}
	// A live region put on the page with its text is drawn; a role=status
	// one is a toast, said; text put in one after it came (a later task)
	// is said.
	o.Begin(ctx)
	main(`(() => { const s = document.createElement('div'); s.setAttribute('aria-live', 'polite'); s.textContent = 'Drawn'; document.body.append(s); return 0; })()`)
	owed("a live region inserted with its text")
	o.Begin(ctx)
	main(`(() => { const s = document.createElement('div'); s.setAttribute('role', 'status'); s.textContent = 'Link copied'; document.body.append(s); return 0; })()`)
	owed("a toast: a status region inserted with its text", "link copied")
	o.Begin(ctx)
	main(`window.__t3 = 0, (() => { const s = document.createElement('div'); s.setAttribute('role', 'status'); document.body.append(s);
		setTimeout(() => { s.textContent = 'Saved  the page.'; window.__t3 = 1; }, 0); return 0; })()`)
	waitFor("the fill", `window.__t3`)
	owed("a status region filled after it came", "saved the page.")
	// DokuWiki's draft__status, named by its class and id, filled; its
	// tree's closed nodes, aria-live, given a class: no text changed.
	main(`(() => { document.body.insertAdjacentHTML('beforeend', '<div id="draft__status" class="draft__status"></div><ul><li class="closed" aria-live="assertive"><a href="#">wiki</a></li></ul>'); return 0; })()`)
	o.Begin(ctx)
	main(`(() => { document.getElementById('draft__status').textContent = 'Draft autosaved on 2026/12/02 14:58'; document.querySelector('li.closed a').className = 'selected'; return 0; })()`)
	owed("a named status and a tree node", "draft autosaved on 2026/12/02 14:58")
	// A clock changes on its own: what it changes to is not owed.
	main(`window.__ticks = 0, (() => { const c = document.createElement('span'); c.className = 'statusbar'; document.body.append(c);
		setInterval(() => { c.textContent = 'tick ' + (++window.__ticks); }, 100); return 0; })()`)
	waitFor("four ticks", `window.__ticks >= 4 ? 1 : 0`)
	o.Begin(ctx)
	main(`window.__at = window.__ticks, 0`)
	waitFor("a tick during the action", `window.__ticks > window.__at ? 1 : 0`)
	owed("a clock")
	main(`document.getElementById('b').remove(), 0`)
	if a := o.Alive(ctx, button); a != Disconnected {
		t.Fatalf("the removed button is %v", a)
	}
	main(`location.reload(), 0`)
	deadline := time.Now().Add(10 * time.Second)
	for o.Alive(ctx, button) != Unknown && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	if a := o.Alive(ctx, button); a != Unknown {
		t.Fatalf("a node of a document gone is %v", a)
	}
}

func ptr[T any](v T) *T { return &v }
