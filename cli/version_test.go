package cli

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/grip-dev/grip/internal/version"
	"github.com/grip-dev/grip/protocol"
)

// `grip --version` and `grip version` print the version the host reports
// as host_version (hostmode passes the same version.String()).
func TestVersion(t *testing.T) {
	want := fmt.Sprintf("grip %s (protocol %d)\n", version.String(), protocol.Version)
	for _, arg := range []string{"--version", "version"} {
		var out, errb bytes.Buffer
		a := &App{Args: []string{arg}, Stdout: &out, Stderr: &errb}
		if code := a.Run(context.Background()); code != ExitOK || out.String() != want || errb.Len() != 0 {
			t.Errorf("grip %s: exit %d, stdout %q, stderr %q; want %q", arg, code, out.String(), errb.String(), want)
		}
	}
}
