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
			return protocol.ConsoleResult{Text: "Console of tab 3\n[error] boom ×2"}, nil
		case protocol.OpNetwork:
			return protocol.NetworkResult{Text: "Network of tab 3\n#4 GET 200 fetch 1 kB 5 ms http://a.example/x\n(2 successful static resources not shown: grip network --all)"}, nil
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
	h := newHarness(t)
	got := map[string]any{}
	devtoolsHost(t, h, got)
	if out := text(h.callTool(t, "browser_console_messages", map[string]any{"level": "error", "tab": 3})); !strings.Contains(out, "boom ×2") {
		t.Errorf("console: %q", out)
	}
	if a, _ := got[protocol.OpConsole].(protocol.ConsoleArgs); a.Level != "error" || a.Tab != 3 {
		t.Errorf("console args %+v", got[protocol.OpConsole])
	}
	out := text(h.callTool(t, "browser_network_requests", map[string]any{"includeStatic": false}))
	if !strings.Contains(out, "#4 GET 200") || !strings.Contains(out, "includeStatic: true") || strings.Contains(out, "grip network --all") {
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
	dir := t.TempDir()
	pdf := filepath.Join(dir, "p.pdf")
	if out := text(h.callTool(t, "browser_pdf_save", map[string]any{"filename": pdf})); !strings.Contains(out, pdf) {
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
