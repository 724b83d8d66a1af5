//go:build !windows

package atomicfile

import (
	"os"
	"path/filepath"

	"github.com/google/renameio/v2"
)

func replace(name string, data []byte, perm os.FileMode) error {
	return renameio.WriteFile(name, data, perm,
		renameio.WithTempDir(filepath.Dir(name)),
		renameio.WithStaticPermissions(perm))
}

// SyncDir fsyncs a folder, making the renames in it durable.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
