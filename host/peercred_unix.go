//go:build linux || darwin

package host

import "net"

// peerUID reads the connecting process's uid; peerUIDOf is the OS's way
// (SO_PEERCRED on Linux, LOCAL_PEERCRED on macOS).
func peerUID(c *net.UnixConn) (int, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return -1, err
	}
	uid, serr := -1, error(nil)
	if err := raw.Control(func(fd uintptr) { uid, serr = peerUIDOf(int(fd)) }); err != nil {
		return -1, err
	}
	return uid, serr
}
