package mcp

import (
	"context"
	"strings"
	"sync"

	"github.com/grip-dev/grip/frames"
	"github.com/grip-dev/grip/protocol"
)

// browser_handle_dialog answers a tab's JavaScript dialog, as Playwright
// MCP's tool of that name does; every tool result names a dialog that is
// open (the action and snapshot texts carry it, refusals say so).

type dialogIn struct {
	Accept     bool   `json:"accept" jsonschema:"true: OK, Leave; false: Cancel, Stay"`
	PromptText string `json:"promptText,omitempty" jsonschema:"A prompt's answer"`
	tabIn
}

func (s *Server) addDialogTools() {
	addTool(s, &Tool{Name: "browser_handle_dialog", ops: []string{protocol.OpAct},
		Description: "Answer the dialog (alert, confirm, prompt, beforeunload) the tab shows; the page waits for it." + actReply},
		nil, s.handleDialog)
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

// toolWordPairs are the CLI's commands in a reply's text and the tools
// that do the same; each old one holds "grip " (TestToolWordsNameGrip),
// so a text without it (a page's snapshot, mostly) is not scanned for them.
var toolWordPairs = []string{
	"answer with grip dialog accept --text T|dismiss", "answer with browser_handle_dialog (accept, promptText)",
	"answer with grip dialog accept|dismiss", "answer with browser_handle_dialog",
	"close it with grip dialog accept", "close it with browser_handle_dialog",
	"grip dialog accept leaves, dismiss stays", "browser_handle_dialog accept=true leaves, accept=false stays",
	"answer it first: grip dialog accept (--text T for a prompt) or grip dialog dismiss", "answer it first with browser_handle_dialog",
	"answer it first: grip dialog accept or grip dialog dismiss", "answer it first with browser_handle_dialog",
	"answer it first: grip dialog accept|dismiss", "answer it first with browser_handle_dialog",
	"nothing to answer; grip dialog shows the one open", "nothing to answer: every tool's result (and browser_tabs) names a dialog once one opens",
	"(grip wait or grip snapshot to read it)", "(browser_wait_for or browser_snapshot to read it)",
	"grip policy URL says which rule", "browser_status with show: policy and the url says which rule",
	"allows grip resume when the browser asks them", "allows browser_pause with resume: true when the browser asks them",
}

// toolWordsReplacer is built on first use, not at every start.
var toolWordsReplacer = sync.OnceValue(func() *strings.Replacer { return strings.NewReplacer(toolWordPairs...) })

// toolWords rewrites the CLI's commands in a reply's text as the tools
// that do the same.
func toolWords(s string) string {
	if !strings.Contains(s, "grip ") {
		return s
	}
	return toolWordsReplacer().Replace(s)
}

// tabNotes is what the tab list adds after a tab's URL: the tab that
// opened it, the dialog it shows, the session that owns it.
func tabNotes(t protocol.Tab) string {
	return frames.TabNotes(t, frames.NotesLayout{Open: " (", Close: ")", Opener: "opened by tab %d", Owner: " · session "})
}
