package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/protocol"
)

// openFiles opens files.html and returns its tab and first snapshot.
func openFiles(t *testing.T) (int, protocol.Snapshot) {
	t.Helper()
	tab := env.OpenTab(t, env.Origin1+"/files.html")
	return tab, snapshot(t, tab)
}

// writeTemp writes a file in a fresh temp folder and returns its path.
func writeTemp(t *testing.T, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// pageValue polls expr in the tab's main world until it is not empty.
func pageValue[T comparable](t *testing.T, tab int, expr string) T {
	t.Helper()
	var zero T
	url := env.TabURL(t, tab)
	deadline := time.Now().Add(10 * time.Second)
	for {
		v := browsertest.Eval[T](t, env, url, expr)
		if v != zero || time.Now().After(deadline) {
			return v
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestUploadThroughStyledButton: the agent names the visible button a site
// puts in front of a hidden input; grip finds the input, fills it, and the
// page's change handler reads the file's text.
func TestUploadThroughStyledButton(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openFiles(t)
	button := mustRef(t, snap, "button", "Choose file")
	file := writeTemp(t, "notes.txt", []byte("hello from grip"))
	res, perr, code := act(t, "upload", button, file)
	if code != 0 {
		t.Fatalf("upload: exit %d %+v", code, perr)
	}
	if !res.OK || !strings.Contains(res.Detail, "notes.txt") {
		t.Errorf("reply %+v", res)
	}
	if got := pageValue[string](t, tab, "document.getElementById('got1').textContent"); got != "notes.txt: hello from grip" {
		t.Fatalf("the page read %q", got)
	}
	if got := strings.Join(pageLog(t, tab), ","); got != "input f1,change f1" {
		t.Errorf("events = %s, want input then change", got)
	}
}

// download runs `grip wait --download` with --json and returns its reply.
func waitDownload(t *testing.T, extra ...string) (protocol.ActionResult, *protocol.Error, int) {
	t.Helper()
	return act(t, append([]string{"wait", "--download"}, extra...)...)
}

// checkOnDisk checks that d is a complete download at a path in the
// browser's download folder holding want.
func checkOnDisk(t *testing.T, d *protocol.Download, name string, want []byte) {
	t.Helper()
	if d == nil {
		t.Fatal("no download in the reply")
	}
	if d.State != protocol.DownloadComplete || d.Filename != name || d.Bytes != int64(len(want)) {
		t.Errorf("download %+v, want complete %s of %d bytes", d, name, len(want))
	}
	if filepath.Dir(d.Path) != env.DownloadDir {
		t.Errorf("downloaded to %s, want a file in %s", d.Path, env.DownloadDir)
	}
	if got := readFile(t, d.Path); string(got) != string(want) {
		t.Errorf("%s holds %q, want %q", d.Path, got, want)
	}
}

// TestDownloadLinkWithDownloadAttribute: a click on <a download> starts a
// download; the click's reply names it, `grip wait --download` returns it
// finished with its full path, and `grip downloads` lists it with its tab.
func TestDownloadLinkWithDownloadAttribute(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openFiles(t)
	link := mustRef(t, snap, "link", "Download report")
	res, perr, code := act(t, "click", link)
	if code != 0 {
		t.Fatalf("click: exit %d %+v", code, perr)
	}
	t.Logf("click reply download: %+v", res.Download)
	got, perr, code := waitDownload(t)
	if code != 0 {
		t.Fatalf("wait --download: exit %d %+v", code, perr)
	}
	want := readFile(t, "testdata/data.txt")
	checkOnDisk(t, got.Download, filepath.Base(got.Download.Path), want)
	if !strings.HasPrefix(got.Download.Filename, "report") || got.Download.Tab != tab {
		t.Errorf("download %+v, want report*.txt of tab %d", got.Download, tab)
	}
	var list protocol.DownloadsResult
	if code := env.GripJSON(t, &list, "downloads"); code != 0 {
		t.Fatalf("downloads: exit %d", code)
	}
	found := false
	for _, d := range list.Downloads {
		if d.ID == got.Download.ID {
			found = true
			if d.Path != got.Download.Path || d.Tab != tab || !strings.HasSuffix(d.URL, "/data.txt") {
				t.Errorf("listed as %+v", d)
			}
		}
	}
	if !found {
		t.Errorf("grip downloads does not list %d: %+v", got.Download.ID, list)
	}
	// The path alone on stdout without --json.
	t.Log(env.MustGrip(t, "downloads"))
}

// attachmentServer serves a page whose link is answered with
// Content-Disposition: attachment, and one whose download breaks off
// halfway. It listens on loopback, another origin than the fixtures'.
func attachmentServer(t *testing.T) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><title>Invoices</title><h1>Invoices</h1>
<a href="/invoice?id=7">Invoice 7</a> <a href="/broken">Broken export</a>
<form action="/invoice" method="post"><input type="hidden" name="id" value="8"><button>Get invoice 8</button></form>`)
	})
	mux.HandleFunc("/invoice", func(w http.ResponseWriter, r *http.Request) {
		id := r.FormValue("id")
		w.Header().Set("Content-Type", "application/pdf")
		w.Header().Set("Content-Disposition", `attachment; filename="invoice-`+id+`.pdf"`)
		fmt.Fprint(w, invoiceBody(id))
	})
	mux.HandleFunc("/broken", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/csv")
		w.Header().Set("Content-Disposition", `attachment; filename="broken.csv"`)
		w.Header().Set("Content-Length", "100000")
		w.WriteHeader(http.StatusOK)
		fmt.Fprint(w, "a,b\n1,2\n")
		w.(http.Flusher).Flush()
		// Break the connection in the middle of the body.
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			conn.Close()
		}
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

func invoiceBody(id string) string { return "%PDF-1.4\n% invoice " + id + "\n%%EOF\n" }

// TestDownloadContentDisposition: a link answered with an attachment
// starts a download in the tab that navigated; its file is on disk with
// the server's name and bytes.
func TestDownloadContentDisposition(t *testing.T) {
	browsertest.Need(t, env)
	origin := attachmentServer(t)
	tab := env.OpenTab(t, origin+"/")
	snap := snapshot(t, tab)
	res, perr, code := act(t, "click", mustRef(t, snap, "link", "Invoice 7"))
	if code != 0 {
		t.Fatalf("click: exit %d %+v", code, perr)
	}
	t.Logf("click reply download: %+v", res.Download)
	got, perr, code := waitDownload(t, "--tab", fmt.Sprint(tab))
	if code != 0 {
		t.Fatalf("wait --download: exit %d %+v", code, perr)
	}
	checkOnDisk(t, got.Download, "invoice-7.pdf", []byte(invoiceBody("7")))
	if got.Download.Tab != tab || got.Tab.ID != tab {
		t.Errorf("download of tab %d, reply tab %d; want %d", got.Download.Tab, got.Tab.ID, tab)
	}
	// A second download from the same page: Chrome refuses it after a
	// synthetic click (automatic downloads) and allows it after real
	// input. Plain output: the path alone.
	if _, perr, code := act(t, "click", "--trusted", mustRef(t, snapshot(t, tab), "button", "Get invoice 8")); code != 0 {
		t.Fatalf("submit: %+v", perr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r := env.Grip(ctx, "wait", "--download")
	if r.Code != 0 {
		t.Fatalf("wait --download: exit %d %s", r.Code, r.Stderr)
	}
	path := strings.TrimSuffix(r.Stdout, "\n")
	if filepath.Base(path) != "invoice-8.pdf" || string(readFile(t, path)) != invoiceBody("8") {
		t.Errorf("wait --download printed %q", r.Stdout)
	}
}

// TestDownloadInterrupted: a download that breaks off is an error naming
// Chrome's reason, and the next wait does not return it again.
func TestDownloadInterrupted(t *testing.T) {
	browsertest.Need(t, env)
	origin := attachmentServer(t)
	tab := env.OpenTab(t, origin+"/")
	if _, perr, code := act(t, "click", mustRef(t, snapshot(t, tab), "link", "Broken export")); code != 0 {
		t.Fatalf("click: %+v", perr)
	}
	_, perr, code := waitDownload(t, "--timeout", "20s")
	if code != 1 || perr == nil || perr.Code != protocol.CodeDownloadFailed {
		t.Fatalf("wait --download: exit %d %+v, want download_failed", code, perr)
	}
	var list protocol.DownloadsResult
	env.GripJSON(t, &list, "downloads", "--limit", "1")
	if len(list.Downloads) != 1 || list.Downloads[0].State != protocol.DownloadInterrupted || list.Downloads[0].Error == "" {
		t.Fatalf("downloads lists %+v, want the interrupted one with Chrome's reason", list.Downloads)
	}
	if reason := list.Downloads[0].Error; !strings.Contains(perr.Message, "broken.csv") || !strings.Contains(perr.Message, reason) || perr.Hint == "" {
		t.Errorf("refusal does not name the file and Chrome's reason %s: %+v", reason, perr)
	}
	_, perr, code = waitDownload(t, "--timeout", "1s")
	if code != 1 || perr == nil || perr.Code != protocol.CodeTimeout {
		t.Fatalf("second wait: exit %d %+v, want a timeout", code, perr)
	}
}
