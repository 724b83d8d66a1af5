//go:build !windows

package wintest

// Wine is false off Windows.
func Wine() bool { return false }
