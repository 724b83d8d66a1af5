//go:build !windows

package install

import "syscall"

func syscallUmask(mask int) int { return syscall.Umask(mask) }
