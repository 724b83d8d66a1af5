package e2e

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/internal/browsertest"
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
