// Package atomicfile writes files whole or not at all: a temp file in the
// same folder, written, fsynced and renamed over the target, then the
// folder fsynced so the rename itself survives a crash. A reader sees the
// old content or the new, never half of either. The ledger, the host's
// published info and install's manifests all write this way.
package atomicfile

import (
	"os"
	"path/filepath"
)

// WriteFile replaces name with data at mode perm (the umask does not apply).
func WriteFile(name string, data []byte, perm os.FileMode) error {
	if err := replace(name, data, perm); err != nil {
		return err
	}
	return SyncDir(filepath.Dir(name))
}
