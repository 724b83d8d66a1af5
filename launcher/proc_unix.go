//go:build !windows

package launcher

import (
	"os"
	"syscall"
)

// sysProcAttr puts the browser in a process group of its own, so that
// Stop reaches its renderers and helpers, and a Ctrl-C in the terminal
// reaches grip (which cleans up) and not the browser.
func sysProcAttr(dieWithParent bool) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true}
	setDeathSignal(a, dieWithParent)
	return a
}

// signalGroup sends SIGTERM, or SIGKILL when kill is set, to group pgid.
func signalGroup(pgid int, kill bool) error {
	sig := syscall.SIGTERM
	if kill {
		sig = syscall.SIGKILL
	}
	return syscall.Kill(-pgid, sig)
}

// GroupAlive reports whether a process of group pgid still runs; zombies
// left for an init that does not reap them do not count.
func GroupAlive(pgid int) bool {
	if pgid <= 0 || syscall.Kill(-pgid, 0) != nil {
		return false
	}
	return liveInGroup(pgid)
}

// groupOf returns pid's process group id, or 0.
func groupOf(pid int) int {
	g, err := syscall.Getpgid(pid)
	if err != nil {
		return 0
	}
	return g
}

func runningAsRoot() bool { return os.Geteuid() == 0 }

// Alive reports whether process pid runs (a zombie does not).
func Alive(pid int) bool {
	if pid <= 0 || syscall.Kill(pid, 0) != nil {
		return false
	}
	return !zombie(pid)
}
