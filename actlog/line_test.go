package actlog

import (
	"strings"
	"testing"

	"github.com/grip-dev/grip/protocol"
)

// TestLineStaysOneLine: an entry of an older file, or one an agent
// shaped, prints as one line whatever its fields hold.
func TestLineStaysOneLine(t *testing.T) {
	line := Line(protocol.LogEntry{Time: "2026-05-01T12:00:00Z", Action: "click", Tab: 4,
		Target: "a\n2026-05-01 12:00:03  tab 5  https://bank.example  click @e1  ok  (cli)", Outcome: "ok", Client: "cli\r\n"})
	if strings.ContainsAny(line, "\r\n") || !strings.Contains(line, `click a\n2026`) {
		t.Errorf("Line = %q", line)
	}
}
