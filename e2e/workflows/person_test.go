package workflows_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/target"
	"github.com/chromedp/chromedp"

	"github.com/grip-dev/grip/extension"
	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/manifest"
	"github.com/grip-dev/grip/policy"
	"github.com/grip-dev/grip/workflow"
)

// Recording by demonstration (docs/workflows.md, "Recorded
// workflows"), in a headed Chromium under Xvfb as a person uses it: an
// agent asks (grip record start FILE --person); the person accepts in the
// popup (opened as a 380 px window), creates a tiddler in TiddlyWiki with
// real input — the test's own DevTools connection sends the mouse and the
// keys (Input.dispatchMouseEvent, dispatchKeyEvent), which the page sees
// as trusted, as a person's — makes the title and the text parameters in
// the popup, and presses Done. The file is the agent's format; it replays
// in another browser profile with other values (the wiki saves the new
// tiddler), and stops where the wiki changed. With GRIP_SHOT_DIR set, the
// popup is saved as PNGs at each state, with a session's tabs, the pause,
// a question and a handoff.
func TestPersonShowsATaskInTiddlyWiki(t *testing.T) {
	w := startWiki(t)
	he := browsertest.StartHeaded(t, "the person's popup needs a headed browser", browsertest.Options{Fixtures: os.DirFS("."), Bin: env.Bin})
	tab := he.OpenTab(t, w.url)
	he.MustGrip(t, "wait", "--tab", fmt.Sprint(tab), "--text", "GettingStarted")

	popup := openPopupWindow(t, he, tab)
	shot := shooter(t, he, popup)
	file := filepath.Join(t.TempDir(), "new-tiddler.grip")

	// The person refuses, or is away: not_confirmed, and no file.
	refused := make(chan browsertest.Result, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		refused <- he.Grip(ctx, "record", "start", file, "--person", "--json")
	}()
	waitFor(t, he, popup, "the agent's request", `!document.getElementById('record-ask').hidden`)
	popupClick(t, he, popup, "#record-ask-refuse")
	if r := <-refused; r.Code == 0 || !strings.Contains(r.Stdout, `"not_confirmed"`) {
		t.Fatalf("a refused request: exit %d %s %s", r.Code, r.Stdout, r.Stderr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	r := he.Grip(ctx, "record", "start", file, "--person", "--timeout", "2s")
	cancel()
	if r.Code == 0 || !strings.Contains(r.Stderr, "not_confirmed") || !strings.Contains(r.Stderr, "did not show the task within 2s") {
		t.Fatalf("a request no one answered: exit %d %s %s", r.Code, r.Stdout, r.Stderr)
	}
	if _, err := os.Stat(file); err == nil {
		t.Fatal("a refused recording wrote its file")
	}
	waitFor(t, he, popup, "the request gone", `document.getElementById('record-ask').hidden`)
	done := make(chan browsertest.Result, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		done <- he.Grip(ctx, "record", "start", file, "--person", "--timeout", "2m")
	}()
	waitFor(t, he, popup, "the agent's request", `!document.getElementById('record-ask').hidden`)
	shot("1-an-agent-asks")
	popupClick(t, he, popup, "#record-ask-start")
	waitFor(t, he, popup, "the recording", `!document.getElementById('record-live').hidden`)

	// The person creates a tiddler, with their own mouse and keyboard.
	p := personOn(t, he, w.url)
	p.toFront()
	p.click(`[aria-label="new tiddler"]`)
	p.click(`input.tc-titlebar`)
	p.selectAll()
	p.typeText("Meeting notes")
	p.click(`textarea`)
	p.typeText("Agenda: the budget")
	p.click(`button[aria-label="ok"], button[title="Confirm changes to this tiddler"]`)
	if got := w.waitTiddler(t, "Meeting notes"); got != "Agenda: the budget" {
		t.Fatalf("the person's run saved %q", got)
	}
	waitFor(t, he, popup, "the four steps", `[...document.querySelectorAll('#record-steps .step')].map((e) => e.textContent).join('\n').includes("Clicked the button 'Confirm changes")`)

	// Both texts become parameters, renamed in the popup.
	for _, c := range []struct{ has, name string }{{"Meeting notes", "TITLE"}, {"Agenda", "BODY"}} {
		expr := fmt.Sprintf(`(() => { const li = [...document.querySelectorAll('#record-steps li')].find((l) => l.textContent.includes(%q)); li.querySelector('.param-box').click(); return true; })()`, c.has)
		browsertest.Eval[bool](t, he, popup, expr)
		waitFor(t, he, popup, "the parameter box", fmt.Sprintf(`[...document.querySelectorAll('#record-steps li')].some((l) => l.querySelector('.param-name') && !l.textContent.includes(%q) && l.querySelector('.param-name').value !== %q && !l.dataset.renamed)`, c.has, c.name))
		rename := fmt.Sprintf(`(() => { const li = [...document.querySelectorAll('#record-steps li')].find((l) => l.querySelector('.param-name') && !l.dataset.renamed && !['TITLE','BODY'].includes(l.querySelector('.param-name').value)); const i = li.querySelector('.param-name'); i.value = %q; i.dispatchEvent(new Event('change')); return true; })()`, c.name)
		browsertest.Eval[bool](t, he, popup, rename)
		waitFor(t, he, popup, c.name, fmt.Sprintf(`document.getElementById('record-steps').textContent.includes('{{%s}}')`, c.name))
	}
	shot("2-recording-steps")
	steps := browsertest.Eval[string](t, he, popup, `[...document.querySelectorAll('#record-steps .step')].map((e) => e.textContent).join('\n')`)
	t.Logf("the popup shows:\n%s", steps)
	popupClick(t, he, popup, "#record-done")
	var res browsertest.Result
	select {
	case res = <-done:
	case <-time.After(time.Minute):
		t.Fatal("grip record start --person did not end after Done")
	}
	if res.Code != 0 || !strings.Contains(res.Stdout, "wrote 4 steps to "+file) || !strings.Contains(res.Stdout, "TITLE, BODY") {
		t.Fatalf("grip record start --person: exit %d\n%s\n%s", res.Code, res.Stdout, res.Stderr)
	}
	waitFor(t, he, popup, "the note that it was sent", `document.getElementById('record-saved').textContent.includes('Sent 4 steps')`)
	shot("3-sent")
	text := readFile(t, file)
	t.Logf("the workflow the person showed:\n%s", text)
	if strings.Contains(text, "Meeting notes") || strings.Contains(text, "Agenda") {
		t.Fatalf("a parameter's value is in the workflow:\n%s", text)
	}
	origin := strings.TrimSuffix(w.url, "/")
	for _, want := range []string{
		"# grip workflow\n",
		"click button 'new tiddler' at " + origin,
		"fill textbox with '{{TITLE}}' at " + origin,
		"fill textbox 'Type the text for this tiddler' with '{{BODY}}' at " + origin,
		"click button 'Confirm changes to this tiddler' at " + origin,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the workflow lacks %q:\n%s", want, text)
		}
	}
	if w, err := workflow.Parse(strings.NewReader(text)); err != nil || len(w.Steps) != 4 {
		t.Fatalf("the file does not read back as 4 steps: %v", err)
	}

	// The person's popup with the rest of their controls, for a look.
	if os.Getenv("GRIP_SHOT_DIR") != "" {
		lookAtControls(t, he, popup, tab, shot)
	}
	personSignsIn(t, he, shot)

	// Replayed in another profile (the package's browser), with other
	// values, by a run with no model.
	rtab := fmt.Sprint(env.OpenTab(t, w.url))
	env.MustGrip(t, "wait", "--tab", rtab, "--text", "GettingStarted")
	out := env.MustGrip(t, "replay", file, "--tab", rtab, "--param", "TITLE=Weekly report", "--param", "BODY=Numbers are up")
	if !strings.Contains(out, "replayed 4 steps") {
		t.Fatalf("replay: %s", out)
	}
	if got := w.waitTiddler(t, "Weekly report"); got != "Numbers are up" {
		t.Fatalf("the replay saved %q", got)
	}

	// The wiki's owner hides the confirm button: the replay stops there,
	// as an agent's recording's does, and saves nothing.
	w.put(t, "$:/config/EditToolbarButtons/Visibility/$:/core/ui/Buttons/save", "hide")
	if out := env.MustGrip(t, "reload", "--tab", rtab); strings.Contains(out, "beforeunload") {
		env.MustGrip(t, "dialog", "accept", "--tab", rtab)
	}
	env.MustGrip(t, "wait", "--tab", rtab, "--text", "GettingStarted")
	var rr struct {
		Done     int
		Diverged *workflow.Divergence
		Error    struct{ Code string }
	}
	code := env.GripJSON(t, &rr, "replay", file, "--tab", rtab, "--param", "TITLE=Third", "--param", "BODY=never saved")
	if code != 1 || rr.Error.Code != "replay_diverged" || rr.Diverged == nil || rr.Diverged.Step != 4 || rr.Done != 3 {
		t.Fatalf("replay with the button hidden: exit %d, %+v", code, rr)
	}
	// What the wiki would save, it has (waitSynced): the replay's draft,
	// with the text it typed, and nothing more.
	w.waitSynced(t, env)
	if text, ok := w.draftText(t, "Third"); !ok || text != "never saved" {
		t.Fatalf("the server holds no draft of the replay's tiddler with its text (%v, %q)", ok, text)
	}
	if _, ok := w.tiddler(t, "Third"); ok {
		t.Fatal("the tiddler was saved although the replay stopped before confirming it")
	}
}

// personSignsIn: the person starts a recording themselves (Record what
// I do), types the sign-in page's address and signs in; a page script's click during it
// is no step (it is not trusted); the password never reaches the popup or
// the file, which Done saves in grip's output folder. It replays in a new
// tab with another password. On a site the policy blocks, nothing the
// person does is a step.
func personSignsIn(t *testing.T, he *browsertest.Env, shot func(string)) {
	login := he.Origin1 + "/testdata/login.html"
	welcome := he.Origin1 + "/testdata/welcome.html"
	tab := he.OpenTab(t, welcome)
	popup := openPopupWindow(t, he, tab)
	popupClick(t, he, popup, "#record-start")
	waitFor(t, he, popup, "the recording", `!document.getElementById('record-live').hidden`)
	// The person types the sign-in page's address.
	wctx, wcancel := he.TabContext(t, welcome)
	nctx, ncancel := context.WithTimeout(wctx, 20*time.Second)
	if _, err := chromedp.Call(nctx, page.Navigate, page.NavigateParams{URL: login, TransitionType: page.TransitionTypeTyped}); err != nil {
		t.Fatal(err)
	}
	ncancel()
	wcancel()
	waitFor(t, he, popup, "the typed address", `document.getElementById('record-steps').textContent.includes('Went to ')`)
	// In front, as the person sees it: the replay's tab was opened over
	// it, and in a tab behind another a list does not open.
	p := personOn(t, he, login)
	p.toFront()
	p.click(`input[name=email]`)
	p.typeText("ann@example.com")
	p.click(`input[name=password]`)
	p.typeText("hunter2-s3cret")
	// A list: opened with the mouse, chosen with the keys, as a person does.
	p.click(`select[name=branch]`)
	// The keys go to the list once it is open, as the person sees it
	// open: the click opens it a moment later, which the 300 ms the click
	// used to sleep stood in for.
	p.waitFor("the list open", `document.querySelector('select[name=branch]').matches(':open')`)
	p.press("ArrowDown", "ArrowDown", 40)
	p.press("Enter", "Enter", 13)
	browsertest.Eval[bool](t, he, login, `(() => { document.getElementById('help').click(); return true; })()`)
	waitFor(t, he, popup, "the two fields and the list", `document.querySelectorAll('#record-steps .step').length === 4`)
	shot("7-secret-field")
	p.click(`#go`)
	waitFor(t, he, popup, "the sign-in", `document.getElementById('record-steps').textContent.includes('welcome.html')`)
	steps := browsertest.Eval[string](t, he, popup, `document.getElementById('record-steps').textContent`)
	if strings.Contains(steps, "hunter2") || strings.Contains(steps, "Help") {
		t.Fatalf("the popup shows the password or the page's own click:\n%s", steps)
	}
	browsertest.Eval[bool](t, he, popup, `(() => { document.getElementById('record-name').value = 'signin.grip'; return true; })()`)
	popupClick(t, he, popup, "#record-done")
	waitFor(t, he, popup, "where it was saved", `document.getElementById('record-saved').textContent.includes('signin.grip')`)
	shot("8-saved")
	saved := browsertest.Eval[string](t, he, popup, `document.getElementById('record-saved').textContent`)
	dir := saved[strings.Index(saved, "grip's folder ")+len("grip's folder ") : strings.Index(saved, ". An agent")]
	path := filepath.Join(dir, "signin.grip")
	text := readFile(t, path)
	t.Logf("%s:\n%s", saved, text)
	origin := strings.TrimSuffix(he.Origin1, "/")
	for _, want := range []string{
		"navigate '" + login + "' then url '" + login + "'\n", // as an agent's navigate records it
		"fill textbox 'Email' with 'ann@example.com' at " + origin + "\n",
		"fill textbox 'Password' with '{{PASSWORD}}' at " + origin + "\n",
		"select combobox 'Branch' with 'South' at " + origin + "\n",
		"click button 'Sign in' at " + origin + " then url '" + origin + "/testdata/welcome.html'\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the workflow lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "hunter2") || strings.Contains(text, "Help") {
		t.Fatalf("the workflow holds the password or the page's own click:\n%s", text)
	}
	url := he.TabURL(t, tab)
	if got := browsertest.Eval[string](t, he, url, `sessionStorage.getItem('submitted')`); !strings.Contains(got, `"password":"hunter2-s3cret"`) {
		t.Fatalf("the person's sign-in sent %s", got)
	}
	// A new tab (the fixture's origin is this browser's own), another
	// password, no model.
	rtab := he.OpenTab(t, welcome)
	if out := he.MustGrip(t, "replay", path, "--tab", fmt.Sprint(rtab), "--param", "PASSWORD=pw-two"); !strings.Contains(out, "replayed 5 steps") {
		t.Fatalf("replay: %s", out)
	}
	rurl := he.TabURL(t, rtab)
	if got := browsertest.Eval[string](t, he, rurl, `sessionStorage.getItem('submitted')`); got != `{"email":"ann@example.com","password":"pw-two","branch":"south"}` {
		t.Fatalf("the replay sent %s", got)
	}

	// A site the policy blocks: what the person does there is no step.
	// (The replay's tab goes elsewhere first: the person's is then the
	// only one at welcome.html.)
	he.MustGrip(t, "navigate", "--tab", fmt.Sprint(rtab), he.Origin2+"/testdata/welcome.html")
	polPath := policy.Path(he.StateDir)
	old, err := os.ReadFile(polPath)
	if err != nil {
		t.Fatal(err)
	}
	savePolicy := func(text string) {
		tmp := polPath + ".tmp"
		if err := os.WriteFile(tmp, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, polPath); err != nil {
			t.Fatal(err)
		}
	}
	savePolicy("block 127.0.0.1\n")
	defer savePolicy(string(old))
	popupClick(t, he, popup, "#record-start")
	waitFor(t, he, popup, "the recording", `!document.getElementById('record-live').hidden`)
	// The person is back at their own tab, in front (the replay's tab
	// was opened over it): a tab behind another draws nothing and takes
	// no input, unless a debugger keeps it drawing, which grip stops
	// doing soon after its work is done.
	person := personOn(t, he, welcome)
	person.toFront()
	person.click(`a[href="statement.html"]`)
	other := he.Origin2 + "/testdata/login.html"
	sctx, scancel := he.TabContext(t, he.Origin1+"/testdata/statement.html")
	nctx2, ncancel2 := context.WithTimeout(sctx, 20*time.Second)
	if _, err := chromedp.Call(nctx2, page.Navigate, page.NavigateParams{URL: other, TransitionType: page.TransitionTypeTyped}); err != nil {
		t.Fatal(err)
	}
	ncancel2()
	scancel()
	q := personOn(t, he, other)
	q.click(`input[name=email]`)
	q.typeText("cy@example.com")
	waitFor(t, he, popup, "the step on the open site", `document.getElementById('record-steps').textContent.includes('cy@example.com')`)
	if got := browsertest.Eval[string](t, he, popup, `[...document.querySelectorAll('#record-steps .step')].map((e) => e.textContent).join('\n')`); strings.Contains(got, "Statement") || strings.Count(got, "\n") != 1 {
		t.Fatalf("with 127.0.0.1 blocked the popup shows:\n%s", got)
	}
	popupClick(t, he, popup, "#record-cancel")
}

// lookAtControls puts the popup in the person's other states and saves
// each: a session's tabs, the pause, a question (resume asks), a handoff.
func lookAtControls(t *testing.T, he *browsertest.Env, popup string, tab int, shot func(string)) {
	he.MustGrip(t, "--session", "notes", "snapshot", "--tab", fmt.Sprint(tab))
	he.MustGrip(t, "pause")
	waitFor(t, he, popup, "the pause", `document.getElementById('pause-state').textContent === 'agents paused'`)
	shot("4-paused-and-sessions")
	resumed := make(chan browsertest.Result, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		resumed <- he.Grip(ctx, "resume")
	}()
	waitFor(t, he, popup, "the question", `document.querySelector('#questions .question .allow') !== null`)
	shot("5-question")
	popupClick(t, he, popup, "#questions .question .allow")
	if r := <-resumed; r.Code != 0 {
		t.Errorf("grip resume: exit %d %s", r.Code, r.Stderr)
	}
	handed := make(chan browsertest.Result, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		handed <- he.Grip(ctx, "handoff", "solve the CAPTCHA, then press Done", "--tab", fmt.Sprint(tab))
	}()
	waitFor(t, he, popup, "the handoff", `document.querySelector('#questions .question.handoff .allow') !== null`)
	shot("6-handoff")
	popupClick(t, he, popup, "#questions .question.handoff .allow")
	if r := <-handed; r.Code != 0 {
		t.Errorf("grip handoff: exit %d %s", r.Code, r.Stderr)
	}
}

// openPopupWindow opens grip's popup for tab in a window of its own,
// 380 px wide as Chrome shows it, through the DevTools protocol (as the
// person opens it: agents cannot open grip's pages), then brings the tab's
// window back to the front.
func openPopupWindow(t *testing.T, he *browsertest.Env, tab int) string {
	t.Helper()
	id, err := manifest.ExtensionID(extension.ManifestJSON)
	if err != nil {
		t.Fatal(err)
	}
	url := fmt.Sprintf("chrome-extension://%s/popup/popup.html?tab=%d", id, tab)
	yes := true
	tid, err := chromedp.CallBrowser(he.BrowserContext(), target.CreateTarget, target.CreateTargetParams{URL: url, NewWindow: &yes, Width: 380, Height: 900})
	if err != nil {
		t.Fatal(err)
	}
	_ = tid
	return url
}

// shooter saves the popup as NAME.png in GRIP_SHOT_DIR (nothing when it
// is not set).
func shooter(t *testing.T, he *browsertest.Env, popup string) func(string) {
	dir := os.Getenv("GRIP_SHOT_DIR")
	return func(name string) {
		if dir == "" {
			return
		}
		time.Sleep(1200 * time.Millisecond) // the popup redraws each second: the last state, drawn
		ctx, cancel := he.TabContext(t, popup)
		defer cancel()
		// The popup's width, in this session (an override ends with the
		// session that set it).
		if _, err := chromedp.Call(ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{Width: 380, Height: 1100, DeviceScaleFactor: 1}); err != nil {
			t.Fatal(err)
		}
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Errorf("screenshot %s: %v", name, err)
			return
		}
		if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
			t.Error(err)
		}
	}
}

func waitFor(t *testing.T, he *browsertest.Env, url, what, expr string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !browsertest.Eval[bool](t, he, url, expr) {
		if time.Now().After(deadline) {
			body := browsertest.Eval[string](t, he, url, `document.body.innerText`)
			t.Fatalf("%s never showed; the page shows:\n%s", what, body)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func popupClick(t *testing.T, he *browsertest.Env, popup, sel string) {
	t.Helper()
	browsertest.Eval[bool](t, he, popup, fmt.Sprintf(`(() => { document.querySelector(%q).click(); return true; })()`, sel))
}

// thePerson sends a person's input to one page through the test's own
// DevTools connection: the page sees it as trusted.
type thePerson struct {
	t   *testing.T
	ctx context.Context
}

func personOn(t *testing.T, he *browsertest.Env, url string) *thePerson {
	ctx, cancel := he.TabContext(t, url)
	t.Cleanup(cancel)
	return &thePerson{t: t, ctx: ctx}
}

func (p *thePerson) ctxt() (context.Context, context.CancelFunc) {
	return context.WithTimeout(p.ctx, 20*time.Second)
}

func (p *thePerson) mouse(params input.DispatchMouseEventParams) {
	p.t.Helper()
	ctx, cancel := p.ctxt()
	defer cancel()
	if _, err := chromedp.Call(ctx, input.DispatchMouseEvent, params); err != nil {
		p.t.Fatal(err)
	}
}

func (p *thePerson) key(params input.DispatchKeyEventParams) {
	p.t.Helper()
	ctx, cancel := p.ctxt()
	defer cancel()
	if _, err := chromedp.Call(ctx, input.DispatchKeyEvent, params); err != nil {
		p.t.Fatal(err)
	}
}

type point struct {
	X, Y float64
	Hit  bool
}

// click clicks the middle of the first element sel finds, in the page or
// one of its same-origin frames, once it is there.
func (p *thePerson) click(sel string) {
	p.t.Helper()
	p.pressOn(sel, input.MouseButtonLeft)
}

// rightClick presses the secondary button there instead, as a person
// opens a page's own context menu.
func (p *thePerson) rightClick(sel string) {
	p.t.Helper()
	p.pressOn(sel, input.MouseButtonRight)
}

// pressOn presses button on the middle of the first element sel finds and
// releases it there.
func (p *thePerson) pressOn(sel string, button input.MouseButton) {
	p.t.Helper()
	held := int64(1)
	if button == input.MouseButtonRight {
		held = 2
	}
	// Scrolled into view, then read after the page has drawn twice (two
	// animation frames: the scroll and any layout it set off are on the
	// screen) if it is shown, where it slept 200 ms on the premise that
	// the page had drawn by then.
	find := fmt.Sprintf(`(async () => {
  const look = (doc, dx, dy) => {
    const el = doc.querySelector(%q);
    if (el) {
      el.scrollIntoView({block: 'center'});
      const r = el.getBoundingClientRect();
      const x = r.left + r.width / 2, y = r.top + r.height / 2;
      const at = doc.elementFromPoint(x, y);
      if (r.width > 0) return {x: dx + x, y: dy + y, hit: !!at && (at === el || el.contains(at) || (at.control === el))};
    }
    for (const f of doc.querySelectorAll('iframe')) {
      let d = null; try { d = f.contentDocument; } catch (_) {}
      if (!d) continue;
      const r = f.getBoundingClientRect();
      const got = look(d, dx + r.left, dy + r.top);
      if (got) return got;
    }
    return null;
  };
  if (!look(document, 0, 0)) return null;
  // A page in a tab behind another draws no frames (and runs no
  // animation frames): there the layout read is all there is.
  if (document.visibilityState === 'visible') await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  return look(document, 0, 0);
})()`, sel)
	eval := func() *point {
		ctx, cancel := p.ctxt()
		defer cancel()
		pt, err := chromedp.Run(ctx, chromedp.Evaluate[*point](find, chromedp.EvalAwaitPromise))
		if err != nil {
			p.t.Fatal(err)
		}
		return pt
	}
	deadline := time.Now().Add(15 * time.Second)
	for {
		if pt := eval(); pt != nil {
			// The element is at the point now, as a person sees it before
			// pressing: the debugging bar coming or going moves the page
			// (grip attaches only while it works), and a press computed
			// before the move misses.
			if pt = eval(); pt == nil || !pt.Hit {
				if time.Now().After(deadline) {
					p.t.Fatalf("%s is not under its own middle", sel)
				}
				continue
			}
			p.mouse(input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseMoved, X: pt.X, Y: pt.Y})
			p.mouse(input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMousePressed, X: pt.X, Y: pt.Y, Button: button, Buttons: held, ClickCount: 1})
			// Each event is answered once the page has run it, so the
			// click's own handlers (and the recorder's step) have run when
			// this returns; it slept 300 ms more, for nothing a caller
			// needs: what the click sets off later (a list that opens, a
			// page that loads) the caller waits for.
			p.mouse(input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseReleased, X: pt.X, Y: pt.Y, Button: button, ClickCount: 1})
			return
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("the person finds no %s", sel)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// toFront brings the person's tab to the front of its window, as a
// person does by choosing it.
func (p *thePerson) toFront() {
	p.t.Helper()
	ctx, cancel := p.ctxt()
	defer cancel()
	if _, err := chromedp.Call(ctx, page.BringToFront, cdp.Empty{}); err != nil {
		p.t.Fatal(err)
	}
}

// press presses and releases one key; each event is answered once the
// page (or the list it opened) has run it.
func (p *thePerson) press(key, code string, keyCode int64) {
	p.key(input.DispatchKeyEventParams{Type: input.DispatchKeyEventTypeRawKeyDown, Key: key, Code: code, WindowsVirtualKeyCode: keyCode})
	p.key(input.DispatchKeyEventParams{Type: input.DispatchKeyEventTypeKeyUp, Key: key, Code: code, WindowsVirtualKeyCode: keyCode})
}

func (p *thePerson) selectAll() {
	p.key(input.DispatchKeyEventParams{Type: input.DispatchKeyEventTypeRawKeyDown, Key: "a", Code: "KeyA", WindowsVirtualKeyCode: 65, Modifiers: 2, Commands: []string{"selectAll"}})
	p.key(input.DispatchKeyEventParams{Type: input.DispatchKeyEventTypeKeyUp, Key: "a", Code: "KeyA", WindowsVirtualKeyCode: 65, Modifiers: 2})
}

// typeText types s a key at a time, as a person does.
func (p *thePerson) typeText(s string) {
	ctx, cancel := p.ctxt()
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.KeyEvent(s)); err != nil {
		p.t.Fatal(err)
	}
	// The person pauses, past the recorder's typing debounce (TYPING_MS,
	// 600 ms, extension/kernel/listen.js): the product's own timer ends
	// what they typed as a step, as it does for a person. A pause is the
	// person's pace, no premise: their next click or focus change ends
	// the step too.
	time.Sleep(900 * time.Millisecond)
}
