//go:build !linux

package e2e

import "testing"

// Elsewhere there are no mount namespaces: the install tests run in place
// (they run on Linux only in CI).
func inPrivateSystem(t *testing.T) bool { return true }

func privateChildBin() (string, bool) { return "", false }
