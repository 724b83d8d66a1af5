package launcher

import (
	"os/exec"
	"strconv"
	"syscall"
)

// sysProcAttr starts the browser in a new process group, so a Ctrl-C in
// the console reaches grip (which cleans up) and not the browser.
func sysProcAttr(bool) *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// signalGroup ends the browser's process tree with taskkill; Windows has
// no SIGTERM, so both steps force.
func signalGroup(pid int, kill bool) error {
	return exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(pid)).Run()
}

// GroupAlive reports whether the browser pid still runs.
func GroupAlive(pid int) bool {
	h, err := syscall.OpenProcess(syscall.PROCESS_QUERY_INFORMATION|syscall.SYNCHRONIZE, false, uint32(pid))
	if err != nil {
		return false
	}
	defer syscall.CloseHandle(h)
	ev, err := syscall.WaitForSingleObject(h, 0)
	return err == nil && ev == uint32(syscall.WAIT_TIMEOUT)
}

func groupOf(int) int     { return 0 }
func parentOf(int) int    { return 0 }
func runningAsRoot() bool { return false }

// Alive reports whether process pid runs.
func Alive(pid int) bool { return pid > 0 && GroupAlive(pid) }
