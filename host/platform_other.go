//go:build !unix

package host

import (
	"errors"
	"net"
)

// setUmask is a no-op where there is no umask; the socket's folder is
// what protects it there.
func setUmask(int) func() { return func() {} }

// peerUID is not implemented here, so every client is refused rather than
// let in unchecked.
func peerUID(*net.UnixConn) (int, error) {
	return -1, errors.New("peer credentials are not supported on this OS")
}
