//go:build windows

package statedir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/grip-dev/grip/internal/wintest"
)

// On Windows grip's files live in %LocalAppData%\grip unless
// GRIP_STATE_DIR moves them.
func TestWindowsStateFolder(t *testing.T) {
	t.Setenv(EnvVar, "")
	lad := os.Getenv("LOCALAPPDATA")
	if lad == "" {
		t.Fatal("no %LocalAppData% in this environment")
	}
	got, err := Root()
	if err != nil || got != filepath.Join(lad, "grip") {
		t.Fatalf("Root = %q, %v; want %s", got, err, filepath.Join(lad, "grip"))
	}
	moved := wintest.TempDir(t)
	t.Setenv(EnvVar, moved)
	if got, err := Root(); err != nil || got != moved {
		t.Errorf("Root with %s=%s: %q, %v", EnvVar, moved, got, err)
	}
}

// A state folder deeper than MAX_PATH (260) works: Go's os package adds
// the \\?\ prefix Windows needs, and nothing of grip's is limited by the
// folder's length (the pipe's name does not include it).
func TestWindowsLongStatePath(t *testing.T) {
	root := filepath.Join(wintest.TempDir(t), "Zoë Smith")
	for len(root) < 300 {
		root = filepath.Join(root, strings.Repeat("d", 40))
	}
	d := At(root)
	if err := Ensure(d.Runtime); err != nil {
		t.Fatalf("Ensure(%d characters): %v", len(d.Runtime), err)
	}
	f := filepath.Join(d.Runtime, "x.json")
	if err := os.WriteFile(f, []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(f); err != nil || string(b) != "{}" {
		t.Fatalf("read back %q, %v", b, err)
	}
}
