package cli

import (
	"slices"
	"testing"

	"github.com/grip-dev/grip/mcp"
)

// setupCommands set grip up or run it; they are not an agent's verbs.
var setupCommands = []string{"install", "uninstall", "doctor", "demo", "launch", "mcp"}

// TestEveryVerbHasAnMCPTool fails when a CLI verb has no grip mcp tool, a
// tool no verb, or a verb names a tool the server does not register.
func TestEveryVerbHasAnMCPTool(t *testing.T) {
	registered := mcp.New(nil, mcp.Options{}).ToolNames()
	named := map[string]bool{}
	for _, verb := range commandNames() {
		if slices.Contains(setupCommands, verb) {
			continue
		}
		tool, ok := mcp.VerbTools()[verb]
		if !ok {
			t.Errorf("grip %s has no grip mcp tool (mcp.VerbTools)", verb)
			continue
		}
		if !slices.Contains(registered, tool) {
			t.Errorf("grip %s maps to %s, which grip mcp does not register", verb, tool)
		}
		named[tool] = true
	}
	for _, tool := range registered {
		if !named[tool] && mcp.Composites()[tool] == nil {
			t.Errorf("grip mcp's %s does what no CLI verb does (or mcp.VerbTools lacks its verb)", tool)
		}
	}
}
