//go:build !windows

package launcher

// registeredLocations is Windows' App Paths lookup; other OSes have none.
func registeredLocations() []string { return nil }
