package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/grip-dev/grip/extension"
	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/manifest"
)

// An extension left from another build of grip (an update not yet
// reloaded) works, and says so where the person and the agent look: on
// the CLI's stderr and in the popup, with the fix.
func TestExtensionFromAnotherBuildWarns(t *testing.T) {
	browsertest.Need(t, env)
	dir := t.TempDir()
	if err := os.CopyFS(dir, extension.Files()); err != nil {
		t.Fatal(err)
	}
	mf := filepath.Join(dir, "manifest.json")
	var m map[string]any
	if err := json.Unmarshal(readFile(t, mf), &m); err != nil {
		t.Fatal(err)
	}
	m["version_name"] = "0.0.9 build 000000000000"
	b, _ := json.Marshal(m)
	if err := os.WriteFile(mf, b, 0o644); err != nil {
		t.Fatal(err)
	}
	fixtures, err := fs.Sub(testdata, "testdata")
	if err != nil {
		t.Fatal(err)
	}
	e, err := browsertest.Start(browsertest.Options{Fixtures: fixtures, Bin: env.Bin, Extension: os.DirFS(dir)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := e.Close(); err != nil {
			t.Error(err)
		}
	})
	r := e.Grip(context.Background(), "tabs", "--wait", "30s")
	if r.Code != 0 {
		t.Fatalf("grip tabs: exit %d %s", r.Code, r.Stderr)
	}
	if !strings.Contains(r.Stderr, "warning: the extension (build 000000000000)") || !strings.Contains(r.Stderr, "grip install") {
		t.Errorf("grip tabs said nothing of the other build: %q", r.Stderr)
	}

	id, err := manifest.ExtensionID(extension.ManifestJSON)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := chromedp.NewContext(e.BrowserContext())
	defer cancel()
	tctx, tcancel := context.WithTimeout(ctx, 30*time.Second)
	defer tcancel()
	if _, err := chromedp.Run(tctx, chromedp.Navigate(fmt.Sprintf("chrome-extension://%s/popup/popup.html", id))); err != nil {
		t.Fatal(err)
	}
	var shown string
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		shown, err = chromedp.Run(tctx, chromedp.Evaluate[string](`(() => { const w = document.getElementById('build-warning'); return w && !w.hidden ? w.textContent : ''; })()`))
		if err == nil && shown != "" {
			break
		}
	}
	if !strings.Contains(shown, "different builds") || !strings.Contains(shown, "grip install") {
		t.Errorf("the popup's warning: %q", shown)
	}
}
