//go:build unix

package host

import (
	"path/filepath"
	"syscall"
	"testing"

	"github.com/grip-dev/grip/protocol"
)

// TestReadUploadRefusesAPipe: a named pipe is refused without blocking on
// it (opening one waits for a writer).
func TestReadUploadRefusesAPipe(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	testReadUploadRefusals(t, []refusal{{"pipe", []string{fifo}, protocol.CodeBadRequest, []string{fifo, "not a regular file"}}})
}
