//go:build unix

package host

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
)

// openNoFollow opens path for reading without following a link in its
// last place and without waiting on a pipe or a device.
func openNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
}

// isLinkError: O_NOFOLLOW met a link.
func isLinkError(err error) bool { return errors.Is(err, syscall.ELOOP) }

// openedIsJudged reports whether the open file f is the one at path:
// on Linux the kernel's own name of the open file is path; elsewhere
// path still resolves to itself (no folder on its way became a link) and
// to the same file.
func openedIsJudged(f *os.File, st fs.FileInfo, path string) bool {
	if runtime.GOOS == "linux" {
		if name, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(int(f.Fd()))); err == nil {
			return name == path
		}
	}
	again, err := filepath.EvalSymlinks(path)
	if err != nil || again != path {
		return false
	}
	now, err := os.Stat(path)
	return err == nil && os.SameFile(now, st)
}
