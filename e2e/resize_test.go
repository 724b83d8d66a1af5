package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/internal/browsertest"
	"github.com/grip-dev/grip/protocol"
)

// The browser grip launch starts has a desktop's window, 1280x800 unless
// told otherwise; grip resize and MCP browser_resize change it there, and
// never a window of the person's own browser (docs/window-size.md,
// "Window size").
func TestLaunchedWindowSize(t *testing.T) {
	browsertest.Need(t, env)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	_, state := launchHeadless(t, ctx, env.Origin1+"/home.html")
	grip := func(args ...string) browsertest.Result { return runGripEnv(ctx, state, nil, args...) }
	width := func() int {
		t.Helper()
		out := filepath.Join(t.TempDir(), "view.png")
		if r := grip("screenshot", "-o", out); r.Code != 0 {
			t.Fatalf("screenshot: exit %d %s", r.Code, r.Stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		return cfg.Width
	}
	if w := width(); w < 1200 {
		t.Errorf("the launched browser's viewport is %d px wide: a phone's layout", w)
	}
	r := grip("resize", "1024", "700", "--json")
	var res protocol.ResizeResult
	if err := json.Unmarshal([]byte(r.Stdout), &res); err != nil || r.Code != 0 {
		t.Fatalf("grip resize: exit %d %s %s", r.Code, r.Stdout, r.Stderr)
	}
	if res.Width != 1024 || res.Height != 700 || res.ViewportWidth < 1000 || res.ViewportWidth > 1024 {
		t.Errorf("after grip resize 1024 700: %+v", res)
	}
	if w := width(); w < 1000 || w > 1024 {
		t.Errorf("the viewport after the resize is %d px wide", w)
	}
	m := startMCPIn(t, state)
	if text := m.must("browser_resize", map[string]any{"width": 1300, "height": 820}); !strings.Contains(text, "is 1300x820") {
		t.Errorf("browser_resize: %s", text)
	}
	if r := grip("resize", "100", "100"); r.Code != 2 && r.Code != 1 || !strings.Contains(r.Stderr+r.Stdout, "width of 320") {
		t.Errorf("a resize too small: exit %d %s%s", r.Code, r.Stdout, r.Stderr)
	}
}

// In the person's own browser a resize is refused: the tab's window holds
// the person's tabs.
func TestResizeRefusesThePersonsWindow(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/home.html")
	r := env.Grip(context.Background(), "resize", "1024", "700", "--tab", fmt.Sprint(tab), "--json")
	var out struct {
		Error *protocol.Error `json:"error"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &out); err != nil || out.Error == nil {
		t.Fatalf("resize in the person's browser: exit %d %q", r.Code, r.Stdout)
	}
	if out.Error.Code != protocol.CodePolicy || !strings.Contains(out.Error.Message, "never resizes the person's own windows") {
		t.Errorf("resize in the person's browser: %+v", out.Error)
	}
}
