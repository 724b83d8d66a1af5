package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"

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
		a := &App{Args: args, Stdout: &out, Stderr: &errb}
		if code := a.Run(context.Background()); code != ExitUsage || !strings.Contains(errb.String(), "--system") {
			t.Errorf("grip %s: exit %d, stderr %q", strings.Join(args, " "), code, errb.String())
		}
	}
}
