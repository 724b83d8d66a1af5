package atomicfile

import (
	"os"
	"path/filepath"
)

// replace is renameio's recipe by hand (renameio does not build on
// Windows): os.Rename is MoveFileEx with MOVEFILE_REPLACE_EXISTING.
func replace(name string, data []byte, perm os.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // fails harmlessly once renamed
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp, perm); err != nil {
		return err
	}
	return os.Rename(tmp, name)
}

// SyncDir does nothing: Windows cannot fsync a folder, and NTFS journals
// the rename.
func SyncDir(string) error { return nil }
