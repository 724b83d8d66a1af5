package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// An agent pays for tools/list (and the instructions its client puts
// beside it) once per session, before any work. The 36 tools were 38,961
// characters (8,964 o200k tokens) while each repeated what a target may be
// and that page text is untrusted; with that said once, in the
// instructions, they are 31,118 (6,993) and the instructions 2,523
// (docs/ARCHITECTURE.md, "MCP tools"; bench/run measures both beside
// Playwright MCP's every run). The budgets are those figures and about
// 10% more, so that neither grows back unnoticed: a tool or a property
// that needs more raises its budget here, in the open.
const (
	toolsListBudget    = 34_300
	instructionsBudget = 2_800
)

// TestToolsListWithinBudget builds the server and counts the characters
// of its tools/list result (what the session replies) as JSON written as
// a JavaScript client writes it (no HTML escaping), the way bench/mcp.mjs
// counts both servers'; and the instructions of its initialize result.
func TestToolsListWithinBudget(t *testing.T) {
	srv := New(func(context.Context) (Caller, error) { return &fakeHost{}, nil }, Options{Version: "test"})
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(listToolsResult{Tools: srv.tools}); err != nil {
		t.Fatal(err)
	}
	chars := utf8.RuneCount(bytes.TrimSpace(b.Bytes()))
	t.Logf("tools/list: %d tools, %d characters (budget %d)", len(srv.tools), chars, toolsListBudget)
	if chars > toolsListBudget {
		t.Errorf("tools/list is %d characters, over its budget of %d: say what tools share once, in the instructions, and keep each tool's own contract short (or raise toolsListBudget, saying why)", chars, toolsListBudget)
	}
	ins := utf8.RuneCountInString(instructions)
	t.Logf("instructions: %d characters (budget %d)", ins, instructionsBudget)
	if ins > instructionsBudget {
		t.Errorf("the instructions are %d characters, over their budget of %d", ins, instructionsBudget)
	}
}
