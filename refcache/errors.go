package refcache

import (
	"errors"
	"fmt"
)

// Errors of the ledger, checked with errors.Is.
var (
	// ErrLocked is returned by Open when another live host holds the
	// profile's ledger.
	ErrLocked = errors.New("refcache: profile is in use by another grip host")
	// ErrBadLedger wraps the refusal of a ledger or hwm file that failed
	// validation; the file has been moved aside.
	ErrBadLedger = errors.New("refcache: ledger refused")
	// ErrNotLocked is returned by Save when Open could not take the lock
	// for a reason other than another host (an unwritable state dir, say):
	// the allocator works in memory but never writes.
	ErrNotLocked = errors.New("refcache: ledger not locked, nothing is saved")
	// ErrClosed is returned by Save after Close.
	ErrClosed = errors.New("refcache: allocator closed")
	// ErrBadProfile is returned by Open for a profile id that cannot name
	// a file.
	ErrBadProfile = errors.New("refcache: bad profile id")

	// ErrTabFull: one tab alone holds MaxActive active refs, the most kept.
	ErrTabFull = errors.New("refcache: a tab holds the most refs kept")
)

// dupKeyError reports two entries with the same identity key.
type dupKeyError struct{ first, second uint64 }

func (e *dupKeyError) Error() string {
	return fmt.Sprintf("duplicate key: %s and %s name the same element", FormatRef(e.first), FormatRef(e.second))
}
