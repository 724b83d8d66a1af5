package e2e

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
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
	if !res.OK || !strings.Contains(res.Detail, "notes.txt") || res.Download != nil {
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
// browser's download folder holding want, named name (or, when the folder
// had one, "name (N)", as Chrome numbers a name taken).
func checkOnDisk(t *testing.T, d *protocol.Download, name string, want []byte) {
	t.Helper()
	if d == nil {
		t.Fatal("no download in the reply")
	}
	ext := filepath.Ext(name)
	named := regexp.MustCompile(`^` + regexp.QuoteMeta(strings.TrimSuffix(name, ext)) + `( \(\d+\))?` + regexp.QuoteMeta(ext) + `$`)
	if d.State != protocol.DownloadComplete || !named.MatchString(d.Filename) || d.Bytes != int64(len(want)) {
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
	// The reply names the download when Chrome made it before the reply
	// was built (TestDownloadNamedInTheReply); this one may come later.
	if d := res.Download; d != nil && (!strings.HasSuffix(d.URL, "/data.txt") || d.Tab != tab) {
		t.Errorf("the click's reply names another download: %+v", d)
	}
	got, perr, code := waitDownload(t)
	if code != 0 {
		t.Fatalf("wait --download: exit %d %+v", code, perr)
	}
	checkOnDisk(t, got.Download, "report.txt", readFile(t, "testdata/data.txt"))
	if got.Download.Tab != tab {
		t.Errorf("download %+v, want one of tab %d", got.Download, tab)
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
<a href="/invoice?id=7">Invoice 7</a> <a href="/broken">Broken export</a> <a href="/slow">Slow export</a>
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
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Disposition", `attachment; filename="slow.bin"`)
		w.Header().Set("Content-Length", "8192")
		fmt.Fprint(w, slowHalf("a")) // enough for Chrome to decide it is a download
		w.(http.Flusher).Flush()
		select {
		case <-time.After(3 * time.Second):
		case <-r.Context().Done():
			return
		}
		fmt.Fprint(w, slowHalf("b"))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

func slowHalf(c string) string { return strings.Repeat(c, 4096) }

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
	if d := res.Download; d != nil && (!strings.HasSuffix(d.URL, "/invoice?id=7") || d.Tab != tab) {
		t.Errorf("the click's reply names another download: %+v", d)
	}
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
	if !strings.HasPrefix(filepath.Base(path), "invoice-8") || string(readFile(t, path)) != invoiceBody("8") {
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

// sha256Hex is the hex SHA-256 of b, as the fixture page computes it.
func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// TestUploadSeveralFilesThroughLabel: a label for an input moved off
// screen takes several files; the page hashes each, so every byte of a
// file larger than one chunk and one piece handed to the page is checked,
// and each file has the type its extension gives.
func TestUploadSeveralFilesThroughLabel(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openFiles(t)
	big := make([]byte, 1<<20+123) // several chunks, the last a short one
	if _, err := rand.Read(big); err != nil {
		t.Fatal(err)
	}
	small := []byte("name,total\nAda,42\n")
	dir := t.TempDir()
	bigPath, smallPath := filepath.Join(dir, "photo.png"), filepath.Join(dir, "totals.csv")
	empty := filepath.Join(dir, "empty.txt")
	for p, b := range map[string][]byte{bigPath: big, smallPath: small, empty: nil} {
		if err := os.WriteFile(p, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// The input is moved off screen; the snapshot shows it by its
	// label's text.
	input := mustRef(t, snap, "button", "Upload photos")
	res, perr, code := act(t, "upload", input, bigPath, smallPath, empty)
	if code != 0 {
		t.Fatalf("upload: exit %d %+v", code, perr)
	}
	if !strings.Contains(res.Detail, "'photo.png' (1048699 bytes), 'totals.csv' (18 bytes), 'empty.txt' (0 bytes)") {
		t.Errorf("detail %q", res.Detail)
	}
	got := pageValue[string](t, tab, "document.getElementById('got2').textContent")
	want := strings.Join([]string{
		"photo.png image/png " + fmt.Sprint(len(big)) + " " + sha256Hex(big),
		"totals.csv text/csv " + fmt.Sprint(len(small)) + " " + sha256Hex(small),
		"empty.txt text/plain 0 " + sha256Hex(nil),
	}, "; ")
	if got != want {
		t.Fatalf("the page read\n%s\nwant\n%s", got, want)
	}
}

// TestUploadAriaControlsAndCrossOriginFrame: a span acting as a button
// names its input with aria-controls; a file input in a cross-origin
// frame is reached by its ref like any element there.
func TestUploadAriaControlsAndCrossOriginFrame(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/files.html?frame="+env.Origin2)
	var snap protocol.Snapshot
	deadline := time.Now().Add(10 * time.Second)
	for snap = snapshot(t, tab); refOf(snap, "button", "Receipt") == ""; snap = snapshot(t, tab) {
		if time.Now().After(deadline) {
			t.Fatalf("the receipts frame never loaded:\n%s", snap.Text)
		}
		time.Sleep(100 * time.Millisecond)
	}
	invoice := writeTemp(t, "invoice.pdf", []byte("%PDF-1.4 fake"))
	if _, perr, code := act(t, "upload", mustRef(t, snap, "button", "Attach invoice"), invoice); code != 0 {
		t.Fatalf("upload through aria-controls: exit %d %+v", code, perr)
	}
	want := "invoice.pdf application/pdf 13 " + sha256Hex([]byte("%PDF-1.4 fake"))
	if got := pageValue[string](t, tab, "(window.__files && window.__files.f3 || []).join()"); got != want {
		t.Errorf("the page read %q, want %q", got, want)
	}
	receipt := writeTemp(t, "receipt.txt", []byte("paid in full"))
	if _, perr, code := act(t, "upload", mustRef(t, snap, "button", "Receipt"), receipt); code != 0 {
		t.Fatalf("upload into the frame: exit %d %+v", code, perr)
	}
	got := browsertest.Eval[string](t, env, env.Origin2+"/files-frame.html", `new Promise((resolve) => {
		const t0 = Date.now();
		(function poll() {
			const v = document.getElementById('got').textContent;
			if (v || Date.now() - t0 > 5000) return resolve(v);
			setTimeout(poll, 20);
		})();
	})`)
	if got != "receipt.txt: paid in full" {
		t.Errorf("the frame read %q", got)
	}
	// The snapshot shows the file's name as the input's value.
	if after := snapshot(t, tab); !strings.Contains(after.Text, "[button 'Receipt' value='receipt.txt']") {
		t.Errorf("snapshot after upload:\n%s", after.Text)
	}
}

// TestUploadRefusedTouchesNothing: missing, unreadable and too large files
// are refused before anything reaches the page, naming the file; so are
// an ambiguous target, a stale ref and a ref whose meaning changed. No
// input gets a file, no event fires.
func TestUploadRefusedTouchesNothing(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openFiles(t)
	button := mustRef(t, snap, "button", "Choose file")
	good := writeTemp(t, "ok.txt", []byte("fine"))
	dir := t.TempDir()
	missing := filepath.Join(dir, "missing.txt")
	locked := filepath.Join(dir, "locked.txt")
	if err := os.WriteFile(locked, []byte("secret"), 0o000); err != nil {
		t.Fatal(err)
	}
	huge := filepath.Join(dir, "huge.bin")
	if err := os.WriteFile(huge, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(huge, protocol.MaxUploadBytes+1); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	check := func(name string, perr *protocol.Error, code int, want protocol.Code, parts ...string) {
		t.Helper()
		if code != 1 || perr == nil || perr.Code != want {
			t.Fatalf("%s: exit %d %+v, want %s", name, code, perr, want)
		}
		for _, p := range parts {
			if !strings.Contains(perr.Message, p) {
				t.Errorf("%s: %q does not say %q", name, perr.Message, p)
			}
		}
		if perr.Hint == "" {
			t.Errorf("%s: no hint", name)
		}
	}
	_, perr, code := act(t, "upload", button, good, missing)
	check("missing", perr, code, protocol.CodeNotFound, missing, "no such file")
	_, perr, code = act(t, "upload", button, dir)
	check("folder", perr, code, protocol.CodeBadRequest, dir, "folder")
	if os.Geteuid() != 0 { // root reads any file
		_, perr, code = act(t, "upload", button, locked)
		check("unreadable", perr, code, protocol.CodeBadRequest, locked, "permission denied")
	}
	_, perr, code = act(t, "upload", button, huge)
	check("too large", perr, code, protocol.CodeTooLarge, huge, "50 MiB")
	_, perr, code = act(t, "upload", mustRef(t, snap, "button", "Add attachment"), good)
	check("ambiguous", perr, code, protocol.CodeNotActionable, "2 file inputs")
	_, perr, code = act(t, "upload", mustRef(t, snap, "button", "Plain button"), good)
	check("not a file input", perr, code, protocol.CodeNotActionable, "no file input belongs to it")
	_, perr, code = act(t, "upload", button, good, good)
	check("one-file input", perr, code, protocol.CodeNotActionable, "takes one file")
	pageEval(t, tab, "document.getElementById('pick').textContent = 'Delete everything'")
	_, perr, code = act(t, "upload", button, good)
	check("meaning changed", perr, code, protocol.CodeMeaningChanged, "Delete everything")
	pageEval(t, tab, "document.getElementById('pick').remove()")
	_, perr, code = act(t, "upload", button, good)
	check("stale", perr, code, protocol.CodeStaleRef, button)
	if got := pageLog(t, tab); len(got) != 0 {
		t.Errorf("events fired: %v", got)
	}
	if n := browsertest.Eval[int](t, env, env.TabURL(t, tab), `[...document.querySelectorAll('input[type=file]')].filter((i) => i.files.length).length`); n != 0 {
		t.Errorf("%d inputs got files", n)
	}
	// Usage: no file at all is a usage error (exit 2).
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if r := env.Grip(ctx, "upload", button); r.Code != 2 || !strings.Contains(r.Stderr, "grip upload TARGET FILE...") {
		t.Errorf("upload without files: exit %d %s", r.Code, r.Stderr)
	}
}

// TestMCPUploadAndDownload: browser_file_upload puts a file into the
// input behind the styled button, browser_wait_for {download: true}
// returns the file a click saved (a blob a page script made), and
// browser_downloads lists it.
func TestMCPUploadAndDownload(t *testing.T) {
	browsertest.Need(t, env)
	m := startMCP(t)
	tab := env.OpenTab(t, env.Origin1+"/files.html")
	snap := m.must("browser_snapshot", map[string]any{"tab": tab})
	file := writeTemp(t, "mcp.txt", []byte("via mcp"))
	up := m.must("browser_file_upload", map[string]any{"ref": mcpRefOf(t, snap, "[button 'Choose file']"), "paths": []string{file}, "element": "Choose file"})
	if !strings.Contains(up, "Uploaded mcp.txt into") {
		t.Errorf("upload reply:\n%s", up)
	}
	if got := pageValue[string](t, tab, "document.getElementById('got1').textContent"); got != "mcp.txt: via mcp" {
		t.Errorf("the page read %q", got)
	}
	if text, isErr := m.call("browser_file_upload", map[string]any{"ref": mcpRefOf(t, snap, "[button 'Choose file']"), "paths": []string{file + ".missing"}}); !isErr || !strings.Contains(text, "not_found") || !strings.Contains(text, "mcp.txt.missing") {
		t.Errorf("a missing file is not refused by name: %v %s", isErr, text)
	}
	m.must("browser_click", map[string]any{"ref": mcpRefOf(t, snap, "[button 'Export CSV']")})
	done := m.must("browser_wait_for", map[string]any{"download": true, "timeout": 20})
	line := regexp.MustCompile(`download: complete, 18 bytes: (\S+)`).FindStringSubmatch(done)
	if line == nil {
		t.Fatalf("wait reply names no complete download:\n%s", done)
	}
	if got := string(readFile(t, line[1])); got != "name,total\nAda,42\n" || filepath.Base(line[1]) != "export.csv" {
		t.Errorf("%s holds %q", line[1], got)
	}
	if list := m.must("browser_status", map[string]any{"show": "downloads", "limit": 3}); !strings.Contains(list, line[1]) || !strings.Contains(list, fmt.Sprintf("tab %d", tab)) {
		t.Errorf("browser_status show=downloads does not list %s of tab %d:\n%s", line[1], tab, list)
	}
}

// TestDownloadNamedInTheReply: a click whose page made a download (a blob
// a script saved) before grip built the reply names it there, with the
// tab; grip wait --download then returns the same download, finished.
func TestDownloadNamedInTheReply(t *testing.T) {
	browsertest.Need(t, env)
	tab, snap := openFiles(t)
	res, perr, code := act(t, "click", mustRef(t, snap, "button", "Export and tidy up"))
	if code != 0 {
		t.Fatalf("click: exit %d %+v", code, perr)
	}
	d := res.Download
	if d == nil || !strings.HasPrefix(d.URL, "blob:"+env.Origin1+"/") || d.Tab != tab {
		t.Fatalf("the reply names no download of a blob in tab %d: %+v", tab, d)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r := env.Grip(ctx, "click", "--tab", fmt.Sprint(tab), "#plain") // a reply with no download, as text
	if r.Code != 0 || strings.Contains(r.Stdout, "download:") {
		t.Errorf("a plain click's reply: exit %d\n%s", r.Code, r.Stdout)
	}
	got, perr, code := waitDownload(t)
	if code != 0 {
		t.Fatalf("wait --download: exit %d %+v", code, perr)
	}
	if got.Download.ID != d.ID {
		t.Errorf("wait returned download %d, the reply named %d", got.Download.ID, d.ID)
	}
	checkOnDisk(t, got.Download, "export.csv", []byte("name,total\nAda,42\n"))
}

// TestWaitDownloadEventDriven: a wait that ends before the file does says
// how far it got; the next wait, started while the file is still coming,
// wakes when Chrome says it is complete. With nothing started, a wait
// times out saying so.
func TestWaitDownloadEventDriven(t *testing.T) {
	browsertest.Need(t, env)
	origin := attachmentServer(t)
	tab := env.OpenTab(t, origin+"/")
	if _, perr, code := act(t, "click", mustRef(t, snapshot(t, tab), "link", "Slow export")); code != 0 {
		t.Fatalf("click: %+v", perr)
	}
	_, perr, code := waitDownload(t, "--timeout", "1s")
	if code != 1 || perr == nil || perr.Code != protocol.CodeTimeout || !strings.Contains(perr.Message, "still downloading") ||
		!strings.Contains(perr.Hint, "--timeout") {
		t.Fatalf("short wait: exit %d %+v, want a timeout saying the file is still coming", code, perr)
	}
	got, perr, code := waitDownload(t, "--timeout", "30s")
	if code != 0 {
		t.Fatalf("wait: exit %d %+v", code, perr)
	}
	checkOnDisk(t, got.Download, "slow.bin", []byte(slowHalf("a")+slowHalf("b")))
	_, perr, code = waitDownload(t, "--timeout", "500ms")
	if code != 1 || perr == nil || perr.Code != protocol.CodeTimeout || !strings.Contains(perr.Message, "none started") ||
		!strings.Contains(perr.Hint, "--trusted") {
		t.Errorf("a wait with nothing started: exit %d %+v", code, perr)
	}
}

// TestDownloadByNavigateAndFromAFrame: navigating a tab to an attachment
// downloads it (the tab stays on its page); a link in a cross-origin frame
// downloads in the name of the tab grip acted in.
func TestDownloadByNavigateAndFromAFrame(t *testing.T) {
	browsertest.Need(t, env)
	origin := attachmentServer(t)
	tab := env.OpenTab(t, origin+"/")
	start := time.Now()
	res, perr, code := act(t, "navigate", "--tab", fmt.Sprint(tab), origin+"/invoice?id=9")
	if code != 0 {
		t.Fatalf("navigate: exit %d %+v", code, perr)
	}
	// It returns when the download starts, not after the 15 s a page
	// that never loads is given.
	if took := time.Since(start); took > 10*time.Second || res.Tab.URL != origin+"/" {
		t.Errorf("navigate took %s and left the tab at %s", took, res.Tab.URL)
	}
	if d := res.Download; d == nil || !strings.HasSuffix(d.URL, "/invoice?id=9") {
		t.Errorf("navigate's reply names no download: %+v", d)
	}
	// A later navigation to a page waits for it as before.
	if res, perr, code := act(t, "navigate", "--tab", fmt.Sprint(tab), origin+"/?again"); code != 0 || res.Tab.URL != origin+"/?again" || res.Download != nil {
		t.Errorf("navigate to a page: exit %d %+v, tab %+v, download %+v", code, perr, res.Tab, res.Download)
	}
	got, perr, code := waitDownload(t)
	if code != 0 {
		t.Fatalf("wait: exit %d %+v", code, perr)
	}
	checkOnDisk(t, got.Download, "invoice-9.pdf", []byte(invoiceBody("9")))
	if got.Download.Tab != tab {
		t.Errorf("download of tab %d, want %d", got.Download.Tab, tab)
	}

	ftab := env.OpenTab(t, env.Origin1+"/files.html?frame="+env.Origin2)
	var snap protocol.Snapshot
	deadline := time.Now().Add(10 * time.Second)
	for snap = snapshot(t, ftab); refOf(snap, "link", "Frame report") == ""; snap = snapshot(t, ftab) {
		if time.Now().After(deadline) {
			t.Fatalf("the frame never loaded:\n%s", snap.Text)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if _, perr, code := act(t, "click", mustRef(t, snap, "link", "Frame report")); code != 0 {
		t.Fatalf("click in frame: %+v", perr)
	}
	got, perr, code = waitDownload(t)
	if code != 0 {
		t.Fatalf("wait: exit %d %+v", code, perr)
	}
	checkOnDisk(t, got.Download, "frame-report.txt", readFile(t, "testdata/data.txt"))
	if got.Download.Tab != ftab {
		t.Errorf("download of tab %d, want %d", got.Download.Tab, ftab)
	}
}
