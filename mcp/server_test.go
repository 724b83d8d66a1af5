package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/grip-dev/grip/client"
	"github.com/grip-dev/grip/protocol"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// call is one operation the fake host received.
type call struct {
	Op   string
	Args any
}

// fakeHost is a Caller that records calls and answers from reply.
type fakeHost struct {
	mu     sync.Mutex
	calls  []call                                 // guarded by mu
	reply  func(op string, args any) (any, error) // nil: the default answers
	closed int                                    // guarded by mu
}

func (f *fakeHost) Call(_ context.Context, op string, args, result any) error {
	f.mu.Lock()
	f.calls = append(f.calls, call{op, args})
	reply := f.reply
	f.mu.Unlock()
	if reply == nil {
		reply = defaultReply
	}
	v, err := reply(op, args)
	if err != nil {
		return err
	}
	if result == nil || v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, result)
}

func (f *fakeHost) Close() error {
	f.mu.Lock()
	f.closed++
	f.mu.Unlock()
	return nil
}

func (f *fakeHost) takeCalls() []call {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := f.calls
	f.calls = nil
	return c
}

const snapText = "Tab 7 · Fixture · http://x.test/\n=== Frame: 0 (Top: http://x.test/) ===\n@e1: [button 'Go']\n"

var (
	fakePNG  = []byte("\x89PNG\r\n\x1a\nfake")
	fakeTabs = []protocol.Tab{
		{ID: 7, URL: "http://x.test/", Title: "Fixture", Active: true, Default: true},
		{ID: 9, URL: "http://y.test/", Title: "Other"},
	}
	fakeAct = protocol.ActionResult{OK: true, Tab: protocol.TabRef{ID: 7, URL: "http://x.test/", Title: "Fixture"},
		Changes: protocol.Changes{URL: "http://x.test/", Title: "Fixture", Added: []string{"@e9"}, Gone: []string{"@e4"}}}
	fakeDownload = protocol.Download{ID: 3, Path: "/home/me/Downloads/a.csv", Filename: "a.csv", Bytes: 12, State: "complete",
		URL: "http://x.test/a.csv", Tab: 7}
)

func defaultReply(op string, args any) (any, error) {
	switch op {
	case protocol.OpSnapshot:
		return protocol.Snapshot{Tab: protocol.TabRef{ID: 7}, Text: snapText}, nil
	case protocol.OpAct:
		res := fakeAct
		if a := args.(protocol.ActArgs); a.Snapshot {
			res.Snapshot = &protocol.Snapshot{Text: snapText}
		}
		return res, nil
	case protocol.OpWait:
		res := fakeAct
		if args.(protocol.WaitArgs).Download {
			res.Download = &fakeDownload
		}
		return res, nil
	case protocol.OpTabs:
		return protocol.TabsResult{Tabs: fakeTabs}, nil
	case protocol.OpScreenshot:
		return protocol.ScreenshotResult{Tab: protocol.TabRef{ID: 7, URL: "http://x.test/", Title: "Fixture"}, PNG: fakePNG}, nil
	case protocol.OpDownloads:
		return protocol.DownloadsResult{Downloads: []protocol.Download{fakeDownload}}, nil
	}
	return nil, fmt.Errorf("fake: unexpected op %q", op)
}

// harness is a Server on a fakeHost, with an SDK client connected in memory.
type harness struct {
	host     *fakeHost
	cs       *sdk.ClientSession
	mu       sync.Mutex
	connects int        // guarded by mu
	connErr  error      // guarded by mu; returned by the next connect
	client   string     // guarded by mu; ClientName of the last connect
	done     chan error // Run's result
}

func newHarness(t *testing.T) *harness {
	t.Helper()
	return newHarnessWith(t, Options{})
}

// newHarnessWith is newHarness with opt (its Version is set).
func newHarnessWith(t *testing.T, opt Options) *harness {
	t.Helper()
	opt.Version = "test"
	if opt.OutputDir == "" { // never the machine's own state folder
		opt.OutputDir = filepath.Join(t.TempDir(), "output")
	}
	h := &harness{host: &fakeHost{}, done: make(chan error, 1)}
	srv := New(func(ctx context.Context) (Caller, error) {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.connects++
		h.client = ClientName(ctx)
		if err := h.connErr; err != nil {
			h.connErr = nil
			return nil, err
		}
		return h.host, nil
	}, opt)
	// The SDK's own client over a pipe pair: grip's server is checked
	// against the reference implementation of the protocol.
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		h.done <- srv.Serve(ctx, inR, outW)
		outW.Close()
	}()
	cl := sdk.NewClient(&sdk.Implementation{Name: "grip-test", Version: "v0"}, nil)
	cs, err := cl.Connect(ctx, &sdk.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		cancel()
		t.Fatalf("connect: %v", err)
	}
	h.cs = cs
	t.Cleanup(func() {
		cs.Close()
		select {
		case err := <-h.done:
			if err != nil {
				t.Errorf("Run: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Errorf("Run did not return after the client closed")
		}
		cancel()
	})
	return h
}

func (h *harness) connectCount() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.connects
}

func (h *harness) callTool(t *testing.T, name string, args map[string]any) *sdk.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := h.cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res
}

// text joins a result's text contents.
func text(res *sdk.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// toolNames are tools named like Playwright MCP's, which agents know;
// every tool is also named in VerbTools (package cli checks it against the
// CLI's verbs).
var toolNames = []string{
	"browser_click", "browser_drag", "browser_file_upload", "browser_handle_dialog", "browser_hover", "browser_navigate",
	"browser_press_key", "browser_select_option", "browser_snapshot",
	"browser_tabs", "browser_take_screenshot", "browser_type", "browser_wait_for",
}

func TestToolsAreListedWithSchemas(t *testing.T) {
	h := newHarness(t)
	res, err := h.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*sdk.Tool{}
	var names []string
	for _, tool := range res.Tools {
		byName[tool.Name] = tool
		names = append(names, tool.Name)
	}
	for _, want := range toolNames {
		if !slices.Contains(names, want) {
			t.Errorf("no tool %s among %v", want, names)
		}
	}
	for _, name := range names {
		found := Composites()[name] != nil
		for _, tool := range VerbTools() {
			found = found || tool == name
		}
		if !found {
			t.Errorf("%s is not in VerbTools", name)
		}
	}
	for tool, verbs := range Composites() {
		for _, v := range verbs {
			if VerbTools()[v] == "" {
				t.Errorf("%s stands for %s, which has no tool of its own", tool, v)
			}
		}
	}
	for _, tool := range res.Tools {
		if len(tool.Description) < 30 {
			t.Errorf("%s: description too short for a model: %q", tool.Name, tool.Description)
		}
		schema, ok := tool.InputSchema.(map[string]any)
		if !ok || schema["type"] != "object" {
			t.Errorf("%s: input schema %v is not an object schema", tool.Name, tool.InputSchema)
			continue
		}
		props, _ := schema["properties"].(map[string]any)
		for name, p := range props {
			d, _ := p.(map[string]any)["description"].(string)
			_, enum := p.(map[string]any)["enum"]
			shared := slices.Contains(sharedParams, name)
			if d == "" && !shared && !enum {
				t.Errorf("%s: property %s has no description (and is no shared parameter, no enum)", tool.Name, name)
			}
		}
	}
	// The shared parameters are described once, in the instructions.
	for _, name := range sharedParams {
		if !strings.Contains(h.cs.InitializeResult().Instructions, name) {
			t.Errorf("the instructions do not describe the shared parameter %s", name)
		}
	}
	required := map[string][]string{
		"browser_snapshot":        nil,
		"browser_click":           {"ref"},
		"browser_type":            {"ref", "text"},
		"browser_select_option":   {"ref"},
		"browser_press_key":       {"key"},
		"browser_hover":           {"ref"},
		"browser_drag":            {"endRef", "startRef"},
		"browser_navigate":        nil,
		"browser_tabs":            {"action"},
		"browser_wait_for":        nil,
		"browser_take_screenshot": nil,
		"browser_handle_dialog":   {"accept"},
		"browser_file_upload":     {"paths", "ref"},
		"browser_status":          nil,
		"browser_pause":           nil,
		"browser_record":          {"action"},
		"browser_scroll":          nil,
	}
	for name, want := range required {
		schema := byName[name].InputSchema.(map[string]any)
		var got []string
		if r, ok := schema["required"].([]any); ok {
			for _, v := range r {
				got = append(got, v.(string))
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%s: required = %v, want %v", name, got, want)
		}
	}
	props := func(tool, prop string) map[string]any {
		return byName[tool].InputSchema.(map[string]any)["properties"].(map[string]any)[prop].(map[string]any)
	}
	if e := fmt.Sprint(props("browser_snapshot", "mode")["enum"]); e != "[interactive content]" {
		t.Errorf("snapshot mode enum = %s", e)
	}
	if e := fmt.Sprint(props("browser_tabs", "action")["enum"]); e != "[list new close select]" {
		t.Errorf("tabs action enum = %s", e)
	}
	for _, p := range []string{"element", "ref", "doubleClick", "trusted", "snapshot", "tab"} {
		if props("browser_click", p) == nil {
			t.Errorf("browser_click lacks %s", p)
		}
	}
	// What a target may be is said once, in the instructions; each ref
	// points there.
	if ins := h.cs.InitializeResult().Instructions; !strings.Contains(ins, `a bare "e3" is read as @e3`) || !strings.Contains(ins, "frame chain") {
		t.Errorf("instructions do not define a target (the e3 mapping, frame chains):\n%s", ins)
	}
	if d := props("browser_click", "ref")["description"].(string); !strings.Contains(d, "see Targets") {
		t.Errorf("ref description does not point at the instructions' Targets: %s", d)
	}
	if !byName["browser_snapshot"].Annotations.ReadOnlyHint {
		t.Error("browser_snapshot is not marked read-only")
	}
	if h.connectCount() != 0 {
		t.Errorf("listing tools connected to the host %d time(s); it should wait for a tool call", h.connectCount())
	}
}

func TestToolsMapToOps(t *testing.T) {
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		tool     string
		args     map[string]any
		want     []call
		contains []string
	}{
		{"browser_snapshot", nil,
			[]call{{protocol.OpSnapshot, protocol.SnapshotArgs{Mode: "interactive", Budget: 40000, TextOnly: true, Since: &protocol.TabRef{}}}}, nil},
		{"browser_snapshot", map[string]any{"mode": "content", "budget": 500, "after": "e40", "tab": 7},
			[]call{{protocol.OpSnapshot, protocol.SnapshotArgs{Tab: 7, Mode: "content", Budget: 500, After: "@e40", TextOnly: true,
				Since: &protocol.TabRef{ID: 7}}}}, nil}, // the snapshot before it told of tab 7
		{"browser_click", map[string]any{"ref": "e3", "element": "Go button"},
			[]call{{protocol.OpAct, protocol.ActArgs{Action: "click", Target: "@e3"}}},
			[]string{"Clicked @e3 (Go button)", "Tab 7 · 'Fixture' · http://x.test/", "added: @e9", "gone: @e4"}},
		{"browser_click", map[string]any{"ref": "@e3", "doubleClick": true, "trusted": true},
			[]call{{protocol.OpAct, protocol.ActArgs{Action: "dblclick", Target: "@e3", Trusted: true}}},
			[]string{"Double-clicked @e3"}},
		{"browser_click", map[string]any{"ref": "@e3", "button": "right", "at": map[string]any{"x": 4, "y": 5}},
			[]call{{protocol.OpAct, protocol.ActArgs{Action: "rightclick", Target: "@e3", At: &protocol.Spot{X: 4, Y: 5}}}},
			[]string{"Right-clicked @e3 at 4,5"}},
		{"browser_click", map[string]any{"ref": "@e3", "button": "left"},
			[]call{{protocol.OpAct, protocol.ActArgs{Action: "click", Target: "@e3"}}},
			[]string{"Clicked @e3"}},
		{"browser_click", map[string]any{"ref": "iframe#pay >>> button.go"},
			[]call{{protocol.OpAct, protocol.ActArgs{Action: "click", Target: "iframe#pay >>> button.go"}}}, nil},
		{"browser_click", map[string]any{"ref": "e0"}, // not a ref: passed on for grip to judge
			[]call{{protocol.OpAct, protocol.ActArgs{Action: "click", Target: "e0"}}}, nil},
		{"browser_click", map[string]any{"ref": "@e3", "snapshot": true},
			[]call{{protocol.OpAct, protocol.ActArgs{Action: "click", Target: "@e3", Snapshot: true, Budget: 40000}}},
			[]string{"Clicked @e3", "@e1: [button 'Go']"}},
		{"browser_type", map[string]any{"ref": "e5", "text": "hello"},
			[]call{{protocol.OpAct, protocol.ActArgs{Action: "type", Target: "@e5", Text: "hello"}}},
			[]string{`Typed 5 characters into @e5`}},
		{"browser_type", map[string]any{"ref": "e5", "text": "hello", "submit": true},
			[]call{
				{protocol.OpAct, protocol.ActArgs{Action: "type", Target: "@e5", Text: "hello"}},
				{protocol.OpAct, protocol.ActArgs{Action: "press", Target: "@e5", Text: "Enter"}},
			},
			[]string{"and pressed Enter"}},
		{"browser_type", map[string]any{"ref": "e5", "text": "a@b.c", "replace": true},
			[]call{{protocol.OpAct, protocol.ActArgs{Action: "fill", Target: "@e5", Text: "a@b.c"}}},
			[]string{`Filled @e5 (5 characters)`}},
		{"browser_type", map[string]any{"ref": "e5", "text": "a@b.c", "replace": true, "submit": true},
			[]call{
				{protocol.OpAct, protocol.ActArgs{Action: "fill", Target: "@e5", Text: "a@b.c"}},
				{protocol.OpAct, protocol.ActArgs{Action: "press", Target: "@e5", Text: "Enter"}},
			},
			[]string{`Filled @e5 (5 characters) and pressed Enter`}},
		{"browser_select_option", map[string]any{"ref": "e6", "values": []string{"France", "Spain"}},
			[]call{{protocol.OpAct, protocol.ActArgs{Action: "select", Target: "@e6", Text: "France"}}},
			[]string{`Selected "France" in @e6`, "1 more value(s) ignored"}},
		{"browser_select_option", map[string]any{"ref": "e6", "value": "fr"},
			[]call{{protocol.OpAct, protocol.ActArgs{Action: "select", Target: "@e6", Text: "fr"}}}, nil},
		{"browser_click", map[string]any{"ref": "e4", "checked": true},
			[]call{{protocol.OpAct, protocol.ActArgs{Action: "check", Target: "@e4"}}}, []string{"Checked @e4"}},
		{"browser_click", map[string]any{"ref": "e4", "checked": false, "trusted": true},
			[]call{{protocol.OpAct, protocol.ActArgs{Action: "uncheck", Target: "@e4", Trusted: true}}}, []string{"Unchecked @e4"}},
		{"browser_press_key", map[string]any{"key": "Enter"},
			[]call{{protocol.OpAct, protocol.ActArgs{Action: "press", Text: "Enter"}}}, []string{"Pressed Enter"}},
		{"browser_press_key", map[string]any{"key": "Control+A", "ref": "e2"},
			[]call{{protocol.OpAct, protocol.ActArgs{Action: "press", Target: "@e2", Text: "Control+A"}}},
			[]string{"Pressed Control+A in @e2"}},
		{"browser_hover", map[string]any{"ref": "e8"},
			[]call{{protocol.OpAct, protocol.ActArgs{Action: "hover", Target: "@e8"}}}, []string{"Hovered over @e8"}},
		{"browser_hover", map[string]any{"ref": "e8", "focus": true},
			[]call{{protocol.OpAct, protocol.ActArgs{Action: "focus", Target: "@e8"}}}, []string{"Focused @e8"}},
		{"browser_scroll", map[string]any{"up": true},
			[]call{{protocol.OpAct, protocol.ActArgs{Action: "scroll", Text: "up"}}}, []string{"Scrolled the page"}},
		{"browser_scroll", map[string]any{"ref": "e8"},
			[]call{{protocol.OpAct, protocol.ActArgs{Action: "scroll", Target: "@e8"}}}, []string{"Scrolled @e8 into view"}},
		{"browser_scroll", map[string]any{"text": "ORD-1500", "ref": "e2"},
			[]call{{protocol.OpAct, protocol.ActArgs{Action: "find", Target: "@e2", Text: "ORD-1500"}}}, []string{"Found in @e2"}},
		{"browser_drag", map[string]any{"startRef": "e3", "endRef": "@e7", "endElement": "Done column"},
			[]call{{protocol.OpAct, protocol.ActArgs{Action: "drag", Target: "@e3", To: "@e7"}}}, []string{"Dragged @e3 onto @e7 (Done column)"}},
		{"browser_navigate", map[string]any{"url": "http://y.test/"},
			[]call{{protocol.OpAct, protocol.ActArgs{Action: "navigate", Text: "http://y.test/"}}},
			[]string{"Navigated to http://y.test/"}},
		{"browser_navigate", map[string]any{"action": "back"},
			[]call{{protocol.OpAct, protocol.ActArgs{Action: "back"}}}, []string{"Went back"}},
		{"browser_navigate", map[string]any{"action": "forward", "tab": 7},
			[]call{{protocol.OpAct, protocol.ActArgs{Action: "forward", Tab: 7}}}, []string{"Went forward"}},
		{"browser_navigate", map[string]any{"action": "reload"},
			[]call{{protocol.OpAct, protocol.ActArgs{Action: "reload"}}}, []string{"Reloaded"}},
		{"browser_tabs", map[string]any{"action": "list"},
			[]call{{protocol.OpTabs, struct{}{}}},
			[]string{"- 0: tab 7 (default) · 'Fixture' · http://x.test/", "- 1: tab 9 · 'Other' · http://y.test/"}},
		{"browser_tabs", map[string]any{"action": "new", "url": "http://y.test/"},
			[]call{{protocol.OpAct, protocol.ActArgs{Action: "tab_new", Text: "http://y.test/"}}}, []string{"Opened tab 7"}},
		{"browser_tabs", map[string]any{"action": "select", "index": 1},
			[]call{{protocol.OpTabs, struct{}{}}, {protocol.OpAct, protocol.ActArgs{Action: "tab_select", Tab: 9}}},
			[]string{"Selected tab 9"}},
		{"browser_tabs", map[string]any{"action": "close", "tab": 9},
			[]call{{protocol.OpAct, protocol.ActArgs{Action: "tab_close", Tab: 9}}}, []string{"Closed tab 9"}},
		{"browser_wait_for", map[string]any{"text": "clicked 1"},
			[]call{{protocol.OpWait, protocol.WaitArgs{Text: "clicked 1", TimeoutMS: 10000}}},
			[]string{`"clicked 1" is on the page`}},
		{"browser_wait_for", map[string]any{"time": 0.5},
			[]call{{protocol.OpWait, protocol.WaitArgs{MS: 500}}}, []string{"waited 0.5s"}},
		{"browser_wait_for", map[string]any{"url": "/done", "timeout": 2, "tab": 7},
			[]call{{protocol.OpWait, protocol.WaitArgs{Tab: 7, URL: "/done", TimeoutMS: 2000}}}, nil},
		{"browser_wait_for", map[string]any{"textGone": "e5"},
			[]call{{protocol.OpWait, protocol.WaitArgs{Gone: "@e5", TimeoutMS: 10000}}}, []string{`"e5" is gone`}},
		{"browser_take_screenshot", nil,
			[]call{{protocol.OpScreenshot, protocol.ScreenshotArgs{}}}, []string{"Screenshot of tab 7"}},
		{"browser_handle_dialog", map[string]any{"accept": true, "promptText": "Alice"},
			[]call{{protocol.OpAct, protocol.ActArgs{Action: "dialog_accept", Text: "Alice"}}}, []string{"Accepted the dialog"}},
		{"browser_handle_dialog", map[string]any{"accept": false, "tab": 9},
			[]call{{protocol.OpAct, protocol.ActArgs{Action: "dialog_dismiss", Tab: 9}}}, []string{"Dismissed the dialog"}},
		{"browser_file_upload", map[string]any{"ref": "e2", "paths": []string{"/tmp/a.txt", "b.txt"}, "element": "Attach"},
			[]call{{protocol.OpAct, protocol.ActArgs{Action: "upload", Target: "@e2", Files: []string{"/tmp/a.txt", filepath.Join(cwd, "b.txt")}}}},
			[]string{"Uploaded a.txt, b.txt into @e2 (Attach)"}},
		{"browser_status", map[string]any{"show": "downloads", "limit": 5},
			[]call{{protocol.OpDownloads, protocol.DownloadsArgs{Limit: 5}}},
			[]string{"- 3: complete, 12 bytes, tab 7 · /home/me/Downloads/a.csv · http://x.test/a.csv"}},
		{"browser_wait_for", map[string]any{"download": true, "timeout": 60},
			[]call{{protocol.OpWait, protocol.WaitArgs{Download: true, TimeoutMS: 60000}}},
			[]string{"Done: the download finished", "download: complete, 12 bytes: /home/me/Downloads/a.csv"}},
	}
	h := newHarness(t)
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%s %v", tt.tool, tt.args), func(t *testing.T) {
			h.host.takeCalls()
			res := h.callTool(t, tt.tool, tt.args)
			if res.IsError {
				t.Fatalf("tool error: %s", text(res))
			}
			got := h.host.takeCalls()
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("calls\n got %+v\nwant %+v", got, tt.want)
			}
			for _, s := range tt.contains {
				if !strings.Contains(text(res), s) {
					t.Errorf("result lacks %q:\n%s", s, text(res))
				}
			}
			// What the agent types is never echoed: it may be a password
			// (README, "What grip promises").
			if typed, ok := tt.args["text"].(string); ok && tt.tool == "browser_type" && strings.Contains(text(res), typed) {
				t.Errorf("the reply echoes the typed text %q:\n%s", typed, text(res))
			}
		})
	}
}

func TestSnapshotIsTheCLIText(t *testing.T) {
	h := newHarness(t)
	res := h.callTool(t, "browser_snapshot", nil)
	if len(res.Content) != 1 || text(res) != snapText {
		t.Fatalf("snapshot content = %q, want exactly %q", text(res), snapText)
	}
}

func TestScreenshotIsAnImage(t *testing.T) {
	h := newHarness(t)
	res := h.callTool(t, "browser_take_screenshot", map[string]any{"tab": 7})
	var img *sdk.ImageContent
	for _, c := range res.Content {
		if ic, ok := c.(*sdk.ImageContent); ok {
			img = ic
		}
	}
	if img == nil {
		t.Fatalf("no image content in %+v", res.Content)
	}
	if img.MIMEType != "image/png" || !bytes.Equal(img.Data, fakePNG) {
		t.Errorf("image = %s %q, want image/png %q", img.MIMEType, img.Data, fakePNG)
	}
}

func TestRefusalIsAToolError(t *testing.T) {
	h := newHarness(t)
	h.host.reply = func(op string, args any) (any, error) {
		return nil, &protocol.Error{Code: protocol.CodeStaleRef, Boundary: protocol.BoundaryNode,
			Message: "@e3 is stale: its element is no longer on the page",
			Hint:    "take a new snapshot with grip snapshot and use the ref it gives"}
	}
	res := h.callTool(t, "browser_click", map[string]any{"ref": "e3"})
	if !res.IsError {
		t.Fatalf("refusal is not a tool error: %+v", res)
	}
	want := "stale_ref (node): @e3 is stale: its element is no longer on the page — take a new snapshot with browser_snapshot and use the ref it gives"
	if got := text(res); got != want {
		t.Errorf("error text\n got %q\nwant %q", got, want)
	}
}

func TestSubmitFailureSaysTheTextWasTyped(t *testing.T) {
	h := newHarness(t)
	h.host.reply = func(op string, args any) (any, error) {
		if a := args.(protocol.ActArgs); a.Action == protocol.ActPress {
			return nil, protocol.Errorf(protocol.CodeNotActionable, protocol.BoundaryActionability, "", "@e5: disabled")
		}
		return defaultReply(op, args)
	}
	res := h.callTool(t, "browser_type", map[string]any{"ref": "e5", "text": "x", "submit": true})
	if !res.IsError || !strings.Contains(text(res), "not_actionable (actionability): typed the text, but pressing Enter failed: @e5: disabled") {
		t.Errorf("result = %v %q", res.IsError, text(res))
	}
}

func TestInvalidArgumentsAreRefused(t *testing.T) {
	h := newHarness(t)
	for _, tc := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"browser_click", map[string]any{}, "ref"},
		{"browser_snapshot", map[string]any{"mode": "everything"}, "mode"},
		{"browser_tabs", map[string]any{"action": "shuffle"}, "action"},
		{"browser_click", map[string]any{"ref": "@e1", "button": "middle"}, "button"},
		{"browser_click", map[string]any{"ref": "@e1", "button": "right", "doubleClick": true}, "doubleClick or button right"},
		{"browser_click", map[string]any{"ref": "@e1", "button": "right", "checked": true}, "checked"},
		{"browser_wait_for", map[string]any{}, "nothing to wait for"},
		{"browser_select_option", map[string]any{"ref": "@e1"}, "no option given"},
		{"browser_tabs", map[string]any{"action": "select", "index": 5}, "no tab at index 5"},
		{"browser_file_upload", map[string]any{"ref": "@e1"}, "paths"},
		{"browser_file_upload", map[string]any{"ref": "@e1", "paths": []string{}}, "paths"},
		// A merged tool's parameters of one verb are refused with another's.
		{"browser_navigate", map[string]any{}, "url or action"},
		{"browser_navigate", map[string]any{"url": "http://y.test/", "action": "back"}, "url or action"},
		{"browser_navigate", map[string]any{"action": "home"}, "action"},
		{"browser_click", map[string]any{"ref": "@e1", "checked": true, "doubleClick": true}, "checked"},
		{"browser_hover", map[string]any{"ref": "@e1", "focus": true, "at": map[string]any{"x": 1, "y": 2}}, "focus"},
		{"browser_scroll", map[string]any{"text": "ORD-1", "up": true}, "up"},
		{"browser_take_screenshot", map[string]any{"landscape": true}, "pdf"},
		{"browser_take_screenshot", map[string]any{"pdf": true, "ref": "@e1"}, "pdf"},
		{"browser_status", map[string]any{"url": "http://y.test/"}, "policy"},
		{"browser_status", map[string]any{"show": "policy", "limit": 3}, "log or downloads"},
		{"browser_status", map[string]any{"show": "everything"}, "show"},
		{"browser_pause", map[string]any{"resume": "yes"}, "resume"},
		{"browser_record", map[string]any{"action": "replay"}, "needs a file"},
		{"browser_record", map[string]any{"action": "replay", "file": "a.grip", "person": true}, "person"},
		{"browser_record", map[string]any{"action": "stop", "params": map[string]any{"A": "b"}}, "replay"},
	} {
		res := h.callTool(t, tc.tool, tc.args)
		if !res.IsError || !strings.Contains(text(res), tc.want) {
			t.Errorf("%s %v: IsError=%v %q, want an error naming %q", tc.tool, tc.args, res.IsError, text(res), tc.want)
		}
	}
	for _, c := range h.host.takeCalls() {
		if c.Op != protocol.OpTabs {
			t.Errorf("invalid arguments reached the host: %+v", c)
		}
	}
}

// textGone is one wait the page watches (host/wait.go), not a loop of
// probes here.
func TestTextGoneIsOneWait(t *testing.T) {
	h := newHarness(t)
	var waits []protocol.WaitArgs
	h.host.reply = func(op string, args any) (any, error) {
		w := args.(protocol.WaitArgs)
		waits = append(waits, w)
		if w.TimeoutMS == 50 {
			return nil, protocol.Errorf(protocol.CodeTimeout, protocol.BoundaryTask, "", "condition not met within 50ms")
		}
		return fakeAct, nil
	}
	res := h.callTool(t, "browser_wait_for", map[string]any{"textGone": "Loading…"})
	if res.IsError || !strings.Contains(text(res), `"Loading…" is gone`) {
		t.Fatalf("result = %v %q", res.IsError, text(res))
	}
	if len(waits) != 1 || waits[0].TextGone != "Loading…" || waits[0].Text != "" || waits[0].TimeoutMS != 10000 {
		t.Errorf("waits %+v, want one textGone wait of 10 s", waits)
	}
	res = h.callTool(t, "browser_wait_for", map[string]any{"textGone": "Loading…", "timeout": 0.05})
	if !res.IsError || !strings.HasPrefix(text(res), "timeout (task): ") {
		t.Errorf("result = %v %q, want a timeout", res.IsError, text(res))
	}
}

func TestConnectsLazilyAndAgainAfterALoss(t *testing.T) {
	h := newHarness(t)
	if n := h.connectCount(); n != 0 {
		t.Fatalf("connected %d time(s) before any tool call", n)
	}
	h.mu.Lock()
	h.connErr = protocol.Errorf(protocol.CodeNoBrowser, protocol.BoundaryHost, "start Chrome with the grip extension", "no browser with the grip extension is connected (waited 10s)")
	h.mu.Unlock()
	res := h.callTool(t, "browser_snapshot", nil)
	if !res.IsError || !strings.HasPrefix(text(res), "no_browser (host): no browser") {
		t.Fatalf("result = %v %q, want no_browser", res.IsError, text(res))
	}
	if res := h.callTool(t, "browser_snapshot", nil); res.IsError {
		t.Fatalf("second call: %s", text(res))
	}
	h.callTool(t, "browser_snapshot", nil)
	if n := h.connectCount(); n != 2 {
		t.Fatalf("connects = %d, want 2 (one failed, one kept)", n)
	}
	h.host.reply = func(op string, args any) (any, error) {
		return nil, fmt.Errorf("%w: EOF", client.ErrConnectionLost)
	}
	if res := h.callTool(t, "browser_snapshot", nil); !res.IsError {
		t.Fatal("a lost connection is not a tool error")
	}
	h.host.reply = nil
	if res := h.callTool(t, "browser_snapshot", nil); res.IsError {
		t.Fatalf("after the loss: %s", text(res))
	}
	if n := h.connectCount(); n != 3 {
		t.Errorf("connects = %d, want 3 (a new connection after the loss)", n)
	}
	h.host.mu.Lock()
	closed := h.host.closed
	h.host.mu.Unlock()
	if closed != 1 {
		t.Errorf("lost caller closed %d times, want 1", closed)
	}
}

// Serve speaks newline-delimited JSON-RPC on plain reader/writer and
// returns nil when the client closes its end.
func TestServeOnReaderAndWriter(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	host := &fakeHost{}
	done := make(chan error, 1)
	go func() {
		done <- Serve(context.Background(), inR, outW, func(context.Context) (Caller, error) { return host, nil })
		outW.Close()
	}()
	cl := sdk.NewClient(&sdk.Implementation{Name: "grip-test", Version: "v0"}, nil)
	cs, err := cl.Connect(context.Background(), &sdk.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if info := cs.InitializeResult().ServerInfo; info.Name != "grip" {
		t.Errorf("server name %q", info.Name)
	}
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "browser_snapshot"})
	if err != nil || text(res) != snapText {
		t.Fatalf("snapshot over stdio: %v %q", err, text(res))
	}
	cs.Close()
	select {
	case err := <-done:
		if err != nil && !errors.Is(err, io.ErrClosedPipe) {
			t.Errorf("Serve = %v, want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after the client closed")
	}
}

func TestNormRef(t *testing.T) {
	for in, want := range map[string]string{
		"e3": "@e3", "e12": "@e12", " e7 ": "@e7", "@e3": "@e3", "e0": "e0", "e03": "e03",
		"ex": "ex", "#e3": "#e3", "iframe >>> e3": "iframe >>> e3", "": "",
	} {
		if got := normRef(in); got != want {
			t.Errorf("normRef(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestDebugLogHoldsNoTypedText: with debug logging on (GRIP_DEBUG), the
// log names the tool, the op, the action and the target, and gives the
// length of typed text, option values, keys and URLs, never the text.
func TestDebugLogHoldsNoTypedText(t *testing.T) {
	const secret = "hunter2-Zq9"
	var logs lockedBuffer
	h := newHarnessWith(t, Options{Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"browser_type", map[string]any{"ref": "e5", "text": secret, "submit": true}},
		{"browser_type", map[string]any{"ref": "@e6", "text": secret, "replace": true}},
		{"browser_select_option", map[string]any{"ref": "@e7", "values": []string{secret}}},
		{"browser_press_key", map[string]any{"key": secret}},
		{"browser_navigate", map[string]any{"url": "https://x.test/reset?token=" + secret}},
		{"browser_tabs", map[string]any{"action": "new", "url": "https://x.test/?t=" + secret}},
		{"browser_wait_for", map[string]any{"text": secret, "timeout": 0.01}},
		{"browser_snapshot", map[string]any{"after": "@e3"}},
	} {
		h.callTool(t, c.tool, c.args)
	}
	got := logs.String()
	if strings.Contains(got, secret) {
		t.Errorf("the debug log holds typed text:\n%s", got)
	}
	for _, want := range []string{"op=act", "action=type", "target=@e5", "text_len=11", "tool=browser_type", "ref=e5", "target=@e6", "op=wait", "op=snapshot"} {
		if !strings.Contains(got, want) {
			t.Errorf("the debug log lacks %q:\n%s", want, got)
		}
	}
}

// lockedBuffer is a bytes.Buffer safe for the logger's concurrent writes.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// The host is dialled under the MCP client's own name, so its record of
// what agents did says who acted.
func TestConnectNamesTheClient(t *testing.T) {
	h := newHarness(t)
	if _, err := h.cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "browser_tabs", Arguments: map[string]any{"action": "list"}}); err != nil {
		t.Fatal(err)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.client != "grip-test" {
		t.Errorf("connected as %q, want the client's name grip-test", h.client)
	}
	if got := ClientName(context.Background()); got != "mcp" {
		t.Errorf("ClientName of a bare context = %q", got)
	}
}

// An action's reply names its tab when the client has not been told of
// it as it now is: the first reply, a navigation (new URL or title),
// another tab. Replies in a run of actions on one page leave it out.
func TestReplyNamesTheTabOnlyWhenItChanged(t *testing.T) {
	h := newHarness(t)
	page := protocol.TabRef{ID: 7, URL: "http://x.test/", Title: "Fixture"}
	var next protocol.ActionResult
	h.host.reply = func(op string, args any) (any, error) {
		if op == protocol.OpSnapshot {
			return protocol.Snapshot{Tab: page, Text: "Tab 7 · 'Fixture' · http://x.test/\n"}, nil
		}
		return next, nil
	}
	const tabLine = "Tab 7 · 'Fixture' · http://x.test/"
	steps := []struct {
		tool    string
		res     protocol.ActionResult
		wantTab string // "" : no tab line
	}{
		{"browser_click", protocol.ActionResult{OK: true, Tab: page}, tabLine},
		{"browser_click", protocol.ActionResult{OK: true, Tab: page}, ""},
		{"browser_click", protocol.ActionResult{OK: true, Tab: page, Changes: protocol.Changes{URL: "http://x.test/done", Title: "Done"}}, "Tab 7 · 'Done' · http://x.test/done"},
		{"browser_click", protocol.ActionResult{OK: true, Tab: protocol.TabRef{ID: 7, URL: "http://x.test/done", Title: "Done"}}, ""},
		{"browser_click", protocol.ActionResult{OK: true, Tab: protocol.TabRef{ID: 8, URL: "http://y.test/", Title: "Other"}}, "Tab 8 · 'Other' · http://y.test/"},
		{"browser_snapshot", protocol.ActionResult{}, tabLine},
		{"browser_click", protocol.ActionResult{OK: true, Tab: page}, ""},
	}
	for i, st := range steps {
		next = st.res
		args := map[string]any{"ref": "@e1"}
		if st.tool == "browser_snapshot" {
			args = nil
		}
		got := text(h.callTool(t, st.tool, args))
		hasTab := strings.Contains(got, "Tab ")
		if st.wantTab == "" && hasTab || st.wantTab != "" && !strings.Contains(got, st.wantTab) {
			t.Errorf("step %d (%s): want tab line %q in:\n%s", i, st.tool, st.wantTab, got)
		}
	}
}

// browser_fill_form sets each field with the action its type calls for,
// in order, and answers once; a bad field is refused before any is set,
// and a refusal midway names the fields set before it.
func TestFillForm(t *testing.T) {
	h := newHarness(t)
	field := func(name, typ, ref, value string) map[string]any {
		return map[string]any{"name": name, "type": typ, "ref": ref, "value": value}
	}
	tab := protocol.TabRef{ID: 7, URL: "http://x.test/", Title: "Fixture"}
	line := func(ref, v string) protocol.Element {
		return protocol.Element{Ref: ref, Role: "textbox", Name: ref, Value: &v}
	}
	h.host.reply = func(op string, args any) (any, error) {
		a := args.(protocol.ActArgs)
		if a.Target == "@e9" {
			return nil, protocol.Errorf(protocol.CodeStaleRef, protocol.BoundaryRef, "take a new snapshot", "@e9 is gone")
		}
		return protocol.ActionResult{OK: true, Tab: tab, Changes: protocol.Changes{Changed: []protocol.Element{line(a.Target, a.Text)}}}, nil
	}
	res := h.callTool(t, "browser_fill_form", map[string]any{"fields": []any{
		field("Name", "textbox", "e1", "Ada"), field("Country", "combobox", "@e2", "France"),
		field("Terms", "checkbox", "@e3", "true"), field("News", "checkbox", "@e4", "false"),
	}})
	if res.IsError {
		t.Fatalf("fill_form: %s", text(res))
	}
	want := []call{
		{protocol.OpAct, protocol.ActArgs{Action: "fill", Target: "@e1", Text: "Ada"}},
		{protocol.OpAct, protocol.ActArgs{Action: "select", Target: "@e2", Text: "France"}},
		{protocol.OpAct, protocol.ActArgs{Action: "check", Target: "@e3"}},
		{protocol.OpAct, protocol.ActArgs{Action: "uncheck", Target: "@e4"}},
	}
	if got := h.host.takeCalls(); !reflect.DeepEqual(got, want) {
		t.Errorf("calls\n got %+v\nwant %+v", got, want)
	}
	for _, s := range []string{"Filled 4 of 4 fields\n", "@e1: [textbox '@e1' value='Ada']", "@e2: [textbox '@e2' value='France']", "Tab 7"} {
		if !strings.Contains(text(res), s) {
			t.Errorf("reply lacks %q:\n%s", s, text(res))
		}
	}

	res = h.callTool(t, "browser_fill_form", map[string]any{"fields": []any{
		field("Name", "textbox", "@e1", "Ada"), field("Age", "spinner", "@e5", "3"),
	}})
	if !res.IsError || !strings.Contains(text(res), "spinner") || len(h.host.takeCalls()) != 0 {
		t.Errorf("a bad field: %s", text(res))
	}

	res = h.callTool(t, "browser_fill_form", map[string]any{"fields": []any{
		field("Name", "textbox", "@e1", "Ada"), field("Gone", "textbox", "@e9", "x"), field("City", "textbox", "@e6", "Paris"),
	}})
	if !res.IsError || !strings.Contains(text(res), "stale_ref") || !strings.Contains(text(res), "field 2 of 3 (@e9 (Gone)) refused, set before it: @e1 (Name)") {
		t.Errorf("a refusal midway: %s", text(res))
	}
	if calls := h.host.takeCalls(); len(calls) != 2 {
		t.Errorf("fields after the refusal were set: %+v", calls)
	}

	// Only ref and value are needed (Playwright MCP's shape, name and
	// type optional): a field without a type is set as its role says.
	roles := map[string]string{"@e1": "textbox", "@e2": "combobox", "@e3": "checkbox", "@e4": "radio", "@e7": "link"}
	h.host.reply = func(op string, args any) (any, error) {
		if op == protocol.OpRead {
			r := args.(protocol.ReadArgs)
			return protocol.ReadResult{Tab: tab, Ref: r.Target, Line: r.Target + ": [" + roles[r.Target] + " 'x']"}, nil
		}
		a := args.(protocol.ActArgs)
		return protocol.ActionResult{OK: true, Tab: tab, Changes: protocol.Changes{Changed: []protocol.Element{line(a.Target, a.Text)}}}, nil
	}
	res = h.callTool(t, "browser_fill_form", map[string]any{"fields": []any{
		map[string]any{"ref": "@e1", "value": "Ada"}, map[string]any{"ref": "@e2", "value": "France"},
		map[string]any{"ref": "@e3", "value": "true"}, map[string]any{"ref": "@e4", "value": "true", "name": "Plan"},
	}})
	if res.IsError {
		t.Fatalf("fill_form without types: %s", text(res))
	}
	var acts []call
	for _, c := range h.host.takeCalls() {
		if c.Op == protocol.OpAct {
			acts = append(acts, c)
		}
	}
	want = []call{
		{protocol.OpAct, protocol.ActArgs{Action: "fill", Target: "@e1", Text: "Ada"}},
		{protocol.OpAct, protocol.ActArgs{Action: "select", Target: "@e2", Text: "France"}},
		{protocol.OpAct, protocol.ActArgs{Action: "check", Target: "@e3"}},
		{protocol.OpAct, protocol.ActArgs{Action: "check", Target: "@e4"}},
	}
	if !reflect.DeepEqual(acts, want) {
		t.Errorf("calls without types\n got %+v\nwant %+v", acts, want)
	}
	res = h.callTool(t, "browser_fill_form", map[string]any{"fields": []any{
		map[string]any{"ref": "@e1", "value": "Ada"}, map[string]any{"ref": "@e7", "value": "x"},
	}})
	if !res.IsError || !strings.Contains(text(res), "not a form field") || !strings.Contains(text(res), "give the field a type") {
		t.Errorf("a link without a type: %s", text(res))
	}
	for _, c := range h.host.takeCalls() {
		if c.Op == protocol.OpAct {
			t.Errorf("a field was set before the bad one was refused: %+v", c)
		}
	}

	// A field whose action navigates ends the form: the next refs may
	// no longer mean what they did.
	h.host.reply = func(op string, args any) (any, error) {
		return protocol.ActionResult{OK: true, Tab: tab, Changes: protocol.Changes{URL: "http://x.test/next", Title: "Next"}}, nil
	}
	res = h.callTool(t, "browser_fill_form", map[string]any{"fields": []any{
		field("Name", "textbox", "@e1", "Ada"), field("City", "textbox", "@e6", "Paris"),
	}})
	if res.IsError || !strings.Contains(text(res), "Filled 1 of 2 fields: @e1 (Name), then stopped: 1 field(s) not set") || len(h.host.takeCalls()) != 1 {
		t.Errorf("a field that navigates: %s", text(res))
	}
}

// TestLongWaitDoesNotHoldUpOtherCalls: tool calls run at once over the one
// connection; a browser_wait_for that is still waiting leaves the others
// free.
func TestLongWaitDoesNotHoldUpOtherCalls(t *testing.T) {
	h := newHarness(t)
	waiting, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	h.host.reply = func(op string, args any) (any, error) {
		if op == protocol.OpWait {
			once.Do(func() { close(waiting) })
			<-release
		}
		return defaultReply(op, args)
	}
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()
	waitDone := make(chan *sdk.CallToolResult, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		res, _ := h.cs.CallTool(ctx, &sdk.CallToolParams{Name: "browser_wait_for", Arguments: map[string]any{"text": "Done"}})
		waitDone <- res
	}()
	select {
	case <-waiting:
	case <-time.After(5 * time.Second):
		t.Fatal("the wait never reached the host")
	}
	other := make(chan *sdk.CallToolResult, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		res, _ := h.cs.CallTool(ctx, &sdk.CallToolParams{Name: "browser_tabs", Arguments: map[string]any{"action": "list"}})
		other <- res
	}()
	select {
	case res := <-other:
		if res == nil || res.IsError || !strings.Contains(text(res), "Fixture") {
			t.Errorf("browser_tabs during the wait: %+v %s", res, text(res))
		}
	case <-time.After(5 * time.Second):
		t.Fatal("browser_tabs waited for the other call's browser_wait_for to end")
	}
	select {
	case <-waitDone:
		t.Fatal("the wait ended before it was released")
	default:
	}
	close(release)
	if res := <-waitDone; res == nil || res.IsError {
		t.Errorf("the wait: %+v", res)
	}
}

func TestReadOnCall(t *testing.T) {
	for in, want := range map[string]string{
		"… 3 more elements omitted (grip snapshot --after @e40)\n":                                           "… 3 more elements omitted (browser_snapshot after=@e40)\n",
		"… 3 more elements omitted (grip snapshot --after @e40 --mode content --tab 5)\n":                    "… 3 more elements omitted (browser_snapshot after=@e40 mode=content tab=5)\n",
		"… 24 more lines (grip snapshot)\n":                                                                  "… 24 more lines (browser_snapshot)\n",
		"still changing: the page had not settled when this was read; grip snapshot shows it as it is now\n": "still changing: the page had not settled when this was read; browser_snapshot shows it as it is now\n",
		"@e3: [button 'grip snapshot']\n":                                                                    "@e3: [button 'grip snapshot']\n",
	} {
		if got := readOnCall(in); got != want {
			t.Errorf("readOnCall(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPageTextIsCalledUntrusted: the server's instructions and every tool
// whose result carries page text tell the model that page content is
// data, never instructions.
func TestPageTextIsCalledUntrusted(t *testing.T) {
	h := newHarness(t)
	if ins := h.cs.InitializeResult().Instructions; !strings.Contains(ins, "untrusted data") || !strings.Contains(ins, "never instructions") {
		t.Errorf("instructions do not say page text is untrusted:\n%s", ins)
	}
	tools, err := h.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	carries := map[string]bool{"browser_snapshot": true, "browser_click": true, "browser_type": true, "browser_tabs": true,
		"browser_navigate": true, "browser_wait_for": true, "browser_handle_dialog": true, "browser_select_option": true,
		"browser_console_messages": true, "browser_network_requests": true, "browser_evaluate": true}
	for _, tool := range tools.Tools {
		if carries[tool.Name] && !strings.Contains(tool.Description, "untrusted data") {
			t.Errorf("%s does not say its page text is untrusted: %s", tool.Name, tool.Description)
		}
		delete(carries, tool.Name)
	}
	if len(carries) > 0 {
		t.Errorf("tools not offered: %v", carries)
	}
}

// Every action tool that lists noSettle passes it on: browser_find listed
// it and dropped it.
func TestActionToolsPassNoSettleOn(t *testing.T) {
	h := newHarness(t)
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"browser_scroll", map[string]any{"text": "ORD-1500", "noSettle": true}},
		{"browser_click", map[string]any{"ref": "e1", "noSettle": true}},
		{"browser_scroll", map[string]any{"noSettle": true}},
	} {
		if res := h.callTool(t, c.tool, c.args); res.IsError {
			t.Fatalf("%s: %s", c.tool, text(res))
		}
		calls := h.host.takeCalls()
		var acted bool
		for _, cl := range calls {
			if a, ok := cl.Args.(protocol.ActArgs); ok && cl.Op == protocol.OpAct {
				acted = true
				if !a.NoSettle {
					t.Errorf("%s: the host was asked to settle (%+v)", c.tool, a)
				}
			}
		}
		if !acted {
			t.Errorf("%s made no act call: %+v", c.tool, calls)
		}
	}
}

// TestToolsNameTheirOperations: every tool names the socket operations it
// calls (rows of protocol.Operations), its readOnlyHint is theirs, and a
// call of an operation it does not name is refused, so the hint cannot
// say read-only of a tool that acts.
func TestToolsNameTheirOperations(t *testing.T) {
	s := New(func(context.Context) (Caller, error) { return &fakeHost{}, nil }, Options{Version: "test"})
	var readOnly []string
	named := map[string]bool{}
	for _, tool := range s.tools {
		for _, op := range tool.ops {
			named[op] = true
		}
		if len(tool.ops) == 0 {
			t.Errorf("%s names no operation", tool.Name)
		}
		for _, op := range tool.ops {
			if _, ok := protocol.OperationNamed(op); !ok {
				t.Errorf("%s names %q, no row of protocol.Operations", tool.Name, op)
			}
		}
		if tool.Annotations != nil && tool.Annotations.ReadOnlyHint {
			readOnly = append(readOnly, tool.Name)
		}
	}
	for _, row := range protocol.Operations() {
		// hello and cancel are the client's own; a tab's dialog needs no
		// tool: every tool's result (and browser_tabs) names it.
		if !named[row.Name] && !slices.Contains([]string{protocol.OpHello, protocol.OpCancel, protocol.OpDialog}, row.Name) {
			t.Errorf("no tool calls the operation %s", row.Name)
		}
	}
	slices.Sort(readOnly)
	want := []string{"browser_console_messages", "browser_network_requests", "browser_snapshot", "browser_status",
		"browser_take_screenshot", "browser_wait_for"}
	if !slices.Equal(readOnly, want) {
		t.Errorf("read-only tools\n got %v\nwant %v", readOnly, want)
	}
	tool := &Tool{Name: "browser_example", ops: []string{protocol.OpTabs}}
	ctx := context.WithValue(context.Background(), toolKey{}, tool)
	if err := s.call(ctx, protocol.OpAct, protocol.ActArgs{Action: protocol.ActClick}, nil); protocol.AsError(err).Code != protocol.CodeInternal {
		t.Errorf("a tool calling an operation it does not name: %v, want internal", err)
	}
	if err := s.call(ctx, protocol.OpTabs, struct{}{}, &protocol.TabsResult{}); err != nil {
		t.Errorf("a tool calling the operation it names: %v", err)
	}
}

// A tool of an earlier release that is now a parameter of a broader one
// is not listed, and a call by its name is refused bad_request naming the
// call that does it now, with nothing sent to the host.
func TestOldToolNamesNameTheNewCall(t *testing.T) {
	h := newHarness(t)
	res, err := h.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, tool := range res.Tools {
		listed[tool.Name] = true
	}
	for old, now := range renamed {
		if listed[old] {
			t.Errorf("%s is listed; it is %s now", old, now)
		}
		newTool, _, _ := strings.Cut(now, " ")
		if !listed[newTool] {
			t.Errorf("%s points at %s, which is not listed", old, newTool)
		}
		r := h.callTool(t, old, map[string]any{"ref": "e1"})
		if msg := text(r); !r.IsError || !strings.HasPrefix(msg, "bad_request") || !strings.Contains(msg, now) {
			t.Errorf("%s: %v %s", old, r.IsError, msg)
		}
	}
	if calls := h.host.takeCalls(); len(calls) > 0 {
		t.Errorf("an old name reached the host: %+v", calls)
	}
}

// browser_snapshot with ref reads the element (grip read) and names the
// call that reads on; a parameter of the other reading is refused.
func TestSnapshotRefReads(t *testing.T) {
	h := newHarness(t)
	h.host.reply = func(op string, args any) (any, error) {
		if op != protocol.OpRead {
			return nil, fmt.Errorf("unexpected %s", op)
		}
		return protocol.ReadResult{Ref: "@e5", Text: "| Sentence 1\n… 40 more characters (grip read @e5 --from 12)\n", More: "grip read @e5 --from 12", Next: 12}, nil
	}
	res := h.callTool(t, "browser_snapshot", map[string]any{"ref": "e5", "from": 3, "budget": 50})
	if got := text(res); res.IsError || !strings.Contains(got, "(browser_snapshot ref=@e5 from=12 budget=50)") {
		t.Errorf("read: %s", got)
	}
	if calls := h.host.takeCalls(); len(calls) != 1 || !reflect.DeepEqual(calls[0].Args, protocol.ReadArgs{Target: "@e5", From: 3, Budget: 50}) {
		t.Errorf("calls %+v", calls)
	}
	for _, args := range []map[string]any{{"ref": "e5", "after": "@e9"}, {"ref": "e5", "mode": "content"}, {"from": 3}} {
		if r := h.callTool(t, "browser_snapshot", args); !r.IsError || !strings.HasPrefix(text(r), "bad_request") {
			t.Errorf("%v: %s", args, text(r))
		}
	}
}

// A hint's CLI command reads as the merged tool that does it.
func TestHintsNameTheMergedTools(t *testing.T) {
	for hint, want := range map[string]string{
		"bring it into view with grip scroll REF or grip find TEXT, then act again": "bring it into view with browser_scroll with ref or text, then act again",
		"run grip find again to search on from there":                               "run browser_scroll with text again to search on from there",
		"name the element with a ref from a snapshot, e.g. grip read @e3":           "name the element with a ref from a snapshot, e.g. browser_snapshot with ref @e3",
		"do first what the page needs to enable it, or wait for it with grip wait":  "do first what the page needs to enable it, or wait for it with browser_wait_for",
		"a select takes grip select REF OPTION, a checkbox grip check REF":          "a select takes browser_select_option, a checkbox browser_click with checked: true",
	} {
		if got := mcpHint(hint); got != want {
			t.Errorf("mcpHint(%q) = %q, want %q", hint, got, want)
		}
	}
}

// No text of the server names a tool of an earlier release (a hint
// merged in from elsewhere would send the model to a refusal): only
// renamed, in verbs.go, holds them.
func TestNoTextNamesAnOldTool(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") || f == "verbs.go" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src := string(b)
		for old := range renamed {
			for i := strings.Index(src, old); i >= 0; i = next(src, old, i) {
				if end := i + len(old); end == len(src) || !isWordByte(src[end]) {
					t.Errorf("%s names %s, which is %s now", f, old, renamed[old])
				}
			}
		}
	}
}

func next(s, sub string, i int) int {
	j := strings.Index(s[i+1:], sub)
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

func isWordByte(c byte) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// Every browser_snapshot reply starts with its tab's line, whatever the
// reply before it named: after an action on the same tab, after another
// snapshot of it, in either mode; the first in full, the rest without the
// URL the client was told (frames.KnownTabLine). Only the top frame's
// line, which repeats the tab's URL, is left out of a one-frame page.
func TestEverySnapshotNamesItsTab(t *testing.T) {
	h := newHarness(t)
	page := protocol.TabRef{ID: 7, URL: "http://x.test/", Title: "Fixture"}
	const tabLine = "Tab 7 · 'Fixture' · http://x.test/"
	var sinces []*protocol.TabRef
	h.host.reply = func(op string, args any) (any, error) {
		if op == protocol.OpSnapshot {
			sinces = append(sinces, args.(protocol.SnapshotArgs).Since)
			return protocol.Snapshot{Tab: page, Text: tabLine + "\n=== Frame: 0 (Top: http://x.test/) ===\n@e1: [button 'Go']\n"}, nil
		}
		return protocol.ActionResult{OK: true, Tab: page}, nil
	}
	steps := []struct {
		tool string
		args map[string]any
	}{
		{"browser_snapshot", nil},
		{"browser_snapshot", nil},
		{"browser_click", map[string]any{"ref": "@e1"}},
		{"browser_snapshot", map[string]any{"mode": "content"}},
		{"browser_snapshot", map[string]any{"mode": "interactive"}},
	}
	for i, st := range steps {
		got := text(h.callTool(t, st.tool, st.args))
		if st.tool != "browser_snapshot" {
			continue
		}
		want := tabLine
		if i > 0 {
			want = "Tab 7 · 'Fixture'"
		}
		if !strings.HasPrefix(got, want+"\n") || strings.Contains(got, "=== Frame: 0") || !strings.Contains(got, "@e1: [button 'Go']") {
			t.Errorf("step %d (%s %v): want %q, then the elements without the top frame's line:\n%s", i, st.tool, st.args, want, got)
		}
	}
	for i, since := range sinces {
		// What the client was told before each: nothing, then the tab.
		want := page
		if i == 0 {
			want = protocol.TabRef{}
		}
		if since == nil || *since != want {
			t.Errorf("snapshot %d: Since = %v, want %v", i, since, want)
		}
	}
}
