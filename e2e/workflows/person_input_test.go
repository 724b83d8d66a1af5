package workflows_test

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/dom"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/workflow"
)

// The person's other kinds of input, recorded as they make them
// (docs/workflows.md, "Recorded workflows"), in a headed Chromium under
// Xvfb: on an order desk (testdata/desk.html, which keeps its state in
// localStorage) the person drags a card onto another column's card
// (HTML5 drag and drop: the browser's own drag, which the test's DevTools
// connection intercepts and drops with Input.dispatchDragEvent, as a
// person's mouse would), ticks a checkbox by its label and a radio
// button, types a note and makes it a parameter in the popup, chooses a
// file in the file chooser (DOM.setFileInputFiles on the chooser Chrome
// opened), follows a link, goes back and forward (the browser's history,
// Page.navigateToHistoryEntry). The workflow replays in another profile
// with another note and another file; the desk's own state says it did
// the same. On a desk whose radio button was renamed, the replay stops
// there and does nothing after. With GRIP_SHOT_DIR set, the popup is
// saved at each state: idle, the steps, a parameter marked, saved.
func TestPersonRecordsDragCheckHistoryAndFile(t *testing.T) {
	browsertest.Need(t, env)
	desk := serveDesk(t)
	he := browsertest.StartHeaded(t, "the person's popup needs a headed browser", browsertest.Options{Fixtures: os.DirFS("."), Bin: env.Bin})
	tab := he.OpenTab(t, desk+"/desk.html")
	he.MustGrip(t, "wait", "--tab", fmt.Sprint(tab), "--text", "Invoice 7")
	popup := openPopupWindow(t, he, tab)
	shot := shooter(t, he, popup)
	waitFor(t, he, popup, "the record button", `!document.getElementById('record-idle').hidden`)
	shot("input-1-idle")
	popupClick(t, he, popup, "#record-start")
	waitFor(t, he, popup, "the recording", `!document.getElementById('record-live').hidden`)

	p := personOn(t, he, desk+"/desk.html")
	p.toFront()
	p.dragAndDrop(`[data-id=invoice]`, `[data-id=receipt]`)
	p.pointerDrag(`[data-prio=post]`, `[data-prio=call]`)
	waitFor(t, he, popup, "the pointer drag's step", `document.getElementById('record-steps').textContent.includes('Post the letter')`)
	p.click(`label:has(#gift)`)
	p.click(`#express`)
	p.click(`#note`)
	p.typeText("Leave at the door")
	mine := filepath.Join(t.TempDir(), "receipt-one.txt")
	if err := os.WriteFile(mine, []byte("paid 40 EUR"), 0o600); err != nil {
		t.Fatal(err)
	}
	p.chooseFile(`#receipt`, mine)
	// The desk reads the file after its change event: the person sees it
	// attached before leaving the page.
	p.waitFor("the attached file", `document.getElementById('attached').textContent === 'Attached receipt-one.txt'`)
	p.click(`a[href="desk-history.html"]`)
	waitFor(t, he, popup, "the link's step", `document.getElementById('record-steps').textContent.includes('desk-history.html')`)
	p.history(-1)
	waitFor(t, he, popup, "back", `[...document.querySelectorAll('#record-steps .step')].some((e) => e.textContent === 'Went back')`)
	p.history(+1)
	waitFor(t, he, popup, "forward", `[...document.querySelectorAll('#record-steps .step')].some((e) => e.textContent === 'Went forward')`)
	state := browsertest.Eval[string](t, he, desk+"/desk-history.html", `localStorage.getItem('desk')`)
	if want := `{"todo":["refund"],"done":["receipt","invoice"],"gift":true,"ship":"express","note":"Leave at the door","file":{"name":"receipt-one.txt","text":"paid 40 EUR"}}`; state != want {
		t.Fatalf("the person's own run left the desk as\n%s\nwant\n%s", state, want)
	}
	shot("input-2-steps")

	// The note becomes a parameter.
	browsertest.Eval[bool](t, he, popup, `(() => { const li = [...document.querySelectorAll('#record-steps li')].find((l) => l.textContent.includes('Leave at the door')); li.querySelector('.param-box').click(); return true; })()`)
	waitFor(t, he, popup, "the parameter", `document.getElementById('record-steps').textContent.includes('{{NOTE_FOR_THE_COURIER}}')`)
	browsertest.Eval[bool](t, he, popup, `(() => { const i = document.querySelector('#record-steps .param-name'); i.value = 'NOTE'; i.dispatchEvent(new Event('change')); return true; })()`)
	waitFor(t, he, popup, "the renamed parameter", `document.getElementById('record-steps').textContent.includes('{{NOTE}}')`)
	shot("input-3-parameter")
	steps := browsertest.Eval[string](t, he, popup, `[...document.querySelectorAll('#record-steps .step')].map((e) => e.textContent).join('\n')`)
	t.Logf("the popup shows:\n%s", steps)
	// In the person's words, not the file's.
	if want := strings.Join([]string{
		"Dragged 'Invoice 7' onto 'Receipt 3'",
		"Dragged 'Post the letter' onto 'Call the bank'",
		"Ticked 'Gift wrap'",
		"Chose 'Express'",
		"Typed {{NOTE}} into the field 'Note for the courier'",
		"Chose a file for 'Receipt' (your file is not saved: asked for at each replay)",
		"Clicked the link 'Order history', which opened /desk-history.html",
		"Went back",
		"Went forward",
	}, "\n"); steps != want {
		t.Errorf("the popup's steps read\n%s\nwant\n%s", steps, want)
	}

	browsertest.Eval[bool](t, he, popup, `(() => { document.getElementById('record-name').value = 'desk.grip'; return true; })()`)
	popupClick(t, he, popup, "#record-done")
	waitFor(t, he, popup, "where it was saved", `document.getElementById('record-saved').textContent.includes('desk.grip')`)
	shot("input-4-saved")
	saved := browsertest.Eval[string](t, he, popup, `document.getElementById('record-saved').textContent`)
	dir := saved[strings.Index(saved, "grip's folder ")+len("grip's folder ") : strings.Index(saved, ". An agent")]
	text := readFile(t, filepath.Join(dir, "desk.grip"))
	t.Logf("the workflow the person showed:\n%s", text)
	if strings.Contains(text, "receipt-one") || strings.Contains(text, mine) || strings.Contains(text, "Leave at the door") {
		t.Fatalf("the workflow holds the person's file or note:\n%s", text)
	}
	origin := strings.TrimSuffix(desk, "/")
	for _, want := range []string{
		"drag clickable 'Invoice 7' to clickable 'Receipt 3' at " + origin + "\n",
		"drag clickable 'Post the letter' to clickable 'Call the bank' at " + origin + "\n",
		"check checkbox 'Gift wrap' at " + origin + "\n",
		"check radio 'Express' at " + origin + "\n",
		"fill textbox 'Note for the courier' with '{{NOTE}}' at " + origin + "\n",
		" 'Receipt' with '{{RECEIPT}}' at " + origin + "\n",
		"click link 'Order history' at " + origin + " then url '" + origin + "/desk-history.html'\n",
		"\nback then url '" + origin + "/desk.html'\n",
		"\nforward then url '" + origin + "/desk-history.html'\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the workflow lacks %q:\n%s", want, text)
		}
	}
	w, err := workflow.Parse(strings.NewReader(text))
	if err != nil || len(w.Steps) != 9 {
		t.Fatalf("the file does not read back as 9 steps: %v\n%s", err, text)
	}

	// Replayed in another profile, with another note and file, by a run
	// with no model; the desk's storage says what it did.
	theirs := filepath.Join(t.TempDir(), "receipt-two.txt")
	if err := os.WriteFile(theirs, []byte("paid 55 EUR"), 0o600); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "desk.grip")
	rtab := fmt.Sprint(env.OpenTab(t, desk+"/desk.html"))
	env.MustGrip(t, "wait", "--tab", rtab, "--text", "Invoice 7")
	if out := env.MustGrip(t, "replay", file, "--tab", rtab, "--param", "NOTE=Ring twice", "--param", "RECEIPT="+theirs); !strings.Contains(out, "replayed 9 steps") {
		t.Fatalf("replay: %s", out)
	}
	if got := env.TabURL(t, mustAtoi(t, rtab)); got != desk+"/desk-history.html" {
		t.Errorf("the replay ended at %s", got)
	}
	state = browsertest.Eval[string](t, env, desk+"/desk-history.html", `localStorage.getItem('desk')`)
	if want := `{"todo":["refund"],"done":["receipt","invoice"],"gift":true,"ship":"express","note":"Ring twice","file":{"name":"receipt-two.txt","text":"paid 55 EUR"}}`; state != want {
		t.Fatalf("the replay left the desk as\n%s\nwant\n%s", state, want)
	}
	if got := browsertest.Eval[string](t, env, desk+"/desk-history.html", `localStorage.getItem('order')`); got != `["post","call","pack"]` {
		t.Errorf("the replay's pointer drag left the priorities %s, want post, call, pack", got)
	}
	if got := browsertest.Eval[string](t, env, desk+"/desk-history.html", `sessionStorage.getItem('shown')`); got != `["desk","history","desk","history"]` {
		t.Errorf("the replay's tab showed %s, want desk, history, back to desk, forward to history", got)
	}

	// The desk renamed its Express option: the replay stops at that step,
	// as an agent's recording's does, with nothing after it done.
	browsertest.Eval[bool](t, env, desk+"/desk-history.html", `(() => { localStorage.removeItem('desk'); localStorage.removeItem('order'); localStorage.setItem('variant', 'renamed'); return true; })()`)
	env.MustGrip(t, "navigate", "--tab", rtab, desk+"/desk.html")
	env.MustGrip(t, "wait", "--tab", rtab, "--text", "Next-day")
	var rr struct {
		Done     int
		Diverged *workflow.Divergence
		Error    struct{ Code string }
	}
	code := env.GripJSON(t, &rr, "replay", file, "--tab", rtab, "--param", "NOTE=never typed", "--param", "RECEIPT="+theirs)
	if code != 1 || rr.Error.Code != "replay_diverged" || rr.Diverged == nil || rr.Diverged.Step != 4 || rr.Done != 3 {
		t.Fatalf("replay on the renamed desk: exit %d, %+v", code, rr)
	}
	state = browsertest.Eval[string](t, env, desk+"/desk.html", `localStorage.getItem('desk')`)
	if want := `{"todo":["refund"],"done":["receipt","invoice"],"gift":true,"ship":"standard","note":"","file":null}`; state != want {
		t.Fatalf("after the diverged replay the desk is\n%s\nwant\n%s", state, want)
	}
}

// serveDesk serves testdata on 127.0.0.1 at a port of its own, so both
// browsers (the person's and the replay's) reach the desk at one origin.
func serveDesk(t *testing.T) string {
	t.Helper()
	return serveDir(t, "testdata")
}

// serveDir serves dir's files on a loopback port of its own.
func serveDir(t *testing.T, dir string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.FileServer(http.Dir(dir))}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return "http://" + ln.Addr().String()
}

// middle is the middle of the first element sel finds, scrolled into view.
func (p *thePerson) middle(sel string) point {
	p.t.Helper()
	ctx, cancel := p.ctxt()
	defer cancel()
	pt, err := chromedp.Run(ctx, chromedp.Evaluate[*point](fmt.Sprintf(`(() => {
  const el = document.querySelector(%q);
  if (!el) return null;
  el.scrollIntoView({block: 'center'});
  const r = el.getBoundingClientRect();
  return {x: r.left + r.width / 2, y: r.top + r.height / 2, hit: true};
})()`, sel)))
	if err != nil || pt == nil {
		p.t.Fatalf("the person finds no %s: %v", sel, err)
	}
	return *pt
}

// dragAndDrop drags from the element from to the element to as a mouse
// does: pressed, moved until the browser starts its drag (dragstart in the
// page), which the test takes over (Input.setInterceptDrags: a headed
// browser would otherwise wait for the window system's drag) and drops
// over to with the browser's own drag events. It returns once the drop
// has reached the page: its listeners (the page's, which redraws the
// columns, and the recorder's, which sends the step) have run. It used to
// sleep 300 ms instead, on the premise that the drop had been handled by
// then: Input.dispatchDragEvent returns when the browser has sent the
// drop on, not when the page has run it.
func (p *thePerson) dragAndDrop(from, to string) {
	p.t.Helper()
	a, b := p.middle(from), p.middle(to)
	ctx, cancel := p.ctxt()
	defer cancel()
	// A listener on the window, bubbling: it runs after the drop
	// target's own (the event's path is fixed when it is sent, so the
	// card the page removes while it redraws still passes it on).
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`(window.__personDropped = new Promise((resolve) => addEventListener('drop', () => resolve(true), {once: true})), true)`)); err != nil {
		p.t.Fatal(err)
	}
	got := make(chan *input.DragData, 1)
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*input.EventDragIntercepted); ok {
			select {
			case got <- e.Data:
			default:
			}
		}
	}); err != nil {
		p.t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, input.SetInterceptDrags, input.SetInterceptDragsParams{Enabled: true}); err != nil {
		p.t.Fatal(err)
	}
	defer chromedp.Call(ctx, input.SetInterceptDrags, input.SetInterceptDragsParams{Enabled: false})
	p.mouse(input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseMoved, X: a.X, Y: a.Y})
	p.mouse(input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMousePressed, X: a.X, Y: a.Y, Button: input.MouseButtonLeft, Buttons: 1, ClickCount: 1})
	var data *input.DragData
	for i := 1; data == nil; i++ {
		if i > 40 {
			p.t.Fatalf("dragging %s started no drag", from)
		}
		f := float64(min(i, 10)) / 10
		p.mouse(input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseMoved, X: a.X + (b.X-a.X)*f, Y: a.Y + (b.Y-a.Y)*f, Button: input.MouseButtonLeft, Buttons: 1})
		select {
		case data = <-got:
		case <-time.After(50 * time.Millisecond):
		}
	}
	for _, typ := range []input.DispatchDragEventType{input.DispatchDragEventTypeDragEnter, input.DispatchDragEventTypeDragOver, input.DispatchDragEventTypeDrop} {
		if _, err := chromedp.Call(ctx, input.DispatchDragEvent, input.DispatchDragEventParams{Type: typ, X: b.X, Y: b.Y, Data: data}); err != nil {
			p.t.Fatal(err)
		}
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.__personDropped`, chromedp.EvalAwaitPromise)); err != nil {
		p.t.Fatalf("the drop of %s onto %s never reached the page: %v", from, to, err)
	}
	p.mouse(input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseReleased, X: b.X, Y: b.Y, Button: input.MouseButtonLeft, ClickCount: 1})
}

// pointerDrag presses on from, moves the mouse over to in steps, and
// releases there: a drag of pointer events alone, as a list that reorders
// by pointer (with pointer capture) takes it. The press and each move are
// trusted input; the release lands on to.
func (p *thePerson) pointerDrag(from, to string) {
	p.t.Helper()
	a, b := p.middle(from), p.middle(to)
	p.mouse(input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseMoved, X: a.X, Y: a.Y})
	p.mouse(input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMousePressed, X: a.X, Y: a.Y, Button: input.MouseButtonLeft, Buttons: 1, ClickCount: 1})
	for i := 1; i <= 10; i++ {
		f := float64(i) / 10
		p.mouse(input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseMoved, X: a.X + (b.X-a.X)*f, Y: a.Y + (b.Y-a.Y)*f, Button: input.MouseButtonLeft, Buttons: 1})
	}
	p.mouse(input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseReleased, X: b.X, Y: b.Y, Button: input.MouseButtonLeft, ClickCount: 1})
}

// chooseFile clicks the file field sel, as a person does, and picks path
// in the chooser Chrome opens (intercepted: Xvfb has no dialog to pick in).
// It returns once the field's change event has run (the recorder's step is
// sent in it), where it slept 300 ms on the premise that the chooser's
// answer had reached the page by then: DOM.setFileInputFiles returns
// before the page is told. What the page does with the file afterwards
// (the desk reads it) the caller waits for.
func (p *thePerson) chooseFile(sel, path string) {
	p.t.Helper()
	ctx, cancel := p.ctxt()
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](fmt.Sprintf(`(window.__personChose = new Promise((resolve) => document.querySelector(%q).addEventListener('change', () => resolve(true), {once: true})), true)`, sel))); err != nil {
		p.t.Fatal(err)
	}
	opened := make(chan cdp.BackendNodeID, 1)
	if err := chromedp.Listen(ctx, func(ev any) {
		if e, ok := ev.(*page.EventFileChooserOpened); ok {
			select {
			case opened <- e.BackendNodeID:
			default:
			}
		}
	}); err != nil {
		p.t.Fatal(err)
	}
	if _, err := chromedp.Call(ctx, page.SetInterceptFileChooserDialog, page.SetInterceptFileChooserDialogParams{Enabled: true}); err != nil {
		p.t.Fatal(err)
	}
	defer chromedp.Call(ctx, page.SetInterceptFileChooserDialog, page.SetInterceptFileChooserDialogParams{Enabled: false})
	p.click(sel)
	select {
	case id := <-opened:
		if _, err := chromedp.Call(ctx, dom.SetFileInputFiles, dom.SetFileInputFilesParams{Files: []string{path}, BackendNodeID: id}); err != nil {
			p.t.Fatal(err)
		}
	case <-ctx.Done():
		p.t.Fatalf("clicking %s opened no file chooser", sel)
	}
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`window.__personChose`, chromedp.EvalAwaitPromise)); err != nil {
		p.t.Fatalf("the file chosen for %s never reached the page: %v", sel, err)
	}
}

// waitFor waits until expr is true in the person's page, as a person
// looks before going on.
func (p *thePerson) waitFor(what, expr string) {
	p.t.Helper()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		ctx, cancel := p.ctxt()
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		cancel()
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("the person's page never showed %s (%v)", what, err)
		}
	}
}

// history goes back (-1) or forward (+1) in the tab's history, as the
// browser's buttons do.
func (p *thePerson) history(delta int) {
	p.t.Helper()
	ctx, cancel := p.ctxt()
	defer cancel()
	h, err := chromedp.Call(ctx, page.GetNavigationHistory, cdp.Empty{})
	if err != nil {
		p.t.Fatal(err)
	}
	entries := h.Entries
	i := int(h.CurrentIndex) + delta
	if i < 0 || i >= len(entries) {
		p.t.Fatalf("no history entry %d of %d", i, len(entries))
	}
	want := entries[i].URL
	if _, err := chromedp.Call(ctx, page.NavigateToHistoryEntry, page.NavigateToHistoryEntryParams{EntryID: entries[i].ID}); err != nil {
		p.t.Fatal(err)
	}
	// Until the page is shown, loaded, as a person waits for it: where it
	// slept 300 ms more after the address changed, on the premise that the
	// page had loaded by then.
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if url, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.readyState === 'complete' ? location.href : ''`)); err == nil && url == want {
			break
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("history %+d did not reach %s", delta, want)
		}
	}
}
