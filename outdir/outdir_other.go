//go:build !unix

package outdir

import "io/fs"

// Without O_NOFOLLOW the Lstat before each open and the same-file check
// after it keep links out.
const (
	createFlags = 0
	readFlags   = 0
)

// ownedPrivate has no owner or mode bits to check here: the folder lives
// under the user's own profile folder.
func ownedPrivate(fs.FileInfo) error { return nil }
