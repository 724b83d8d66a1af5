//go:build !windows && !linux

package launcher

import "syscall"

// setDeathSignal has no equivalent here: Stop (and Ctrl-C handling in
// grip) ends the browser.
func setDeathSignal(*syscall.SysProcAttr, bool) {}

// parentOf is not needed here: the process group check suffices.
func parentOf(int) int { return 0 }

func zombie(int) bool { return false }

func liveInGroup(int) bool { return true }
