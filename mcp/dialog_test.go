package mcp

import (
	"strings"
	"testing"

	"github.com/grip-dev/grip/protocol"
)

// A dialog, a tab opened and one still loading show in a tool's result,
// worded as the tools that answer them; a refusal because of a dialog
// says which tool answers it.
func TestResultsNameDialogsForTools(t *testing.T) {
	h := newHarness(t)
	confirm := &protocol.Dialog{Type: protocol.DialogConfirm, Message: "Discard the draft?"}
	h.host.reply = func(op string, args any) (any, error) {
		a, _ := args.(protocol.ActArgs)
		switch {
		case op == protocol.OpAct && a.Action == protocol.ActClick:
			res := fakeAct
			res.Dialog = confirm
			res.Opened = []protocol.OpenedTab{{Tab: 12, URL: "http://help.test/", Title: "Help center"}}
			res.Loading = "http://x.test/slow"
			return res, nil
		case op == protocol.OpAct:
			return nil, &protocol.Error{Code: protocol.CodeNotActionable, Boundary: protocol.BoundaryDocument,
				Message: "dialog open: confirm 'Discard the draft?'", Hint: "answer it first: grip dialog accept (--text T for a prompt) or grip dialog dismiss", Dialog: confirm}
		case op == protocol.OpTabs:
			return protocol.TabsResult{Tabs: []protocol.Tab{{ID: 7, Title: "Fixture", URL: "http://x.test/", Dialog: confirm}, {ID: 12, Title: "Help center", URL: "http://help.test/", Opener: 7}}}, nil
		}
		return defaultReply(op, args)
	}
	got := text(h.callTool(t, "browser_click", map[string]any{"ref": "e3"}))
	for _, want := range []string{
		"dialog open: confirm 'Discard the draft?' — answer with browser_handle_dialog",
		"opened: tab 12 · 'Help center' · http://help.test/",
		"still loading: http://x.test/slow (browser_wait_for or browser_snapshot to read it)",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("click result lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "grip dialog") {
		t.Errorf("click result names the CLI:\n%s", got)
	}
	res := h.callTool(t, "browser_type", map[string]any{"ref": "e5", "text": "x"})
	if !res.IsError || !strings.Contains(text(res), "answer it first with browser_handle_dialog") {
		t.Errorf("refusal behind a dialog: %s", text(res))
	}
	got = text(h.callTool(t, "browser_tabs", map[string]any{"action": "list"}))
	if !strings.Contains(got, "tab 12 · 'Help center' · http://help.test/ (opened by tab 7)") || !strings.Contains(got, "(dialog open: confirm") {
		t.Errorf("tab list:\n%s", got)
	}
}

// TestDownloadTextAsTheCLISaysIt: a running download's line gives its
// total as `grip downloads` does (frames.Download, their one renderer).
func TestDownloadTextAsTheCLISaysIt(t *testing.T) {
	d := protocol.Download{ID: 5, State: protocol.DownloadInProgress, Bytes: 512, Total: 2048, Tab: 9, URL: "http://x.test/f"}
	if got, want := downloadText(d), "5: in_progress, 512 of 2048 bytes, tab 9 · (no file yet) · http://x.test/f"; got != want {
		t.Errorf("downloadText = %q, want %q", got, want)
	}
}
