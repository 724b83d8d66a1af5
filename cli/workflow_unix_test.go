//go:build unix

package cli

import (
	"errors"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/grip-dev/grip/protocol"
)

// TestReplayNeverWaitsOnAPipe: a named pipe given as the workflow is
// refused at once, not opened (which would wait for a writer).
func TestReplayNeverWaitsOnAPipe(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	if _, err := readWorkflow(fifo); !errors.Is(err, protocol.ErrBadRequest) {
		t.Errorf("a named pipe: %v", err)
	}
}
