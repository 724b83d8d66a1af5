// Package privatefile writes files that only their owner may read, and
// only as new files: never through a link, never over an existing file. A
// screenshot of a logged-in page is as private as the page, and a
// predictable name in a shared folder must not become someone else's file.
package privatefile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/grip-dev/grip/internal/atomicfile"
)

// WriteNew creates path (0600, exclusively: a link or a file already there
// is refused with an error that Is fs.ErrExist) and writes data to it; on a
// failed write the partial file is removed.
func WriteNew(path string, data []byte) error {
	fh, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, werr := fh.Write(data)
	cerr := fh.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(path)
		return err
	}
	return nil
}

// ErrNotRegular is a path that holds a link, a folder or a device:
// Replace never writes through or over one.
var ErrNotRegular = errors.New("not a regular file (a link, a folder or a device); grip never writes through or over one")

// Replace writes data to path (0600) whole or not at all, over a regular
// file already there (a temp file beside it, renamed over it): the
// person's --force. A link, folder or device at path is refused with
// ErrNotRegular, so a link is never followed nor silently replaced.
func Replace(path string, data []byte) error {
	st, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return WriteNew(path, data)
	case err != nil:
		return err
	case !st.Mode().IsRegular():
		return &fs.PathError{Op: "replace", Path: path, Err: ErrNotRegular}
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".grip-*.tmp") // 0600
	if err != nil {
		return err
	}
	_, werr := tmp.Write(data)
	serr := tmp.Sync()
	cerr := tmp.Close()
	if err := errors.Join(werr, serr, cerr); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil { // replaces a link swapped in, never follows it
		os.Remove(tmp.Name())
		return err
	}
	return atomicfile.SyncDir(filepath.Dir(path))
}
