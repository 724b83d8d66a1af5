package cli

import (
	"slices"
	"strings"
	"testing"

	"github.com/grip-dev/grip/mcp"
	"github.com/grip-dev/grip/protocol"
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

// clientOwn are the operations the client sends itself, never a command:
// the hello opening every connection and the cancel of a call given up on.
var clientOwn = []string{protocol.OpHello, protocol.OpCancel}

// TestCommandsNameTheirOperations: every command names rows of
// protocol.Operations, every row is reached by a command (or is the
// client's own), and the usage text lists every command, so a row added
// to the table without a command, or a command left out of the help,
// fails here.
func TestCommandsNameTheirOperations(t *testing.T) {
	reached := map[string]bool{protocol.OpAct: true} // the actions' commands
	for _, c := range commandTable {
		if c.ops == nil && !slices.Contains(setupCommands, c.name) {
			t.Errorf("grip %s names no operation", c.name)
		}
		for _, op := range c.ops {
			if _, ok := protocol.OperationNamed(op); !ok {
				t.Errorf("grip %s names %q, no row of protocol.Operations", c.name, op)
			}
			reached[op] = true
		}
	}
	for _, row := range protocol.Operations() {
		if !reached[row.Name] && !slices.Contains(clientOwn, row.Name) {
			t.Errorf("no command calls the operation %s (cli/commands.go commandTable)", row.Name)
		}
	}
	u := usage()
	for _, name := range commandNames() {
		if !strings.Contains(u, "grip "+name+" ") && !strings.Contains(u, "grip "+name+"\n") {
			t.Errorf("the usage text does not list grip %s", name)
		}
	}
}
