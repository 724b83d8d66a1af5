package e2e

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/internal/browsertest"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpTools are the tools `grip mcp` must list.
var mcpTools = []string{
	"browser_click", "browser_drag", "browser_hover", "browser_navigate",
	"browser_press_key", "browser_select_option", "browser_snapshot",
	"browser_tabs", "browser_take_screenshot", "browser_type", "browser_wait_for",
	"browser_file_upload", "browser_status", "browser_scroll", "browser_record",
}

// mcpClient is a `grip mcp` subprocess with an SDK client session on it.
type mcpClient struct {
	t       *testing.T
	ctx     context.Context
	cs      *sdk.ClientSession
	stderr  *bytes.Buffer
	stopped bool // stop closed it
}

// startMCP launches env.Bin mcp with the env's state dir and initializes.
func startMCP(t *testing.T, args ...string) *mcpClient {
	t.Helper()
	return startMCPIn(t, env.StateDir, args...)
}

// startMCPIn launches env.Bin mcp with GRIP_STATE_DIR=stateDir (a browser
// grip launch started there) and the flags args, and initializes.
func startMCPIn(t *testing.T, stateDir string, args ...string) *mcpClient {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	cmd := exec.Command(env.Bin, append([]string{"mcp"}, args...)...)
	cmd.Env = append(os.Environ(), "GRIP_STATE_DIR="+stateDir)
	stderr := &bytes.Buffer{}
	cmd.Stderr = stderr
	cl := sdk.NewClient(&sdk.Implementation{Name: "grip-e2e", Version: "v0"}, nil)
	cs, err := cl.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("initialize grip mcp: %v\nstderr: %s", err, stderr.String())
	}
	m := &mcpClient{t: t, ctx: ctx, cs: cs, stderr: stderr}
	t.Cleanup(func() {
		if m.stopped {
			return
		}
		if err := cs.Close(); err != nil {
			t.Errorf("close grip mcp: %v\nstderr: %s", err, stderr.String())
		}
		if stderr.Len() > 0 {
			t.Logf("grip mcp stderr:\n%s", stderr.String())
		}
	})
	return m
}

// stop ends the MCP server, as its client does on a restart.
func (m *mcpClient) stop() {
	m.t.Helper()
	m.stopped = true
	if err := m.cs.Close(); err != nil {
		m.t.Errorf("close grip mcp: %v\nstderr: %s", err, m.stderr.String())
	}
}

// call runs a tool and returns its text and whether it is a tool error.
func (m *mcpClient) call(name string, args map[string]any) (string, bool) {
	m.t.Helper()
	res, err := m.cs.CallTool(m.ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		m.t.Fatalf("%s: %v\nstderr: %s", name, err, m.stderr.String())
	}
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n"), res.IsError
}

// must runs a tool and fails the test on a tool error.
func (m *mcpClient) must(name string, args map[string]any) string {
	m.t.Helper()
	text, isErr := m.call(name, args)
	if isErr {
		m.t.Fatalf("%s %v: tool error: %s", name, args, text)
	}
	return text
}

// mcpRefOf finds the ref of the snapshot line that ends with element.
func mcpRefOf(t *testing.T, snap, element string) string {
	t.Helper()
	m := regexp.MustCompile(`(@e[0-9]+): ` + regexp.QuoteMeta(element)).FindStringSubmatch(snap)
	if m == nil {
		t.Fatalf("snapshot has no ref for %s:\n%s", element, snap)
	}
	return m[1]
}

// An MCP client drives the real browser through `grip mcp`: snapshot,
// click by ref, see the page change, and have a stale ref refused.
func TestMCPDrivesTheBrowser(t *testing.T) {
	browsertest.Need(t, env)
	m := startMCP(t)
	if info := m.cs.InitializeResult().ServerInfo; info.Name != "grip" {
		t.Errorf("server name = %q, want grip", info.Name)
	}
	list, err := m.cs.ListTools(m.ctx, nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
		if tool.InputSchema == nil || tool.Description == "" {
			t.Errorf("%s has no schema or description", tool.Name)
		}
	}
	for _, want := range mcpTools {
		if !slices.Contains(names, want) {
			t.Fatalf("no tool %s among %v", want, names)
		}
	}

	tab := env.OpenTab(t, env.Origin1+"/mcp.html")
	snap := m.must("browser_snapshot", map[string]any{"tab": tab})
	ref := mcpRefOf(t, snap, "[button 'Count click']")
	if !strings.Contains(snap, "MCP Fixture") {
		t.Errorf("snapshot header lacks the title:\n%s", snap)
	}

	// A Playwright-style bare ref (e3) names the same element.
	clicked := m.must("browser_click", map[string]any{"ref": strings.TrimPrefix(ref, "@"), "element": "Count click button"})
	if !strings.Contains(clicked, "Clicked "+ref) {
		t.Errorf("click reply does not say what was done:\n%s", clicked)
	}
	m.must("browser_wait_for", map[string]any{"text": "clicked 1", "tab": tab, "timeout": 5})
	content := m.must("browser_snapshot", map[string]any{"tab": tab, "mode": "content"})
	if !strings.Contains(content, "clicked 1") {
		t.Errorf("content snapshot does not show the click:\n%s", content)
	}
	if again := m.must("browser_snapshot", map[string]any{"tab": tab}); !strings.Contains(again, ref+": [button 'Count click']") {
		t.Errorf("the button's ref changed after a click (want %s):\n%s", ref, again)
	}

	shot, err := m.cs.CallTool(m.ctx, &sdk.CallToolParams{Name: "browser_take_screenshot", Arguments: map[string]any{"tab": tab}})
	if err != nil {
		t.Fatal(err)
	}
	if shot.IsError {
		t.Errorf("screenshot: tool error %v", shot.Content[0].(*sdk.TextContent).Text)
	} else if !hasPNG(shot) {
		t.Errorf("screenshot has no PNG image content: %v", shot.Content)
	}

	// Another document: the old ref is stale and acting on it is refused.
	nav := m.must("browser_navigate", map[string]any{"url": env.Origin1 + "/mcp2.html", "tab": tab})
	if !strings.Contains(nav, "mcp2.html") {
		t.Errorf("navigate reply lacks the new URL:\n%s", nav)
	}
	text, isErr := m.call("browser_click", map[string]any{"ref": ref})
	if !isErr {
		t.Fatalf("click on %s after navigating away was not refused: %s", ref, text)
	}
	if !strings.Contains(text, "stale_ref") && !strings.Contains(text, "unknown_ref") {
		t.Errorf("refusal does not name stale_ref/unknown_ref: %s", text)
	}
	if !strings.Contains(text, ref) {
		t.Errorf("refusal does not name the ref %s: %s", ref, text)
	}
	t.Logf("snapshot:\n%s\nclick:\n%s\nnavigate:\n%s\nstale refusal: %s", snap, clicked, nav, text)
}

// The form tools reach the page: type+submit, fill, select, check, press,
// hover, wait for text to go, tabs and back.
func TestMCPFormTools(t *testing.T) {
	browsertest.Need(t, env)
	m := startMCP(t)
	tab := env.OpenTab(t, env.Origin1+"/mcp.html")
	snap := m.must("browser_snapshot", map[string]any{"tab": tab})
	name := mcpRefOf(t, snap, "[textbox 'Name'")
	color := mcpRefOf(t, snap, "[combobox 'Color'")
	agree := mcpRefOf(t, snap, "[checkbox 'Agree'")
	button := mcpRefOf(t, snap, "[button 'Count click']")

	steps := []struct {
		tool string
		args map[string]any
		wait string // text on the page afterwards
	}{
		{"browser_type", map[string]any{"ref": name, "text": "Ada", "submit": true}, "sent Ada"},
		{"browser_select_option", map[string]any{"ref": color, "values": []string{"Blue"}}, "picked b"},
		{"browser_click", map[string]any{"ref": agree, "checked": true}, "agreed"},
		{"browser_type", map[string]any{"ref": name, "text": "Grace", "replace": true}, ""},
		{"browser_press_key", map[string]any{"ref": name, "key": "Enter"}, "sent Grace"},
		{"browser_hover", map[string]any{"ref": button}, ""},
	}
	for _, s := range steps {
		out := m.must(s.tool, s.args)
		t.Logf("%s: %s", s.tool, out)
		if s.wait != "" {
			m.must("browser_wait_for", map[string]any{"text": s.wait, "tab": tab, "timeout": 5})
		}
	}
	if after := m.must("browser_snapshot", map[string]any{"tab": tab}); !strings.Contains(after, name+": [textbox 'Name' value='Grace'") {
		t.Errorf("fill did not show in the snapshot:\n%s", after)
	}
	m.must("browser_wait_for", map[string]any{"textGone": "Loading data", "tab": tab, "timeout": 10})

	tabs := m.must("browser_tabs", map[string]any{"action": "list"})
	if !strings.Contains(tabs, fmt.Sprintf("tab %d", tab)) {
		t.Errorf("browser_tabs list lacks tab %d:\n%s", tab, tabs)
	}
	m.must("browser_navigate", map[string]any{"url": env.Origin1 + "/mcp2.html", "tab": tab})
	back := m.must("browser_navigate", map[string]any{"action": "back", "tab": tab})
	if !strings.Contains(back, "/mcp.html") {
		t.Errorf("back did not return to mcp.html:\n%s", back)
	}
}

func hasPNG(res *sdk.CallToolResult) bool {
	for _, c := range res.Content {
		if img, ok := c.(*sdk.ImageContent); ok {
			return img.MIMEType == "image/png" && bytes.HasPrefix(img.Data, []byte("\x89PNG"))
		}
	}
	return false
}

// Without a browser, a tool call fails with no_browser as a tool error
// (after the wait), and nothing but MCP messages reaches stdout.
func TestMCPWithoutBrowser(t *testing.T) {
	bin := env.BinOrSkip(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.Command(bin, "mcp", "--wait", "300ms")
	cmd.Env = append(os.Environ(), "GRIP_STATE_DIR="+t.TempDir())
	cl := sdk.NewClient(&sdk.Implementation{Name: "grip-e2e", Version: "v0"}, nil)
	cs, err := cl.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "browser_snapshot"})
	if err != nil {
		t.Fatalf("call: %v", err)
	}
	var text string
	if len(res.Content) > 0 {
		if tc, ok := res.Content[0].(*sdk.TextContent); ok {
			text = tc.Text
		}
	}
	if !res.IsError || !strings.HasPrefix(text, "no_browser") {
		t.Errorf("result = %v %q, want a no_browser tool error", res.IsError, text)
	}
}

// Over MCP a snapshot's budget is what the client reads (the header lines
// it is not sent cost nothing), a new tab's reply says it once, and a
// refusal names tools, not CLI commands.
func TestMCPBudgetAndWording(t *testing.T) {
	browsertest.Need(t, env)
	m := startMCP(t)
	opened := m.must("browser_tabs", map[string]any{"action": "new", "url": env.Origin1 + "/many.html?n=300"})
	if strings.Count(strings.ToLower(opened), "opened tab") != 1 {
		t.Errorf("browser_tabs new says it twice:\n%s", opened)
	}
	var tab int
	if _, err := fmt.Sscanf(opened, "Opened tab %d", &tab); err != nil {
		t.Fatalf("browser_tabs new: %v\n%s", err, opened)
	}
	waitUntil := time.Now().Add(10 * time.Second)
	for !strings.Contains(m.must("browser_snapshot", map[string]any{"tab": tab, "budget": 100}), "Item number 0") && time.Now().Before(waitUntil) {
		time.Sleep(100 * time.Millisecond)
	}
	const budget, line = 100, 12 // a line of this page costs at most 12 tokens
	for i := 0; i < 2; i++ {     // the first names the tab, the second not
		snap := m.must("browser_snapshot", map[string]any{"tab": tab, "budget": budget})
		cost := 0
		for _, l := range strings.Split(strings.TrimSuffix(snap, "\n"), "\n") {
			cost += frames.Cost(l)
		}
		if cost > budget || cost <= budget-line {
			t.Errorf("browser_snapshot budget=%d: the text costs %d tokens, want the budget's worth (%d–%d):\n%s", budget, cost, budget-line+1, budget, snap)
		}
	}
	text, isErr := m.call("browser_handle_dialog", map[string]any{"accept": true, "tab": tab})
	if !isErr || !strings.HasPrefix(text, "not_actionable") || strings.Contains(text, "grip ") {
		t.Errorf("browser_handle_dialog with no dialog open:\n%s", text)
	}
	t.Logf("tabs new: %s\nhandle_dialog: %s", opened, text)
}

// TestMCPWholePageIsTheSocketsText: a whole page's browser_snapshot, a
// text large enough that grip mcp splices it into its reply line
// (mcp/splice.go), lists the same lines as the socket's snapshot.
func TestMCPWholePageIsTheSocketsText(t *testing.T) {
	browsertest.Need(t, env)
	tab := env.OpenTab(t, env.Origin1+"/many.html?n=2000")
	socket := snapshot(t, tab, "--budget", "1000000")
	m := startMCP(t)
	text := m.must("browser_snapshot", map[string]any{"tab": tab, "budget": 1000000})
	lines := func(s string) []string {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			if strings.HasPrefix(l, "@e") {
				out = append(out, l)
			}
		}
		return out
	}
	want, got := lines(socket.Text), lines(text)
	if len(text) < 32<<10 || len(want) < 2000 || !slices.Equal(got, want) {
		t.Fatalf("browser_snapshot: %d bytes, %d element lines; the socket's snapshot %d lines\n%.500s", len(text), len(got), len(want), text)
	}
}
