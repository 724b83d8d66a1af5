//go:build unix

package actlog

import "syscall"

// noFollow keeps an append from following a link planted in the log's
// place.
const noFollow = syscall.O_NOFOLLOW
