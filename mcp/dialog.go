package mcp

import (
	"context"
	"strconv"
	"strings"
	"sync"

	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/protocol"
)

// browser_handle_dialog answers a tab's JavaScript dialog, as Playwright
// MCP's tool of that name does; every tool result names a dialog that is
// open (the action and snapshot texts carry it, refusals say so).

type dialogIn struct {
	Accept     bool   `json:"accept" jsonschema:"true to accept (OK, Leave), false to dismiss (Cancel, Stay)"`
	PromptText string `json:"promptText,omitempty" jsonschema:"The answer to a prompt dialog, when accepting it"`
	Tab        int    `json:"tab,omitempty" jsonschema:"Tab id (default: the active tab)"`
}

func (s *Server) addDialogTools() {
	addTool(s, &Tool{Name: "browser_handle_dialog", Title: "Handle a dialog",
		Description: "Answer the alert, confirm, prompt or beforeunload dialog the tab shows; while one is open the page can do nothing else. " +
			"The result says what the page did next, like an action's." + pageText},
		func(p map[string]*Schema) { p["tab"].Minimum = ptr(1.0) }, s.handleDialog)
}

func (s *Server) handleDialog(ctx context.Context, in dialogIn) (*CallToolResult, error) {
	args := protocol.ActArgs{Action: protocol.ActDialogDismiss, Tab: in.Tab}
	what := "Dismissed the dialog"
	if in.Accept {
		args.Action, args.Text, what = protocol.ActDialogAccept, in.PromptText, "Accepted the dialog"
	}
	res, err := s.doAct(ctx, args)
	if err != nil {
		return nil, err
	}
	return textResult(s.actionText(what, res)), nil
}

// toolWords rewrites the CLI's commands in a reply's text as the tools
// that do the same.
var toolWords = sync.OnceValue(func() *strings.Replacer { // on first use, not at every start
	return strings.NewReplacer(
		"answer with grip dialog accept --text T|dismiss", "answer with browser_handle_dialog (accept, promptText)",
		"answer with grip dialog accept|dismiss", "answer with browser_handle_dialog",
		"close it with grip dialog accept", "close it with browser_handle_dialog",
		"grip dialog accept leaves, dismiss stays", "browser_handle_dialog accept=true leaves, accept=false stays",
		"answer it first: grip dialog accept (--text T for a prompt) or grip dialog dismiss", "answer it first with browser_handle_dialog",
		"answer it first: grip dialog accept or grip dialog dismiss", "answer it first with browser_handle_dialog",
		"answer it first: grip dialog accept|dismiss", "answer it first with browser_handle_dialog",
		"nothing to answer; grip dialog shows the one open", "nothing to answer: every tool's result (and browser_tabs) names a dialog once one opens",
		"(grip wait or grip snapshot to read it)", "(browser_wait_for or browser_snapshot to read it)",
		"grip policy URL says which rule", "browser_policy with the url says which rule",
		"allows grip resume when the browser asks them", "allows browser_resume when the browser asks them",
	)
})

// tabNotes is what the tab list adds after a tab's URL: the tab that
// opened it, the dialog it shows, the session that owns it.
func tabNotes(t protocol.Tab) string {
	var notes []string
	if t.Opener > 0 {
		notes = append(notes, "opened by tab "+strconv.Itoa(t.Opener))
	}
	if t.Dialog != nil {
		notes = append(notes, frames.DialogLine(t.Dialog))
	}
	out := ""
	if len(notes) > 0 {
		out = " (" + strings.Join(notes, "; ") + ")"
	}
	if t.Owner != "" {
		out += " · session " + t.Owner
	}
	return out
}
