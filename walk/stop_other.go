//go:build !unix

package walk

import "os"

// stopGroup stops the browser the walk launched.
func stopGroup(pid int) {
	if p, err := os.FindProcess(pid); pid > 0 && err == nil {
		_ = p.Kill()
	}
}
