//go:build !windows

package install

import (
	"io/fs"
	"syscall"
)

// ownedByAdmin reports whether root owns the file fi describes; a
// variable so tests, which may not run as root, can replace it.
var ownedByAdmin = func(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Uid == 0
}
