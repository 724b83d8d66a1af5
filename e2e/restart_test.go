package e2e

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/protocol"
)

// Refs survive the host being killed and restarted by Chrome: the ledger
// and the in-page cache both outlive it, and no number is handed out twice.
func TestRefsSurviveHostRestart(t *testing.T) {
	browsertest.Need(t, env)
	tab := openCheckout(t)
	before := snapshot(t, tab)
	max := 0
	for _, f := range before.Frames {
		for _, e := range f.Elements {
			if n := refNum(t, e.Ref); n > max {
				max = n
			}
		}
	}
	host := currentHost(t)
	if err := syscall.Kill(host.PID, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitForNewHost(t, host.PID)
	after := snapshot(t, tab)
	for _, f := range before.Frames {
		for _, e := range f.Elements {
			if got := refOf(after, e.Role, e.Name); got != e.Ref {
				t.Errorf("[%s '%s'] was %s before the restart, %q after", e.Role, e.Name, e.Ref, got)
			}
		}
	}
	// An old ref still acts on its element.
	pay := mustRef(t, before, "button", "Pay now")
	if _, perr, code := act(t, "click", pay); code != 0 {
		t.Fatalf("click %s after restart: %+v", pay, perr)
	}
	if got := strings.Join(pageLog(t, tab), ","); got != "pay" {
		t.Fatalf("log = %s", got)
	}
	// A new element gets a number above every earlier one.
	pageEval(t, tab, "insertBanner()")
	accept := mustRef(t, snapshot(t, tab), "button", "Accept cookies")
	if refNum(t, accept) <= max {
		t.Fatalf("new ref %s reuses a number at or below @e%d", accept, max)
	}
}

func waitForNewHost(t *testing.T, oldPID int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		var res protocol.TabsResult
		if env.GripJSON(t, &res, "tabs") == 0 && currentHost(t).PID != oldPID {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatal("no new host after the old one was killed")
}

// A navigation starts a new epoch; an action naming the old one is
// refused before it reaches the page, and the old refs are stale.
func TestEpochAndNavigation(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/dialog.html")
	first := snapshot(t, tab)
	link := mustRef(t, first, "link", "Home link")
	if first.Epoch == 0 {
		t.Fatal("snapshot has no epoch")
	}
	res, perr, code := act(t, "navigate", env.Origin1+"/home.html", "--tab", browsertest.Sprint(tab))
	if code != 0 {
		t.Fatalf("navigate: %+v", perr)
	}
	if !strings.HasSuffix(res.Changes.URL, "/home.html") || res.Changes.Title != "Fixture Home" {
		t.Errorf("navigate changes = %+v", res.Changes)
	}
	if len(res.Changes.Gone) == 0 {
		t.Errorf("navigation reported no gone refs")
	}
	second := snapshot(t, tab)
	if second.Epoch <= first.Epoch {
		t.Fatalf("epoch %d after navigation, was %d", second.Epoch, first.Epoch)
	}
	press := mustRef(t, second, "button", "Press me")
	_, perr, code = act(t, "click", press, "--epoch", browsertest.Sprint(first.Epoch))
	if code != 1 || perr == nil || perr.Code != protocol.CodeEpochSuperseded || perr.Boundary != protocol.BoundaryTask {
		t.Fatalf("old epoch: exit %d %+v, want epoch_superseded", code, perr)
	}
	if got := pageLog(t, tab); len(got) != 0 {
		t.Fatalf("a superseded action reached the page: %v", got)
	}
	_, perr, _ = act(t, "click", link)
	if perr == nil || (perr.Code != protocol.CodeStaleRef && perr.Code != protocol.CodeDocumentChanged) {
		t.Fatalf("ref from the old document: %+v, want stale_ref or document_changed", perr)
	}
	// back and forward.
	if res, perr, code := act(t, "back", "--tab", browsertest.Sprint(tab)); code != 0 || !strings.HasSuffix(res.Changes.URL, "/dialog.html") {
		t.Fatalf("back: exit %d %+v %+v", code, perr, res.Changes)
	}
	if res, perr, code := act(t, "forward", "--tab", browsertest.Sprint(tab)); code != 0 || !strings.HasSuffix(res.Changes.URL, "/home.html") {
		t.Fatalf("forward: exit %d %+v %+v", code, perr, res.Changes)
	}
}

func TestWaitConditions(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/dialog.html")
	snap := snapshot(t, tab)
	show := mustRef(t, snap, "button", "Show later")
	if _, perr, code := act(t, "click", show); code != 0 {
		t.Fatalf("click: %+v", perr)
	}
	if _, perr, code := act(t, "wait", "--text", "Loaded later", "--tab", browsertest.Sprint(tab)); code != 0 {
		t.Fatalf("wait --text: %+v", perr)
	}
	start := time.Now()
	_, perr, code := act(t, "wait", "--text", "Never shown", "--timeout", "500ms", "--tab", browsertest.Sprint(tab))
	if code != 1 || perr == nil || perr.Code != protocol.CodeTimeout {
		t.Fatalf("wait for absent text: exit %d %+v", code, perr)
	}
	if time.Since(start) > 10*time.Second {
		t.Errorf("500ms wait took %s", time.Since(start))
	}
	if _, perr, code := act(t, "wait", "--url", "/dialog.html", "--tab", browsertest.Sprint(tab)); code != 0 {
		t.Fatalf("wait --url: %+v", perr)
	}
	pageEval(t, tab, "document.querySelector('a').remove()")
	if _, perr, code := act(t, "wait", "--gone", mustRef(t, snap, "link", "Home link")); code != 0 {
		t.Fatalf("wait --gone: %+v", perr)
	}
	if code := env.Grip(t.Context(), "wait").Code; code != 2 {
		t.Errorf("wait with no condition: exit %d, want 2", code)
	}
}

func TestScreenshot(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/home.html")
	out := t.TempDir() + "/shot.png"
	var res struct {
		OK    bool   `json:"ok"`
		Path  string `json:"path"`
		Bytes int    `json:"bytes"`
	}
	if code := env.GripJSON(t, &res, "screenshot", "-o", out, "--tab", browsertest.Sprint(tab)); code != 0 {
		t.Fatalf("screenshot: exit %d", code)
	}
	b := readFile(t, out)
	if len(b) < 100 || string(b[1:4]) != "PNG" {
		t.Fatalf("not a PNG: %d bytes", len(b))
	}
}

// A page that does not answer (here: busy for 25 s) does not hang grip:
// the call times out with a message naming the likely causes, and the
// tab's queue moves on.
func TestUnresponsivePageDoesNotHang(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/dialog.html")
	other := env.OpenTab(t, env.Origin1+"/home.html")
	snap := snapshot(t, tab)
	freeze := mustRef(t, snap, "button", "Freeze page")
	act(t, "click", freeze)  // returns; the page freezes just after
	for i := 0; i < 2; i++ { // the queue moves on: a second call also ends
		start := time.Now()
		var out struct {
			Error *protocol.Error `json:"error"`
		}
		code := env.GripJSON(t, &out, "snapshot", "--tab", browsertest.Sprint(tab))
		if code != 1 || out.Error == nil || out.Error.Code != protocol.CodeTimeout || !strings.Contains(out.Error.Hint, "dialog") {
			t.Fatalf("snapshot #%d of a frozen page: exit %d %+v", i, code, out.Error)
		}
		if d := time.Since(start); d > 25*time.Second {
			t.Errorf("snapshot #%d took %s", i, d)
		}
	}
	// Other tabs are not held up.
	mustRef(t, snapshot(t, other), "button", "Press me")
	// Closing the frozen tab works (the cleanup closes it too).
	if _, perr, code := act(t, "tabs", "close", browsertest.Sprint(tab)); code != 0 {
		t.Fatalf("close blocked tab: %+v", perr)
	}
}

// A page blocked by a confirm dialog does not hang grip either: a read
// answers at once with the dialog (events_test.go has the rest), and the
// tab still closes.
func TestDialogDoesNotHang(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/dialog.html")
	snap := snapshot(t, tab)
	act(t, "click", mustRef(t, snap, "button", "Open alert"))
	start := time.Now()
	var out protocol.Snapshot
	code := env.GripJSON(t, &out, "snapshot", "--tab", browsertest.Sprint(tab))
	if code != 0 || out.Dialog == nil || out.Dialog.Type != protocol.DialogConfirm {
		t.Fatalf("snapshot behind a dialog: exit %d %+v", code, out)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("snapshot behind a dialog took %s", d)
	}
	if _, perr, code := act(t, "tabs", "close", browsertest.Sprint(tab)); code != 0 {
		t.Fatalf("close the tab with the dialog: %+v", perr)
	}
}
