//go:build windows

package host

import (
	"context"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/grip-dev/grip/internal/winpipe"
	"github.com/grip-dev/grip/statedir"
)

// SocketPath returns the named pipe of a profile whose host publishes its
// info in runtimeDir (winpipe.Name): pipes live in the machine's one
// namespace, not in a folder.
func SocketPath(runtimeDir, profile string) string {
	return winpipe.Name(runtimeDir, profile)
}

// listen creates the profile's pipe (docs/wire.md, "The agents'
// socket on Windows"). The name is dialled first, as the Unix socket is: a
// live host of ours answers and we refuse to start; a pipe served by
// another user's process is reported as taken. A pipe leaves no file
// behind, so there is no stale one to replace.
func listen(runtimeDir, profile string) (*socketServer, error) {
	if err := statedir.Ensure(runtimeDir); err != nil {
		return nil, fmt.Errorf("host: runtime dir: %w", err)
	}
	path := SocketPath(runtimeDir, profile)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	c, derr := winpipe.Dial(ctx, path)
	cancel()
	if derr == nil {
		c.Close()
		return nil, fmt.Errorf("%w: %s answers", ErrHostRunning, path)
	}
	if errors.Is(derr, winpipe.ErrNotOwner) {
		return nil, fmt.Errorf("%w: %v; end that process (Task Manager → Details, by its PID) and let the browser start grip again", winpipe.ErrTaken, derr)
	}
	ln, err := winpipe.Listen(path)
	if err != nil {
		return nil, fmt.Errorf("host: %w", err)
	}
	return &socketServer{path: path, infoPath: InfoPath(runtimeDir, profile), ln: ln, conns: map[net.Conn]struct{}{}}, nil
}

// checkPeer refuses a client whose token's user is not ours: Windows' own
// answer to SO_PEERCRED (winpipe.CheckClient).
func checkPeer(c net.Conn) error {
	return winpipe.CheckClient(c)
}
