//go:build !unix

package main

import (
	"os"
	"time"
)

// addUsage fills r's CPU figures from the child's times. Windows keeps no
// peak resident size or minor-fault count in a process's exit state, so
// those stay 0 there.
func addUsage(r *execResult, ps *os.ProcessState) {
	r.UserMS = float64(ps.UserTime()) / float64(time.Millisecond)
	r.SysMS = float64(ps.SystemTime()) / float64(time.Millisecond)
}
