//go:build unix

package host

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/grip-dev/grip/protocol"
)

// fakeHome makes a home folder with the secrets a person keeps there,
// and points $HOME at it.
func fakeHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, d := range []string{".ssh", ".aws", "Downloads"} {
		if err := os.Mkdir(filepath.Join(home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for name, body := range map[string]string{".ssh/id_rsa": "PRIVATE KEY", ".aws/credentials": "secret", ".netrc": "machine x", "Downloads/cv.pdf": "%PDF"} {
		if err := os.WriteFile(filepath.Join(home, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

// TestUploadKeepsSecretsIn: under the default upload-from (~/Downloads
// and the temp folder — where this home lies), a home folder's hidden
// places, grip's state folder, /proc and /etc are refused with code
// policy, by their real path (links followed) and with the line that
// would allow them; ~/Downloads is uploaded.
func TestUploadKeepsSecretsIn(t *testing.T) {
	home := fakeHome(t)
	state := t.TempDir()
	if err := os.WriteFile(filepath.Join(state, "policy.conf"), []byte("act *\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	h := &Host{}
	h.cfg.Dirs.Root = state
	link := filepath.Join(t.TempDir(), "holiday.jpg")
	if err := os.Symlink(filepath.Join(home, ".ssh/id_rsa"), link); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		path  string
		parts []string
	}{
		{filepath.Join(home, ".ssh/id_rsa"), []string{home + "/.ssh/id_rsa", "~/.ssh, a hidden folder", "upload-from = ~/Downloads, " + os.TempDir() + ", " + home + "/.ssh"}},
		{link, []string{home + "/.ssh/id_rsa (the real file behind " + link + ")"}},
		{filepath.Join(home, ".aws/credentials"), []string{"~/.aws"}},
		{filepath.Join(home, ".netrc"), []string{"~/.netrc"}},
		{filepath.Join(state, "policy.conf"), []string{"grip's own state folder"}},
		{"/proc/self/environ", []string{"/proc, the system's own files"}},
		{"/etc/passwd", []string{"/etc"}},
	} {
		_, _, err := h.readUpload(context.Background(), []string{tt.path})
		pe := protocol.AsError(err)
		if err == nil || pe.Code != protocol.CodePolicy || pe.Boundary != protocol.BoundaryPolicy || pe.Hint == "" {
			t.Errorf("%s: %v, want a policy refusal", tt.path, err)
			continue
		}
		for _, p := range tt.parts {
			if !strings.Contains(pe.Message, p) {
				t.Errorf("%s: %q does not say %q", tt.path, pe.Message, p)
			}
		}
	}
	up, _, err := h.readUpload(context.Background(), []string{filepath.Join(home, "Downloads/cv.pdf")})
	if err != nil || string(up.data[0]) != "%PDF" || up.spec.Files[0].Name != "cv.pdf" {
		t.Errorf("~/Downloads/cv.pdf: %v", err)
	}
	// The judged path is the real one: what the question and the record show.
	real, err := h.judgeUploads(context.Background(), []string{link})
	if err == nil || real[0] != home+"/.ssh/id_rsa" {
		t.Errorf("judgeUploads(link) = %q, %v", real, err)
	}
	if d := uploadDetail(real); d != home+"/.ssh/id_rsa" {
		t.Errorf("uploadDetail = %q, want the real path", d)
	}
}

// TestUploadSwappedAfterTheCheck: what is put in the judged file's place
// between the check and the open — a named pipe, a link to a secret, a
// link in place of a folder on its way — is refused, without blocking.
func TestUploadSwappedAfterTheCheck(t *testing.T) {
	home := fakeHome(t)
	// A name that is no secret by itself (a file named id_rsa is refused
	// wherever it lies): what is judged is a plain file.
	secret := filepath.Join(home, ".ssh/config")
	if err := os.WriteFile(secret, []byte("Host *"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		swap func(t *testing.T, file string)
		want string
	}{
		{"pipe", func(t *testing.T, file string) {
			os.Remove(file)
			if err := syscall.Mkfifo(file, 0o600); err != nil {
				t.Fatal(err)
			}
		}, "not a regular file"},
		{"link", func(t *testing.T, file string) {
			os.Remove(file)
			if err := os.Symlink(secret, file); err != nil {
				t.Fatal(err)
			}
		}, "became a link"},
		{"folder", func(t *testing.T, file string) {
			dir := filepath.Dir(file)
			os.Rename(dir, dir+".old")
			if err := os.Symlink(filepath.Dir(secret), dir); err != nil {
				t.Fatal(err)
			}
		}, "changed after it was checked"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "box")
			os.Mkdir(dir, 0o700)
			file := filepath.Join(dir, "config")
			if err := os.WriteFile(file, []byte("fine"), 0o600); err != nil {
				t.Fatal(err)
			}
			testHookBeforeOpen = func(string) { tt.swap(t, file) }
			t.Cleanup(func() { testHookBeforeOpen = nil })
			done := make(chan error, 1)
			go func() {
				_, _, err := (&Host{}).readUpload(context.Background(), []string{file})
				done <- err
			}()
			select {
			case err := <-done:
				pe := protocol.AsError(err)
				if err == nil || pe.Code != protocol.CodeBadRequest || !strings.Contains(pe.Message, tt.want) {
					t.Errorf("err = %v, want bad_request saying %q", err, tt.want)
				}
			case <-time.After(5 * time.Second):
				// Unblock the open so the test process can end.
				if f, err := os.OpenFile(file, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					f.Close()
				}
				t.Fatal("readUpload blocked on what was swapped in")
			}
		})
	}
}

// TestUploadQuestionNamesTheRealFile: the person's question and the
// record of what agents did name the file an upload sends, not the link
// the agent named; a file the policy keeps in is refused, and recorded,
// before the person is asked or anything reaches the page.
func TestUploadQuestionNamesTheRealFile(t *testing.T) {
	home := fakeHome(t)
	g := &guardFake{topURL: "https://shop.example/cart", answer: protocol.ConfirmReply{Allowed: true}}
	c, _ := startGuardHostWith(t, "confirm shop.example\n", protocol.ExtensionHello{}, func(msg protocol.NativeMessage) (any, *protocol.Error) {
		if msg.Type == string(protocol.ExtUploadChunk) {
			return map[string]bool{"ok": true}, nil
		}
		return g.handle(msg)
	})
	cv := filepath.Join(home, "Downloads/cv.pdf")
	link := filepath.Join(t.TempDir(), "resume.pdf")
	if err := os.Symlink(cv, link); err != nil {
		t.Fatal(err)
	}
	if perr := call(t, c, protocol.OpAct, protocol.ActArgs{Action: protocol.ActUpload, Target: "input[type=file]", Files: []string{link}}, nil); perr != nil {
		t.Fatalf("upload: %v", perr)
	}
	secret := filepath.Join(t.TempDir(), "photo.jpg")
	if err := os.Symlink(filepath.Join(home, ".ssh/id_rsa"), secret); err != nil {
		t.Fatal(err)
	}
	perr := call(t, c, protocol.OpAct, protocol.ActArgs{Action: protocol.ActUpload, Target: "input[type=file]", Files: []string{secret}}, nil)
	if perr == nil || perr.Code != protocol.CodePolicy {
		t.Fatalf("upload of a link to ~/.ssh/id_rsa: %v, want policy", perr)
	}
	g.mu.Lock()
	asked, acts := g.asked, g.acts
	g.mu.Unlock()
	if len(asked) != 1 || !strings.Contains(asked[0].Detail, cv) || strings.Contains(asked[0].Detail, "resume.pdf") {
		t.Errorf("questions %+v, want one naming %s", asked, cv)
	}
	if acts != 1 {
		t.Errorf("the page got %d actions, want 1", acts)
	}
	var lg protocol.LogResult
	if perr := call(t, c, protocol.OpLog, protocol.LogArgs{}, &lg); perr != nil {
		t.Fatal(perr)
	}
	if len(lg.Entries) != 2 || lg.Entries[0].Detail != cv || lg.Entries[1].Detail != home+"/.ssh/id_rsa" || lg.Entries[1].Outcome != "policy" {
		t.Errorf("log %+v, want the real files", lg.Entries)
	}
}

// TestScreenshotJudgedAgainAfterTheCapture: a blocked frame that comes in
// between the gate's check and the capture refuses the picture; while
// paused, a screenshot that would bring a tab to the front is refused.
func TestScreenshotJudgedAgainAfterTheCapture(t *testing.T) {
	g := &guardFake{topURL: "https://shop.example/cart"}
	var mu sync.Mutex
	framesAsked, shots := 0, 0
	handle := func(msg protocol.NativeMessage) (any, *protocol.Error) {
		mu.Lock()
		defer mu.Unlock()
		switch msg.Type {
		case string(protocol.ExtFrames):
			framesAsked++
			fr := []protocol.FrameInfo{{FrameID: 0, ParentFrameID: -1, DocumentID: "top", URL: g.topURL}}
			if shots > 0 { // the blocked frame came in with the capture
				fr = append(fr, protocol.FrameInfo{FrameID: 3, ParentFrameID: 0, DocumentID: "card", URL: "https://pay.example/card"})
			}
			return protocol.FramesReply{Frames: fr}, nil
		case string(protocol.ExtScreenshot):
			shots++
			return protocol.ScreenshotReply{Tab: protocol.TabRef{ID: 5, URL: g.topURL}, Data: "iVBORw0KGgo="}, nil
		}
		return g.handle(msg)
	}
	c, _ := startGuardHostWith(t, "block pay.example\n", protocol.ExtensionHello{}, handle)
	perr := call(t, c, protocol.OpScreenshot, protocol.ScreenshotArgs{Tab: 5}, nil)
	if perr == nil || perr.Code != protocol.CodePolicy || !strings.Contains(perr.Message, "frame 3") {
		t.Errorf("screenshot with a blocked frame come in: %+v", perr)
	}
	if shots != 1 {
		t.Fatalf("%d captures, want the one refused after", shots)
	}

	c2, _ := startGuardHostWith(t, "", protocol.ExtensionHello{Paused: true}, g.handle)
	perr = call(t, c2, protocol.OpScreenshot, protocol.ScreenshotArgs{Tab: 6}, nil)
	if perr == nil || perr.Code != protocol.CodePaused || !strings.Contains(perr.Message, "front") {
		t.Errorf("paused screenshot of a tab behind: %+v", perr)
	}
}

// TestUploadOfABlockedSitesDownloadReadsAsMissing: a file the browser
// downloaded from a blocked site — directly, through an allowed site's
// redirect, or as an export a blocked page made — is never uploaded, and
// the refusal reads word for word as the one of a file that does not
// exist, so an agent cannot tell the two apart; a download of an allowed
// site goes through.
func TestUploadOfABlockedSitesDownloadReadsAsMissing(t *testing.T) {
	home := fakeHome(t)
	dl := filepath.Join(home, "Downloads")
	files := map[string]protocol.Download{
		"statement.csv":  {ID: 1, URL: "https://pay.example/statement.csv", Tab: 5},
		"redirected.csv": {ID: 2, URL: "https://pay.example/r.csv", SourceURL: "https://shop.example/go?to=pay", Tab: 5},
		"export.csv":     {ID: 3, URL: "data:text/csv,iban", Tab: 5, Pages: []string{"https://shop.example/cart", "https://pay.example/frame"}},
		"nowhere.csv":    {ID: 4, URL: "data:text/csv,iban"},
		"cart.csv":       {ID: 5, URL: "https://shop.example/cart.csv", Tab: 5},
	}
	g := &guardFake{topURL: "https://shop.example/cart"}
	for name, d := range files {
		d.Path, d.State = filepath.Join(dl, name), "complete"
		g.downloads = append(g.downloads, d)
		if err := os.WriteFile(d.Path, []byte("a,b\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	c, _ := startGuardHostWith(t, "block pay.example\n", protocol.ExtensionHello{}, func(msg protocol.NativeMessage) (any, *protocol.Error) {
		if msg.Type == string(protocol.ExtUploadChunk) {
			return map[string]bool{"ok": true}, nil
		}
		return g.handle(msg)
	})
	upload := func(path string) *protocol.Error {
		return call(t, c, protocol.OpAct, protocol.ActArgs{Action: protocol.ActUpload, Target: "input[type=file]", Files: []string{path}}, nil)
	}
	missing := upload(filepath.Join(dl, "missing.csv"))
	if missing == nil || missing.Code != protocol.CodeNotFound {
		t.Fatalf("upload of a missing file: %v", missing)
	}
	same := func(perr *protocol.Error, path string) bool {
		return perr != nil && perr.Code == missing.Code && perr.Boundary == missing.Boundary && perr.Hint == missing.Hint &&
			strings.ReplaceAll(perr.Message, path, "PATH") == strings.ReplaceAll(missing.Message, filepath.Join(dl, "missing.csv"), "PATH")
	}
	if err := os.WriteFile(filepath.Join(dl, "Unconfirmed 812.crdownload"), []byte("a,b"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"statement.csv", "redirected.csv", "export.csv", "nowhere.csv", "Unconfirmed 812.crdownload"} {
		path := filepath.Join(dl, name)
		if perr := upload(path); !same(perr, path) {
			t.Errorf("upload of %s: %+v, want the refusal of a missing file: %+v", name, perr, missing)
		}
	}
	if perr := upload(filepath.Join(dl, "cart.csv")); perr != nil {
		t.Errorf("upload of an allowed site's download: %v", perr)
	}
	g.mu.Lock()
	acts := g.acts
	g.mu.Unlock()
	if acts != 1 {
		t.Errorf("the page got %d uploads, want 1", acts)
	}
}
