//go:build !windows

package refcache

import (
	"os"
	"path/filepath"

	"github.com/google/renameio/v2"
)

// writeFileAtomic replaces name with data: a 0600 temp file in the same
// folder, written, fsynced and renamed over name, then the folder fsynced
// so the rename itself survives a crash.
func writeFileAtomic(name string, data []byte) error {
	dir := filepath.Dir(name)
	f, err := renameio.NewPendingFile(name, renameio.WithTempDir(dir), renameio.WithStaticPermissions(0o600))
	if err != nil {
		return err
	}
	defer f.Cleanup()
	if _, err := f.Write(data); err != nil {
		return err
	}
	if err := f.CloseAtomicallyReplace(); err != nil {
		return err
	}
	return syncDir(dir)
}

// syncDir fsyncs a folder, making the renames in it durable.
func syncDir(dir string) error {
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
