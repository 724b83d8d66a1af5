//go:build !windows

package host

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/grip-dev/grip/statedir"
)

// SocketPath returns the socket of a profile in the runtime dir.
func SocketPath(runtimeDir, profile string) string {
	return filepath.Join(runtimeDir, profile+".sock")
}

// socketPathMax is the longest socket path goos takes: sockaddr_un's
// sun_path holds 108 bytes on Linux, 104 on macOS and the BSDs, the
// terminating NUL included.
func socketPathMax(goos string) int {
	switch goos {
	case "linux", "android":
		return 107
	}
	return 103
}

// listen opens the profile's socket. A leftover socket is dialled first:
// if a live host answers it is left alone and we refuse to start; only a
// dead one is replaced.
func listen(runtimeDir, profile string) (*socketServer, error) {
	if err := statedir.Ensure(runtimeDir); err != nil {
		return nil, fmt.Errorf("host: runtime dir: %w", err)
	}
	path := SocketPath(runtimeDir, profile)
	if limit := socketPathMax(runtime.GOOS); len(path) > limit {
		// Else the bind fails with a bare "invalid argument".
		return nil, fmt.Errorf("host: the socket path %s is %d bytes, more than the %d this OS allows: set %s to a shorter folder",
			path, len(path), limit, statedir.EnvVar)
	}
	if _, err := os.Lstat(path); err == nil {
		c, derr := net.DialTimeout("unix", path, time.Second)
		if derr == nil {
			c.Close()
			return nil, fmt.Errorf("%w: %s answers", ErrHostRunning, path)
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("host: remove stale socket: %w", err)
		}
	}
	// The umask makes the socket 0600 from birth, with no window in which
	// another user could connect; the chmod below is belt and braces.
	restore := setUmask(0o177)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	restore()
	if err != nil {
		return nil, fmt.Errorf("host: listen on %s: %w", path, err)
	}
	ln.SetUnlinkOnClose(true)
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, err
	}
	return &socketServer{path: path, infoPath: InfoPath(runtimeDir, profile), ln: ln, conns: map[net.Conn]struct{}{}}, nil
}

// checkPeer refuses a client whose uid is not ours.
func checkPeer(nc net.Conn) error {
	c, ok := nc.(*net.UnixConn)
	if !ok {
		return fmt.Errorf("not a unix socket connection: %T", nc)
	}
	uid, err := peerUID(c)
	if err != nil {
		return fmt.Errorf("cannot read the peer's credentials: %w", err)
	}
	if uid != os.Getuid() {
		return fmt.Errorf("peer uid %d is not the owner %d", uid, os.Getuid())
	}
	return nil
}
