// Package wintest helps the tests that scripts/test-windows runs under
// Wine: telling Wine from Windows, and temporary folders Wine can remove.
package wintest

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TempDir is t.TempDir for tests that run under Wine, whose ntdll lacks
// what Go 1.26's os.RemoveAll uses on Windows (the cleanup fails with
// "Invalid function"): a fresh folder, removed entry by entry at the end.
func TempDir(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "grip-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { removeTree(dir) })
	return dir
}

// removeTree removes dir with one os.Remove per entry, deepest first.
func removeTree(dir string) {
	var paths []string
	_ = filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err == nil {
			paths = append(paths, p)
		}
		return nil
	})
	for _, p := range slices.Backward(paths) {
		_ = os.Remove(p)
	}
}
