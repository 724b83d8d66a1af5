package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/protocol"
)

// A frame whose document never finishes loading (its server holds the
// response open, as a frame another debugger holds stays loading) never
// answers a snapshot: it is left out and counted on the closing line,
// and the other frames are read as usual.
func TestSnapshotSkipsFrameThatNeverAnswers(t *testing.T) {
	browsertest.Need(t, env)
	release := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		// The frames come once the tab has opened (a frame that never loads
		// holds up the tab's loading): the one that answers, then the stuck one.
		w.Write([]byte(`<!doctype html><title>Stuck frames</title><button>Top button</button><script>
function addFrames() {
  const ok = document.createElement('iframe');
  ok.onload = () => { const stuck = document.createElement('iframe'); stuck.src = '/stuck'; document.body.append(stuck); };
  ok.src = '/ok';
  document.body.append(ok);
}
</script>`))
	})
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<!doctype html><button>Frame button</button>`))
	})
	mux.HandleFunc("/stuck", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<!doctype html><p>Loading forever`))
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	defer close(release)

	tab := env.OpenTab(t, srv.URL+"/")
	evalOn[any](t, env, tab, "addFrames()")
	for i := 0; evalOn[int](t, env, tab, "document.querySelectorAll('iframe').length") < 2; i++ {
		if i == 100 {
			t.Fatal("the page never added its frames")
		}
		time.Sleep(50 * time.Millisecond)
	}
	snap := snapshot(t, tab)
	mustRef(t, snap, "button", "Top button")
	mustRef(t, snap, "button", "Frame button")
	if !strings.Contains(snap.Text, "(1 frame did not answer)") {
		t.Errorf("the snapshot does not count the frame that never answered:\n%s", snap.Text)
	}
	if len(snap.SkippedFrames) != 1 {
		t.Errorf("skipped frames %+v, want the one that never answered", snap.SkippedFrames)
	}
}

// A frame that is busy when an action's reply reads the page back (its
// renderer runs a long task) did not answer: its refs are not gone, the
// reply does not say they are, and they work once the frame is free.
func TestBusyFrameKeepsItsRefs(t *testing.T) {
	browsertest.Need(t, env)
	// The card frame gets a URL of its own (act.html appends
	// "/card.html" to its card parameter, here after a fragment): the
	// scripts below find the frame by its URL, and other tests leave
	// act.html tabs open.
	cardURL := env.Origin2 + "/card.html?busy"
	tab := env.OpenTab(t, env.Origin1+"/act.html?busy=1&card="+url.QueryEscape(cardURL+"#"))
	snap := snapshot(t, tab)
	alpha := mustRef(t, snap, "button", "Alpha")
	card := mustRef(t, snap, "textbox", "Card number")
	// The card frame is another site (another renderer), held busy while
	// the click runs: its main thread waits on a synchronous request the
	// test answers only after the click's reply, past the 10 s the tab's
	// read waits for all its frames and the 3 s it then gives each frame,
	// while the top stays free. The frame is busy once its request arrives.
	key := fmt.Sprintf("busy-frame-%d", time.Now().UnixNano())
	t.Cleanup(func() { browsertest.Release(key) })
	browsertest.Eval[bool](t, env, cardURL, `setTimeout(() => { const x = new XMLHttpRequest(); x.open('GET', '/hold?s=120&key=`+key+`', false); x.send(); window.__held = x.responseText; }, 0), true`)
	for deadline := time.Now().Add(20 * time.Second); browsertest.Held(key) == 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the card frame's request never reached the server: the frame is not busy")
		}
	}
	res, perr, code := act(t, "click", alpha)
	browsertest.Release(key)
	if code != 0 {
		t.Fatalf("click while the card frame is busy: exit %d %+v", code, perr)
	}
	for _, g := range res.Changes.Gone {
		if g == card {
			t.Errorf("the reply says %s (in the busy frame) is gone: %+v", card, res.Changes)
		}
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, perr, code := act(t, "fill", card, "4242")
		if code == 0 {
			break
		}
		if perr != nil && (perr.Code == protocol.CodeStaleRef || perr.Code == protocol.CodeUnknownRef) {
			t.Fatalf("the busy frame's ref went stale: %+v", perr)
		}
		if time.Now().After(deadline) {
			t.Fatalf("fill %s never worked after the frame was free: %+v", card, perr)
		}
		time.Sleep(250 * time.Millisecond)
	}
	if got := browsertest.Eval[string](t, env, cardURL, "document.getElementById('num').value"); got != "4242" {
		t.Errorf("the card number reads %q", got)
	}
	// The frame was busy for the whole click: the test's release ended its
	// request, not the server's own bound.
	if got := browsertest.Eval[string](t, env, cardURL, "String(window.__held)"); got != "released" {
		t.Errorf("the card frame's request ended with %q: it was not busy for the whole click", got)
	}
}

// A page whose load never ends (an image the server holds) is usable once
// its document is ready: tabs new answers then, saying it still loads, and
// a snapshot of it says so on its last line: what it lists may be only
// the start.
func TestSnapshotOfAPageStillLoadingSaysSo(t *testing.T) {
	browsertest.Need(t, env)
	release := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<!doctype html><title>Loading page</title><button>Early button</button><img src="/hang" alt="">`))
	})
	mux.HandleFunc("/hang", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	var opened protocol.ActionResult
	if code := env.GripJSON(t, &opened, "tabs", "new", srv.URL+"/"); code != 0 {
		t.Fatalf("tabs new: exit %d %+v", code, opened)
	}
	tab := opened.Tab.ID
	t.Cleanup(func() { env.Grip(context.Background(), "tabs", "close", fmt.Sprint(tab)) })
	// The reply came once the document was ready, saying the rest loads.
	if opened.Loading == "" {
		t.Errorf("tabs new's reply does not say the page is still loading: %+v", opened)
	}
	snap := snapshot(t, tab)
	if !snap.Loading || !strings.Contains(snap.Text, "\nstill loading: "+srv.URL) {
		t.Errorf("a snapshot of a page still loading: loading %v\n%s", snap.Loading, snap.Text)
	}
	mustRef(t, snap, "button", "Early button")
	close(release)
	deadline := time.Now().Add(10 * time.Second)
	for snap = snapshot(t, tab); snap.Loading; snap = snapshot(t, tab) {
		if time.Now().After(deadline) {
			t.Fatalf("still loading 10 s after the image came:\n%s", snap.Text)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if strings.Contains(snap.Text, "still loading") {
		t.Errorf("a loaded page's snapshot says it is loading:\n%s", snap.Text)
	}
}
