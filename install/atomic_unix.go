//go:build !windows

package install

import (
	"os"
	"path/filepath"

	"github.com/google/renameio/v2"
)

// writeFile replaces name atomically with data at mode perm (umask
// ignored): temp file in the same folder, fsync, rename.
func writeFile(name string, data []byte, perm os.FileMode) error {
	return renameio.WriteFile(name, data, perm,
		renameio.WithTempDir(filepath.Dir(name)),
		renameio.WithStaticPermissions(perm))
}
