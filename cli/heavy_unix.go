//go:build !windows

package cli

import (
	"os"
	"syscall"
)

const canExec = true

// execSelf replaces this process with bin; it returns only on failure.
func execSelf(bin string, args []string) error {
	return syscall.Exec(bin, append([]string{bin}, args...), os.Environ())
}
