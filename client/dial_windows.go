//go:build windows

package client

import (
	"context"
	"io"

	"github.com/grip-dev/grip/internal/winpipe"
)

// dial connects to a host's named pipe and refuses one served by another
// user's process before sending anything (winpipe.Dial); the host checks
// our token in turn.
func dial(ctx context.Context, pipe string) (io.ReadWriteCloser, error) {
	return winpipe.Dial(ctx, pipe)
}
