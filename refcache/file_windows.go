package refcache

import (
	"os"
	"path/filepath"
)

// writeFileAtomic replaces name with data: a temp file in the same folder,
// written, flushed and renamed over name (MoveFileEx with
// MOVEFILE_REPLACE_EXISTING). renameio does not build on Windows.
func writeFileAtomic(name string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+"*")
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
	return os.Rename(tmp, name)
}

// syncDir does nothing: Windows cannot fsync a folder, and NTFS journals
// the rename.
func syncDir(string) error { return nil }
