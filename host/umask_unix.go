//go:build unix

package host

import "syscall"

// setUmask sets the process umask and returns a func restoring the old one.
func setUmask(mask int) func() {
	old := syscall.Umask(mask)
	return func() { syscall.Umask(old) }
}
