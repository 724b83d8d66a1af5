//go:build unix

package walk

import (
	"syscall"
	"time"
)

// stopGroup stops the browser the walk launched and everything it
// started (grip launch runs it in a process group of its own, its pid the
// group's id), and waits up to five seconds for the group to be gone, so
// that its profile folder can be removed after it.
func stopGroup(pid int) {
	if pid <= 0 {
		return
	}
	_ = syscall.Kill(-pid, syscall.SIGTERM)
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if syscall.Kill(-pid, 0) != nil {
			return
		}
	}
	_ = syscall.Kill(-pid, syscall.SIGKILL)
}
