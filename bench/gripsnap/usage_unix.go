//go:build unix

package main

import (
	"os"
	"syscall"
)

// addUsage fills r's CPU, peak memory and page-fault figures from the
// child's rusage.
func addUsage(r *execResult, ps *os.ProcessState) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return
	}
	r.UserMS = float64(ru.Utime.Nano()) / 1e6
	r.SysMS = float64(ru.Stime.Nano()) / 1e6
	r.MaxRSS = int64(ru.Maxrss)
	r.MinFlt = int64(ru.Minflt)
}
