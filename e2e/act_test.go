package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/protocol"
)

// act runs a grip action with --json; it returns the reply and exit code.
func act(t *testing.T, args ...string) (protocol.ActionResult, *protocol.Error, int) {
	t.Helper()
	var out struct {
		protocol.ActionResult
		Error *protocol.Error `json:"error"`
	}
	code := env.GripJSON(t, &out, args...)
	return out.ActionResult, out.Error, code
}

func pageLog(t *testing.T, tab int) []string {
	t.Helper()
	return browsertest.Eval[[]string](t, env, env.TabURL(t, tab), "window.__log")
}

func openAct(t *testing.T) (int, protocol.Snapshot) {
	t.Helper()
	tab := env.OpenTab(t, env.Origin1+"/act.html?card="+env.Origin2)
	deadline := time.Now().Add(10 * time.Second)
	for {
		snap := snapshot(t, tab)
		if refOf(snap, "textbox", "Card number") != "" {
			return tab, snap
		}
		if time.Now().After(deadline) {
			t.Fatalf("card frame never loaded:\n%s", snap.Text)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestClickHitsExactlyThatElement(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openAct(t)
	beta := mustRef(t, snap, "button", "Beta")
	res, perr, code := act(t, "click", beta)
	if code != 0 {
		t.Fatalf("click %s: exit %d %+v", beta, code, perr)
	}
	if !res.OK || res.Tab.ID != tab {
		t.Errorf("reply %+v", res)
	}
	if got := pageLog(t, tab); strings.Join(got, ",") != "b" {
		t.Fatalf("page log = %v, want [b]", got)
	}
}

func TestStaleRefRefusedNothingClicked(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openAct(t)
	alpha := mustRef(t, snap, "button", "Alpha")
	pageEval(t, tab, "document.getElementById('a').remove()")
	_, perr, code := act(t, "click", alpha)
	if code != 1 || perr == nil || perr.Code != protocol.CodeStaleRef {
		t.Fatalf("click removed %s: exit %d err %+v, want stale_ref", alpha, code, perr)
	}
	if !strings.Contains(perr.Hint, "snapshot") {
		t.Errorf("hint does not say what to do: %+v", perr)
	}
	if got := pageLog(t, tab); len(got) != 0 {
		t.Fatalf("something was clicked: %v", got)
	}
	// A new snapshot makes the ref stale at the host too: refused without
	// reaching the page, still stale_ref.
	snapshot(t, tab)
	_, perr, _ = act(t, "click", alpha)
	if perr == nil || perr.Code != protocol.CodeStaleRef || perr.Boundary != protocol.BoundaryRef {
		t.Fatalf("after a new snapshot: %+v, want stale_ref at the ref boundary", perr)
	}
}

func TestMeaningChangedRefused(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openAct(t)
	gamma := mustRef(t, snap, "button", "Gamma")
	pageEval(t, tab, "document.getElementById('c').textContent = 'Delete account'")
	_, perr, code := act(t, "click", gamma)
	if code != 1 || perr == nil || perr.Code != protocol.CodeMeaningChanged || perr.Boundary != protocol.BoundaryMeaning {
		t.Fatalf("click renamed %s: exit %d err %+v, want meaning_changed", gamma, code, perr)
	}
	if !strings.Contains(perr.Message, "Gamma") || !strings.Contains(perr.Message, "Delete account") {
		t.Errorf("message does not say what changed: %s", perr.Message)
	}
	if got := pageLog(t, tab); len(got) != 0 {
		t.Fatalf("something was clicked: %v", got)
	}
}

func TestOccludedRefusedNamingTheOverlay(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openAct(t)
	alpha := mustRef(t, snap, "button", "Alpha")
	pageEval(t, tab, "showOverlay()")
	_, perr, code := act(t, "click", alpha)
	if code != 1 || perr == nil || perr.Code != protocol.CodeNotActionable {
		t.Fatalf("click under overlay: exit %d err %+v", code, perr)
	}
	if !strings.Contains(perr.Message, "occluded by") || !strings.Contains(perr.Message, "Accept cookies") {
		t.Errorf("refusal does not name the overlay: %s", perr.Message)
	}
	if got := pageLog(t, tab); len(got) != 0 {
		t.Fatalf("something was clicked: %v", got)
	}
}

func TestFillInCrossOriginFrame(t *testing.T) {
	browsertest.Need(t, env)
	_, snap := openAct(t)
	num := mustRef(t, snap, "textbox", "Card number")
	if _, perr, code := act(t, "fill", num, "4242 4242 4242 4242"); code != 0 {
		t.Fatalf("fill: %+v", perr)
	}
	got := browsertest.Eval[string](t, env, env.Origin2+"/card.html", "document.getElementById('num').value")
	if got != "4242 4242 4242 4242" {
		t.Fatalf("card field = %q", got)
	}
	// The snapshot lists the field but never its value: autocomplete
	// cc-number marks it as a secret.
	after := snapshot(t, snap.Tab.ID)
	if !strings.Contains(after.Text, num+": [textbox 'Card number' filled]") || shows(after.Text, "4242") {
		t.Errorf("snapshot after fill:\n%s", after.Text)
	}
}

// A CSS chain's action runs in the document its lookup found: when the
// frame navigates between the lookup and the action, the action fails
// rather than typing into the frame's new document.
func TestChainActionPinnedToItsDocument(t *testing.T) {
	browsertest.Need(t, env)
	tab, _ := openAct(t)
	// Between lookup and action, navigate the card frame to a new document
	// (same selector inside) and wait until it has committed.
	browsertest.EvalWorker[bool](t, env, `(() => {
		globalThis.__gripAfterChainLookup = async (tabId, frameId) => {
			delete globalThis.__gripAfterChainLookup;
			const before = (await chrome.webNavigation.getFrame({ tabId, frameId })).documentId;
			await chrome.scripting.executeScript({ target: { tabId, frameIds: [frameId] }, func: () => { location.replace(location.pathname + '?v=2'); } });
			for (let i = 0; i < 200; i++) {
				const f = await chrome.webNavigation.getFrame({ tabId, frameId }).catch(() => null);
				if (f && f.documentId && f.documentId !== before && f.url.includes('v=2')) return;
				await new Promise((r) => setTimeout(r, 20));
			}
			throw new Error('the frame did not navigate');
		};
		return true;
	})()`)
	t.Cleanup(func() { browsertest.EvalWorker[bool](t, env, `(delete globalThis.__gripAfterChainLookup, true)`) })
	_, perr, code := act(t, "type", "iframe#card >>> #cvc", "999", "--tab", fmt.Sprint(tab))
	if code == 0 || perr == nil || perr.Code != protocol.CodeDocumentChanged {
		t.Fatalf("type through a chain whose frame navigated: exit %d %+v, want document_changed", code, perr)
	}
	if got := browsertest.Eval[string](t, env, env.Origin2+"/card.html?v=2", "document.getElementById('cvc').value"); got != "" {
		t.Errorf("the text landed in the frame's new document: %q", got)
	}
}

func TestControlledInputKeepsTypedValue(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openAct(t)
	name := mustRef(t, snap, "textbox", "Name")
	if _, perr, code := act(t, "fill", name, "Ada"); code != 0 {
		t.Fatalf("fill: %+v", perr)
	}
	if _, perr, code := act(t, "type", name, " Lovelace"); code != 0 {
		t.Fatalf("type: %+v", perr)
	}
	if got := browsertest.Eval[string](t, env, env.TabURL(t, tab), "reactState()"); got != "Ada Lovelace" {
		t.Fatalf("controlled input state = %q, want %q", got, "Ada Lovelace")
	}
}

func TestSelectByLabelAndValue(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openAct(t)
	fruit := mustRef(t, snap, "combobox", "Fruit")
	if _, perr, code := act(t, "select", fruit, "Banana"); code != 0 {
		t.Fatalf("select by label: %+v", perr)
	}
	if _, perr, code := act(t, "select", fruit, "ch"); code != 0 {
		t.Fatalf("select by value: %+v", perr)
	}
	if got := strings.Join(pageLog(t, tab), ","); got != "change:ba,change:ch" {
		t.Fatalf("change events = %s", got)
	}
	_, perr, code := act(t, "select", fruit, "Durian")
	if code != 1 || perr == nil || !strings.Contains(perr.Message, "Apple") {
		t.Errorf("select of a missing option: exit %d %+v (should list the options)", code, perr)
	}
}

// A custom select's popup that is shown but not yet drawn at any size
// when grip first looks (Slim Select grows its list from scaleY(0); on a
// loaded machine CI's widgets suite found it at no size once) is looked at
// again until it can be clicked, not refused as having no size.
func TestSelectWaitsForAnOpeningPopup(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/opening-select.html")
	box := mustRef(t, snapshot(t, tab), "combobox", "Time slot")
	res, perr, code := act(t, "select", box, "Evening (17–21)")
	if code != 0 {
		t.Fatalf("select: exit %d %+v", code, perr)
	}
	if got := browsertest.Eval[string](t, env, env.TabURL(t, tab), "document.getElementById('box').textContent"); got != "Evening (17–21)" {
		t.Errorf("the select shows %q after %+v", got, res)
	}
}

func TestCheckIsIdempotent(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openAct(t)
	agree := mustRef(t, snap, "checkbox", "I agree")
	for i := 0; i < 2; i++ {
		if _, perr, code := act(t, "check", agree); code != 0 {
			t.Fatalf("check #%d: %+v", i, perr)
		}
	}
	if !browsertest.Eval[bool](t, env, env.TabURL(t, tab), "document.getElementById('agree').checked") {
		t.Fatal("not checked")
	}
	if _, perr, code := act(t, "uncheck", agree); code != 0 {
		t.Fatalf("uncheck: %+v", perr)
	}
	if browsertest.Eval[bool](t, env, env.TabURL(t, tab), "document.getElementById('agree').checked") {
		t.Fatal("still checked")
	}
}

func TestPressEnterSubmits(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openAct(t)
	q := mustRef(t, snap, "textbox", "Query")
	if _, perr, code := act(t, "fill", q, "grip"); code != 0 {
		t.Fatalf("fill: %+v", perr)
	}
	if _, perr, code := act(t, "press", "Enter", q); code != 0 {
		t.Fatalf("press: %+v", perr)
	}
	// requestSubmit's submit event is the browser's own, hence trusted.
	if got := strings.Join(pageLog(t, tab), ","); got != "submit" && got != "submit:trusted" {
		t.Fatalf("log = %s, want one submit", got)
	}
}

// TestPressKeyAliasesReachThePage: the host alone reads the agent's key
// (aliases, modifier names, any case; protocol/keys.go) and the page gets
// the canonical key, synthetic or trusted: super+a selects all like
// Control+A would not on Linux, so Meta is checked on the event itself.
func TestPressKeyAliasesReachThePage(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openAct(t)
	q := mustRef(t, snap, "textbox", "Query")
	if _, perr, code := act(t, "fill", q, "grip"); code != 0 {
		t.Fatalf("fill: %+v", perr)
	}
	browsertest.Eval[bool](t, env, env.TabURL(t, tab), `(document.getElementById('q').addEventListener('keydown', (e) =>
		window.__log.push([e.key, e.code, e.keyCode, e.ctrlKey, e.metaKey, e.shiftKey, e.isTrusted].join('/'))), true)`)
	for _, c := range []struct {
		key     string
		trusted bool
		want    string
	}{
		{"esc", false, "Escape/Escape/27/false/false/false/false"},
		{"ESC", true, "Escape/Escape/27/false/false/false/true"},
		{"ctrl+a", false, "a/KeyA/65/true/false/false/false"},
		{"super+shift+Return", false, "Enter/Enter/13/false/true/true/false"},
		{"cmd+Spacebar", true, " /Space/32/false/true/false/true"},
	} {
		args := []string{"press", c.key, q}
		if c.trusted {
			args = append(args, "--trusted")
		}
		if _, perr, code := act(t, args...); code != 0 {
			t.Fatalf("press %s: %+v", c.key, perr)
		}
		log := pageLog(t, tab)
		if len(log) == 0 || log[len(log)-1] != c.want {
			t.Errorf("press %s (trusted %v): keydown %v, want %s", c.key, c.trusted, log, c.want)
		}
	}
	if _, perr, code := act(t, "press", "hyper+a", q); code != 1 || perr == nil || perr.Code != protocol.CodeBadRequest || perr.Boundary != protocol.BoundaryPayload {
		t.Errorf("press hyper+a: exit %d %+v, want bad_request at the payload boundary", code, perr)
	}
}

func TestTrustedClick(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openAct(t)
	beta := mustRef(t, snap, "button", "Beta")
	if _, perr, code := act(t, "click", beta, "--trusted"); code != 0 {
		t.Fatalf("trusted click: %+v", perr)
	}
	if got := strings.Join(pageLog(t, tab), ","); got != "b:trusted" {
		t.Fatalf("log = %s, want b:trusted (isTrusted === true)", got)
	}
}

func TestChainWithRefRefusedBeforeBrowser(t *testing.T) {
	browsertest.Need(t, env)
	for _, loc := range []string{"@e1 >>> #inner", "#frame >>>", ">>> a", "a >>> >>> b", "@e0", "@e01", "@ex", "e5"} {
		_, perr, code := act(t, "click", loc)
		if code != 1 || perr == nil || perr.Code != protocol.CodeInvalidLocator || perr.Boundary != protocol.BoundaryPayload {
			t.Errorf("click %q: exit %d %+v, want invalid_locator at the payload boundary", loc, code, perr)
		}
	}
}

func TestChangesReported(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openAct(t)
	alpha := mustRef(t, snap, "button", "Alpha")
	// A click whose handler removes Beta and adds a new button.
	pageEval(t, tab, `document.getElementById('a').onclick = () => {
		document.getElementById('b').remove();
		const n = document.createElement('button'); n.textContent = 'Delta'; document.body.append(n); }`)
	beta := mustRef(t, snap, "button", "Beta")
	res, perr, code := act(t, "click", alpha)
	if code != 0 {
		t.Fatalf("click: %+v", perr)
	}
	if fmt.Sprint(res.Changes.Gone) != "["+beta+"]" || len(res.Changes.Added) != 1 {
		t.Fatalf("changes = %+v, want gone [%s] and one added", res.Changes, beta)
	}
	if !strings.HasSuffix(res.Changes.URL, "/act.html?card="+env.Origin2) {
		t.Errorf("changes url = %s", res.Changes.URL)
	}
}

// A CSS chain reaches into the second of two cross-origin frames: fill
// types into its field, and a trusted click lands on its button although
// the iframe is offset, bordered and moved by a CSS transform.
func TestChainIntoCrossOriginFrame(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/chain.html?other="+env.Origin2)
	deadline := time.Now().Add(10 * time.Second)
	for refOf(snapshot(t, tab), "button", "Pay now") == "" {
		if time.Now().After(deadline) {
			t.Fatal("the payment frame never loaded")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if _, perr, code := act(t, "fill", "iframe#pay >>> #cvc", "321", "--tab", fmt.Sprint(tab)); code != 0 {
		t.Fatalf("fill through the chain: exit %d %+v", code, perr)
	}
	if got := browsertest.Eval[string](t, env, env.Origin2+"/chainframe.html", "document.getElementById('cvc').value"); got != "321" {
		t.Errorf("cvc = %q", got)
	}
	if _, perr, code := act(t, "click", "iframe#pay >>> #go", "--trusted", "--tab", fmt.Sprint(tab)); code != 0 {
		t.Fatalf("trusted click through the chain: exit %d %+v", code, perr)
	}
	if got := browsertest.Eval[[]string](t, env, env.Origin2+"/chainframe.html", "window.__log"); strings.Join(got, ",") != "go:trusted" {
		t.Errorf("the frame's button saw %v, want one trusted click", got)
	}
}

// TestStaleRefNamesTheSameElement: after a list re-renders, a ref of the
// old element is refused stale_ref in one wording whether the page or the
// host finds it gone, and the refusal names the ref of the element of the
// same meaning now there, clicking nothing (host/stale.go).
func TestStaleRefNamesTheSameElement(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openAct(t)
	alpha := mustRef(t, snap, "button", "Alpha")
	// The re-render: a new element, the same button.
	pageEval(t, tab, "(() => { const a = document.getElementById('a'); a.replaceWith(a.cloneNode(true)); })()")
	_, inPage, _ := act(t, "click", alpha)
	if inPage == nil || inPage.Code != protocol.CodeStaleRef {
		t.Fatalf("click re-rendered %s: %+v, want stale_ref", alpha, inPage)
	}
	want := alpha + " is stale: its element is no longer on the page"
	if inPage.Message != want {
		t.Errorf("the page's refusal reads %q, want %q", inPage.Message, want)
	}
	snap = snapshot(t, tab)
	now := mustRef(t, snap, "button", "Alpha")
	if now == alpha {
		t.Fatalf("the re-rendered button kept %s", alpha)
	}
	_, atRef, _ := act(t, "click", alpha)
	if atRef == nil || atRef.Code != protocol.CodeStaleRef || atRef.Boundary != protocol.BoundaryRef {
		t.Fatalf("after a new snapshot: %+v, want stale_ref at the ref boundary", atRef)
	}
	if named := want + "; the same [button 'Alpha'] is now " + now; atRef.Message != named {
		t.Errorf("refusal reads %q, want %q", atRef.Message, named)
	}
	if atRef.Hint != inPage.Hint && !strings.Contains(atRef.Hint, inPage.Hint) {
		t.Errorf("two next steps: %q and %q", inPage.Hint, atRef.Hint)
	}
	if got := pageLog(t, tab); len(got) != 0 {
		t.Fatalf("something was clicked: %v", got)
	}
}
