package main

import (
	"testing"

	"github.com/grip-dev/grip/internal/deptest"
)

// What the heavy side links, listed in deps_GOOS.txt: the host, the MCP
// server, the installer, the demo site, and the libraries they use.
func TestDependencies(t *testing.T) {
	deptest.Check(t, nil)
}
