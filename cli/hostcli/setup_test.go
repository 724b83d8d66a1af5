package hostcli

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/grip-dev/grip/cli"
	"github.com/grip-dev/grip/protocol"
)

func TestNeedRoot(t *testing.T) {
	if err := needRoot("linux", 0, "install"); err != nil {
		t.Errorf("root on Linux: %v", err)
	}
	err := needRoot("linux", 1000, "install")
	pe := protocol.AsError(err)
	if err == nil || !strings.Contains(pe.Message, "needs root") || !strings.Contains(pe.Hint, "sudo ") || !strings.HasSuffix(pe.Hint, " install --system") {
		t.Errorf("not root: %+v", pe)
	}
	for _, goos := range []string{"darwin", "windows"} {
		pe := protocol.AsError(needRoot(goos, 0, "install"))
		if pe == nil || !strings.Contains(pe.Message, "Linux-only") || !strings.Contains(pe.Hint, "Load unpacked") {
			t.Errorf("%s: %+v", goos, pe)
		}
	}
}

// --system does not mix with the flags that name one profile.
func TestSystemFlagsUsage(t *testing.T) {
	for _, args := range [][]string{
		{"install", "--system", "--user-data-dir", "/p"},
		{"uninstall", "--system", "--browser", "chromium"},
		{"uninstall", "--system", "--user-data-dir", "/p"},
	} {
		var out, errb bytes.Buffer
		a := &cli.App{Args: args, Stdout: &out, Stderr: &errb, Heavy: Heavy}
		if code := a.Run(context.Background()); code != cli.ExitUsage || !strings.Contains(errb.String(), "--system") {
			t.Errorf("grip %s: exit %d, stderr %q", strings.Join(args, " "), code, errb.String())
		}
	}
}

// grip mcp --help says what an MCP server's session is named after (a
// new one each run), not the CLI's default.
func TestMCPHelpNamesItsSession(t *testing.T) {
	var out, errb bytes.Buffer
	a := &cli.App{Args: []string{"mcp", "--help"}, Stdout: &out, Stderr: &errb, Heavy: Heavy, Getenv: func(string) string { return "" }}
	a.Run(context.Background())
	help := out.String() + errb.String()
	if !strings.Contains(help, "-session") || strings.Contains(help, "else cli)") ||
		!strings.Contains(help, "MCP client's name and this process's id") {
		t.Errorf("grip mcp --help:\n%s", help)
	}
}
