//go:build unix

package outdir

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// createFlags and readFlags are added to the open of a file in the
// folder: never the target of a link, never a FIFO's wait.
const (
	createFlags = syscall.O_NOFOLLOW
	readFlags   = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
)

// ownedPrivate refuses a folder that is not this user's or that others
// may write or read.
func ownedPrivate(st fs.FileInfo) error {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if ok && int(sys.Uid) != os.Getuid() {
		return errors.New("the folder belongs to another user")
	}
	if st.Mode().Perm()&0o077 != 0 {
		return errors.New("others may open the folder (grip makes it 0700: chmod 700 it)")
	}
	return nil
}
