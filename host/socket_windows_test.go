//go:build windows

package host

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/grip-dev/grip/internal/winpipe"
	"github.com/grip-dev/grip/internal/wintest"
)

// A second host for a profile whose host lives is refused, and the first
// keeps answering: listen dials the name first (Wine does not enforce
// FILE_FLAG_FIRST_PIPE_INSTANCE; on Windows the create itself fails).
func TestPipeSecondHostRefused(t *testing.T) {
	runtime := filepath.Join(wintest.TempDir(t), "run")
	srv, err := listen(runtime, "p1")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.ln.Close()
	go func() {
		for {
			c, err := srv.ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	if _, err := listen(runtime, "p1"); !errors.Is(err, ErrHostRunning) {
		t.Fatalf("second listen: %v, want ErrHostRunning", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := winpipe.Dial(ctx, srv.path)
	if err != nil {
		t.Fatalf("the first host no longer answers: %v", err)
	}
	c.Close()
}

// The state folder's length does not limit the pipe (on Unix the socket
// path must fit sockaddr_un): a runtime folder past MAX_PATH works.
func TestWindowsLongStatePathPipe(t *testing.T) {
	runtime := wintest.TempDir(t)
	for len(runtime) < 300 {
		runtime = filepath.Join(runtime, strings.Repeat("r", 40))
	}
	srv, err := listen(runtime, "0123456789abcdef")
	if err != nil {
		t.Fatalf("listen with a %d-character runtime folder: %v", len(runtime), err)
	}
	srv.ln.Close()
	if !strings.HasPrefix(srv.path, winpipe.Prefix) || len(srv.path) > 100 {
		t.Errorf("pipe = %s", srv.path)
	}
}
