package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grip-dev/grip/protocol"
)

// devtoolsHost answers the developer tools' operations as a host would,
// and records their arguments.
func devtoolsHost(t *testing.T, h *harness, got map[string]any) {
	t.Helper()
	h.host.reply = func(op string, args any) (any, error) {
		got[op] = args
		switch op {
		case protocol.OpConsole:
			return protocol.ConsoleResult{Text: "Console of tab 3\n[error] boom ×2\n(4 below error not shown: grip console --level warning --tab 3)"}, nil
		case protocol.OpNetwork:
			return protocol.NetworkResult{Text: "Network of tab 3\n#4 GET 200 fetch 1 kB 5 ms http://a.example/x\n(2 successful static resources not shown: grip network --all --tab 3)\n(a response body: grip network --body ID)"}, nil
		case protocol.OpNetworkBody:
			return protocol.NetworkBody{ID: 4, URL: "http://a.example/x", Status: 200, MimeType: "application/json", Bytes: 7, Body: []byte(`{"a":1}`), Text: `{"a":1}`}, nil
		case protocol.OpEval:
			return protocol.EvalResult{Type: "object", Value: map[string]any{"title": "T"}}, nil
		case protocol.OpPDF:
			return protocol.PDFResult{Tab: protocol.TabRef{ID: 3, Title: "T"}, PDF: []byte("%PDF-1.4 x")}, nil
		case protocol.OpScreenshotShape:
			return protocol.ShapeShot{Tab: protocol.TabRef{ID: 3}, PNG: fakePNG, Width: 10, Height: 5, Refs: []protocol.DrawnRef{{Ref: "@e2"}}}, nil
		}
		return defaultReply(op, args)
	}
}

func TestDevtoolsTools(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "output")
	h := newHarnessWith(t, Options{OutputDir: dir})
	got := map[string]any{}
	devtoolsHost(t, h, got)
	if out := text(h.callTool(t, "browser_console_messages", map[string]any{"level": "error", "tab": 3})); !strings.Contains(out, "boom ×2") ||
		!strings.Contains(out, "not shown: level: warning)") || strings.Contains(out, "grip ") || strings.Contains(out, "--") {
		t.Errorf("console speaks of the CLI, not the tool: %q", out)
	}
	if a, _ := got[protocol.OpConsole].(protocol.ConsoleArgs); a.Level != "error" || a.Tab != 3 {
		t.Errorf("console args %+v", got[protocol.OpConsole])
	}
	out := text(h.callTool(t, "browser_network_requests", map[string]any{"includeStatic": false, "tab": 3}))
	if !strings.Contains(out, "#4 GET 200") || !strings.Contains(out, "not shown: includeStatic: true)") ||
		!strings.Contains(out, "browser_network_requests with the request's id") || strings.Contains(out, "grip ") || strings.Contains(out, "--") {
		t.Errorf("network list speaks of the CLI, not the tool: %q", out)
	}
	if out := text(h.callTool(t, "browser_network_requests", map[string]any{"id": 4})); !strings.Contains(out, `{"a":1}`) || !strings.Contains(out, "#4") {
		t.Errorf("network body: %q", out)
	}
	if a, _ := got[protocol.OpNetworkBody].(protocol.NetworkBodyArgs); a.ID != 4 {
		t.Errorf("body args %+v", got[protocol.OpNetworkBody])
	}
	if out := text(h.callTool(t, "browser_evaluate", map[string]any{"function": "() => document.title"})); !strings.Contains(out, `"title": "T"`) {
		t.Errorf("evaluate: %q", out)
	}
	if a, _ := got[protocol.OpEval].(protocol.EvalArgs); !strings.Contains(a.Expression, "() => document.title") || !strings.Contains(a.Expression, "typeof") {
		t.Errorf("evaluate sends %q: the function is not called", a.Expression)
	}
	pdf := filepath.Join(dir, "p.pdf")
	if out := text(h.callTool(t, "browser_take_screenshot", map[string]any{"pdf": true, "filename": "p.pdf"})); !strings.Contains(out, pdf) {
		t.Errorf("pdf: %q", out)
	}
	if b, err := os.ReadFile(pdf); err != nil || !strings.HasPrefix(string(b), "%PDF") {
		t.Errorf("pdf file: %q %v", b, err)
	}
	res := h.callTool(t, "browser_take_screenshot", map[string]any{"ref": "e2", "element": "Save"})
	if out := text(res); !strings.Contains(out, "@e2 (Save)") || !strings.Contains(out, "10×5") {
		t.Errorf("element screenshot: %q", out)
	}
	if a, _ := got[protocol.OpScreenshotShape].(protocol.ScreenshotShapeArgs); a.Target != "@e2" {
		t.Errorf("a bare ref is not read as @e2: %+v", a)
	}
	if out := text(h.callTool(t, "browser_take_screenshot", map[string]any{"refs": true})); !strings.Contains(out, "1 refs drawn: @e2") {
		t.Errorf("refs screenshot: %q", out)
	}
}

// An agent used to Playwright MCP's tools may give only element, their
// description of the target: the refusal says where the target goes.
func TestElementAloneIsToldToUseRef(t *testing.T) {
	h := newHarness(t)
	res := h.callTool(t, "browser_click", map[string]any{"element": "button 'Create ticket'"})
	if msg := text(res); !res.IsError || !strings.HasPrefix(msg, "bad_request") || !strings.Contains(msg, "put the target in ref") {
		t.Errorf("click with element alone: %s", msg)
	}
	res = h.callTool(t, "browser_click", map[string]any{})
	if msg := text(res); !res.IsError || strings.Contains(msg, "put the target in ref") {
		t.Errorf("click with nothing: %s", msg)
	}
}
