//go:build !unix

package host

import (
	"io/fs"
	"os"
	"path/filepath"
)

// openNoFollow opens path for reading, refusing a link in its place
// (there is no O_NOFOLLOW here: an Lstat checks first).
func openNoFollow(path string) (*os.File, error) {
	if st, err := os.Lstat(path); err != nil {
		return nil, err
	} else if st.Mode()&fs.ModeSymlink != 0 {
		return nil, errLink
	}
	return os.Open(path)
}

var errLink = &fs.PathError{Op: "open", Err: fs.ErrInvalid}

func isLinkError(err error) bool { return err == errLink }

// openedIsJudged reports whether the open file f is the one at path:
// path still resolves to itself and to the same file.
func openedIsJudged(f *os.File, st fs.FileInfo, path string) bool {
	again, err := filepath.EvalSymlinks(path)
	if err != nil || again != path {
		return false
	}
	now, err := os.Stat(path)
	return err == nil && os.SameFile(now, st)
}
