// Package privatefile writes files that only their owner may read, and
// only as new files: never through a link, never over an existing file. A
// screenshot of a logged-in page is as private as the page, and a
// predictable name in a shared folder must not become someone else's file.
package privatefile

import (
	"errors"
	"os"
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
