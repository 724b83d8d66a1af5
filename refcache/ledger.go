package refcache

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gofrs/flock"
	"github.com/grip-dev/grip/internal/atomicfile"
)

// The ledger's life: Open (the lock, reading both files, refusing and
// moving aside what fails validation), Save and Close. What the files
// hold and how they are read and written is ledger_format.go (with its
// scanner in ledger_scanner.go); what is kept of a refused file is
// ledger_salvage.go.

const (
	// ledgerVersion is the version of the ledger format that Save writes.
	// Version 1 kept each element's role and name; it is still read (the
	// two hashed into a signature), and Open rewrites it at once.
	ledgerVersion = 2

	// hwmVersion is the version of the hwm file format.
	hwmVersion = 1

	// reserveBlock is how many numbers one write of the hwm file reserves
	// beyond what the current call needs.
	reserveBlock = 1024

	// DefaultLockWait is how long Open waits for another host of the same
	// profile to let go of the ledger before it gives up.
	DefaultLockWait = 2 * time.Second

	// maxEntries bounds the entries of a ledger: every kept entry, active
	// or not. A ledger with more is not one grip wrote.
	maxEntries = MaxInactive + MaxActive

	// maxEntryBytes bounds one entry as encodeLocked writes it, with every
	// number at its widest (135 bytes), and its document's id (quoted,
	// and a comma).
	maxEntryBytes = 160 + maxDocID + 3

	// maxLedgerSize bounds what Open reads of a ledger: the most that
	// maxEntries entries can take. A bigger file is not one grip wrote; it
	// is refused (and moved aside) without being read, since reading it
	// could exhaust memory before anything was moved aside.
	maxLedgerSize = 4096 + maxEntries*maxEntryBytes

	// maxHWMSize bounds what Open reads of an hwm file (grip's are under
	// 200 bytes).
	maxHWMSize = 4096

	// maxSalvageScan bounds how much of a refused file is scanned for
	// numbers to start above.
	maxSalvageScan = 1 << 30

	// keepBad is how many refused copies of each file are kept aside, the
	// newest ones, for a bug report; older ones are deleted.
	keepBad = 3

	// maxSeq bounds an entry's seq in a ledger, so the counter cannot wrap.
	maxSeq = 1 << 62
)

// Options tune OpenWith. The zero value is what Open uses.
type Options struct {
	// WriteFile replaces the file name with data, whole or not at all. Nil
	// means an atomic write: a 0600 temp file in the same folder, fsync,
	// rename over name, fsync of the folder. Tests inject failures here. It
	// must not keep data after it returns.
	WriteFile func(name string, data []byte) error

	// LockWait is how long Open waits for another host holding the
	// profile; zero means DefaultLockWait.
	LockWait time.Duration
}

// ledger is an allocator's footing on disk.
type ledger struct {
	profile string
	path    string // <profile>.json, the state
	hwmPath string // <profile>.hwm, the reserved high-water mark
	write   func(name string, data []byte) error
	lock    *flock.Flock // held from Open to Close; nil when not locked

	// readOnly, when set, is why nothing may be written (the lock could
	// not be taken, or a ledger could be neither read nor moved aside);
	// Save returns it. Set at Open only.
	readOnly error
	// loadErr is the refusal of what Open found. Set at Open only.
	loadErr error

	// durable is the reservation on disk: every number handed out must be
	// below it. Guarded by Allocator.mu.
	durable uint64
	// hwmErr is the last failed reservation, reported by Save until one
	// succeeds. Guarded by Allocator.mu.
	hwmErr error
	// saved and savedSigs are the Allocator.version and sigs last written.
	// Guarded by Allocator.mu.
	saved, savedSigs uint64
	// closed is set by Close. Guarded by Allocator.mu.
	closed bool

	// saveMu serialises Save and Close, so an older state is never
	// written over a newer one; it is taken before Allocator.mu.
	saveMu sync.Mutex
	// sizeHint is the size of the last ledger written. Guarded by saveMu.
	sizeHint int
}

// Open returns the allocator of a browser profile, backed by files in dir:
//
//	<profile>.json   the ledger: every kept entry and the counter
//	<profile>.hwm    the reserved high-water mark: no number below it is
//	                 handed out again, whatever happens to the ledger
//	<profile>.lock   held while the allocator is open
//
// A ledger or hwm file that fails validation does not make Open fail: it
// is moved aside to <name>.bad-<time> (the newest keepBad of these are
// kept), the allocator starts empty with a counter above every number it
// can still read, and LoadError reports the refusal; a ledger larger than
// any the allocator writes is refused so without being read. A ledger of
// the first format, which kept page text (names), is loaded and rewritten
// at once without it. Open fails when another host holds the profile
// (ErrLocked, after waiting DefaultLockWait) or when profile cannot name a
// file (ErrBadProfile). When the lock cannot be taken for another reason (an
// unwritable dir, say) Open still succeeds: the allocator works in memory,
// LoadError says why, and Save returns ErrNotLocked.
func Open(dir, profile string) (*Allocator, error) {
	return OpenWith(dir, profile, Options{})
}

// OpenWith is Open with options.
func OpenWith(dir, profile string, o Options) (*Allocator, error) {
	if !validProfile(profile) {
		return nil, fmt.Errorf("%w: %q: use letters, digits, '.', '_' and '-', starting with a letter or digit, at most 128", ErrBadProfile, profile)
	}
	l := &ledger{
		profile: profile,
		path:    filepath.Join(dir, profile+".json"),
		hwmPath: filepath.Join(dir, profile+".hwm"),
		write:   o.WriteFile,
	}
	if l.write == nil {
		l.write = writeFileAtomic
	}
	wait := o.LockWait
	if wait <= 0 {
		wait = DefaultLockWait
	}
	var problems []error
	mkErr := os.MkdirAll(dir, 0o700)
	lockPath := filepath.Join(dir, profile+".lock")
	lk := flock.New(lockPath, flock.SetPermissions(0o600))
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	ok, err := lk.TryLockContext(ctx, 20*time.Millisecond)
	cancel()
	switch {
	case ok:
		l.lock = lk
		removeLeftovers(dir, filepath.Base(l.path), filepath.Base(l.hwmPath))
		pruneAside(l.path)
		pruneAside(l.hwmPath)
	case err == nil || errors.Is(err, context.DeadlineExceeded):
		return nil, fmt.Errorf("%w: profile %q: %s is held (waited %v); stop the other host or give this one another profile",
			ErrLocked, profile, lockPath, wait)
	default:
		if mkErr != nil {
			err = mkErr
		}
		l.readOnly = fmt.Errorf("%w: lock %s: %v", ErrNotLocked, lockPath, err)
		problems = append(problems, fmt.Errorf("%w; refs are kept in memory only", l.readOnly))
	}

	a := newAllocator()
	a.ledger = l
	migrate := func() bool {
		a.mu.Lock()
		defer a.mu.Unlock()
		hwm, floor, err := a.loadHWMLocked()
		if err != nil {
			problems = append(problems, err)
		}
		l.durable = hwm
		ledgerFloor, old, err := a.loadLedgerLocked()
		if err != nil {
			problems = append(problems, err)
			a.version++ // write a fresh ledger at the next Save
		}
		if old {
			a.version++ // rewrite it without the names, below
		}
		a.next = max(a.next, hwm, floor, ledgerFloor)
		a.reserved = l.durable
		if l.durable < a.next {
			a.reserveLocked(0) // make the floor durable before anything is handed out
		}
		return old
	}()
	if migrate && l.readOnly == nil {
		if err := a.Save(); err != nil {
			problems = append(problems, fmt.Errorf("refcache: rewriting %s without page text: %w", l.path, err))
		}
	}
	l.loadErr = errors.Join(problems...)
	return a, nil
}

// LoadError returns what Open refused: a ledger or hwm file that failed
// validation (with the path it was moved aside to), or a lock it could not
// take. It is nil for New and for a clean Open.
func (a *Allocator) LoadError() error {
	if a.ledger == nil {
		return nil
	}
	return a.ledger.loadErr
}

// Save writes the whole ledger, if anything it records changed since the
// last successful Save, and first reserves in the hwm file any number
// handed out above the last reservation that reached the disk. An error
// leaves the allocator working: it is for the host to log and report, and
// the next Save tries again. It also reports, once, elements that got no
// ref because their tab alone holds MaxActive entries. Save does nothing
// for New. A change of signatures alone waits for the next Save that has
// another change to write, or for Close (Allocator.sigs).
func (a *Allocator) Save() error {
	return a.save(false)
}

// save is Save; all writes a change of signatures alone too.
func (a *Allocator) save(all bool) error {
	l := a.ledger
	if l == nil {
		return nil
	}
	l.saveMu.Lock()
	defer l.saveMu.Unlock()
	a.mu.Lock()
	switch {
	case l.closed:
		a.mu.Unlock()
		return ErrClosed
	case l.readOnly != nil:
		a.mu.Unlock()
		return l.readOnly
	}
	if l.durable < a.next {
		a.reserveLocked(0)
	} else {
		l.hwmErr = nil // nothing handed out is at risk
	}
	hwmErr := errors.Join(l.hwmErr, a.overflow)
	a.overflow = nil
	if a.version == l.saved && (!all || a.sigs == l.savedSigs) {
		a.mu.Unlock()
		return hwmErr
	}
	v, sigs := a.version, a.sigs
	data := a.encodeLocked(make([]byte, 0, l.sizeHint))
	a.mu.Unlock()

	l.sizeHint = len(data) + len(data)/8
	if err := l.write(l.path, data); err != nil {
		return errors.Join(hwmErr, fmt.Errorf("refcache: save %s: %w", l.path, err))
	}
	a.mu.Lock()
	l.saved, l.savedSigs = max(l.saved, v), max(l.savedSigs, sigs)
	a.mu.Unlock()
	return hwmErr
}

// Close saves the ledger and lets go of the profile. The allocator still
// answers afterwards, from memory only; Save then returns ErrClosed.
func (a *Allocator) Close() error {
	l := a.ledger
	if l == nil {
		return nil
	}
	err := a.save(true)
	if errors.Is(err, ErrClosed) {
		return nil
	}
	l.saveMu.Lock()
	a.mu.Lock()
	l.closed = true
	a.mu.Unlock()
	l.saveMu.Unlock()
	if l.lock != nil {
		err = errors.Join(err, l.lock.Unlock())
	}
	return err
}

// reserveLocked makes room for more numbers after a.next, plus a block,
// writing the new high-water mark before any of them is handed out. When
// the write fails, a.reserved stays at the last reservation that reached
// the disk: numbers below it are still handed out, none above it (a host
// that died after handing out numbers it could not record would see them
// handed out again by the next one); Save reports the failure, and the
// next call that needs a number tries again. An allocator that cannot
// write at all (New, not locked, closed) reserves in memory only.
func (a *Allocator) reserveLocked(more uint64) {
	want := a.next + more + reserveBlock
	l := a.ledger
	if l == nil || l.readOnly != nil || l.closed {
		a.reserved = want
		return
	}
	if err := l.write(l.hwmPath, encodeHWM(l.profile, want)); err != nil {
		l.hwmErr = fmt.Errorf("refcache: reserve refs below %s in %s: %w", FormatRef(want), l.hwmPath, err)
		a.reserved = l.durable
		a.noRoomSeq = a.seq
		return
	}
	a.reserved = want
	l.durable, l.hwmErr = want, nil
}

// loadHWMLocked reads the hwm file. It returns the reservation found on
// disk, and for a refused file the highest number salvaged from it.
func (a *Allocator) loadHWMLocked() (hwm, floor uint64, err error) {
	l := a.ledger
	data, err := readFile(l.hwmPath, maxHWMSize)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return 0, 0, nil
	case err == nil:
		hwm, err = decodeHWM(data, l.profile)
		if err == nil {
			return hwm, 0, nil
		}
		floor = salvage(data, hwmNumbers)
		if floor == 0 {
			floor = salvage(data, anyNumbers)
		}
	case errors.Is(err, errTooLarge):
		floor = salvageFile(l.hwmPath, hwmNumbers)
		if floor == 0 {
			floor = salvageFile(l.hwmPath, anyNumbers)
		}
	}
	return 0, floor, a.refuseLocked(l.hwmPath, err)
}

// loadLedgerLocked reads the ledger into a, and reports whether it is of
// the first format (old), which kept names. For a refused ledger it leaves
// a empty and returns a counter above every number salvaged from it.
func (a *Allocator) loadLedgerLocked() (floor uint64, old bool, err error) {
	l := a.ledger
	data, err := readFile(l.path, maxLedgerSize)
	var n uint64
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return 0, false, nil
	case err == nil:
		old, err = a.decodeLocked(data, l.profile)
		if err == nil {
			return 0, old, nil // l.saved is 0, the version decoded
		}
		a.resetLocked()
		n = salvage(data, ledgerNumbers)
	case errors.Is(err, errTooLarge):
		n = salvageFile(l.path, ledgerNumbers)
	}
	if n > 0 {
		floor = n + 1
	}
	return floor, false, a.refuseLocked(l.path, err)
}

// refuseLocked moves a refused file aside and says so. When it cannot be
// moved, nothing is written over it: the allocator turns read-only.
func (a *Allocator) refuseLocked(path string, why error) error {
	l := a.ledger
	if l.readOnly != nil {
		return fmt.Errorf("%w: %s: %v; left in place", ErrBadLedger, path, why)
	}
	moved, err := moveAside(path)
	if err != nil {
		l.readOnly = fmt.Errorf("refcache: %s was refused and cannot be moved aside (%v); nothing is saved", path, err)
		return fmt.Errorf("%w: %s: %v; cannot move it aside: %v", ErrBadLedger, path, why, err)
	}
	return fmt.Errorf("%w: %s: %v; moved aside to %s", ErrBadLedger, path, why, moved)
}

// resetLocked empties the table.
func (a *Allocator) resetLocked() {
	a.slots, a.docs, a.queue, a.qhead = nil, nil, nil, 0
	clear(a.byKey)
	clear(a.docIdx)
	clear(a.tabs)
	a.live, a.inactive, a.holes = 0, 0, 0
	a.next, a.seq, a.version = 1, 1, 0
}

// moveAside renames a refused file to <path>.bad-<time>, never over an
// existing file, and deletes all but the newest keepBad of these.
func moveAside(path string) (string, error) {
	stamp := time.Now().UTC().Format("20060102T150405.000000000Z")
	for i := 0; i < 100; i++ {
		dst := path + ".bad-" + stamp
		if i > 0 {
			dst += "-" + strconv.Itoa(i)
		}
		if _, err := os.Lstat(dst); err == nil {
			continue
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		if err := os.Rename(path, dst); err != nil {
			return "", err
		}
		_ = atomicfile.SyncDir(filepath.Dir(path))
		pruneAside(path)
		return dst, nil
	}
	return "", fmt.Errorf("no free name for %s.bad-%s", path, stamp)
}

// pruneAside deletes all but the newest keepBad files that moveAside made
// of path: they may hold page text, and a host that keeps refusing a file
// must not fill the disk. Their names sort by time. The caller holds the
// lock.
func pruneAside(path string) {
	ents, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		return
	}
	prefix := filepath.Base(path) + ".bad-"
	var aside []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), prefix) && !e.IsDir() {
			aside = append(aside, e.Name())
		}
	}
	if len(aside) <= keepBad {
		return
	}
	slices.Sort(aside)
	for _, name := range aside[:len(aside)-keepBad] {
		_ = os.Remove(filepath.Join(filepath.Dir(path), name))
	}
}

// removeLeftovers deletes the temp files ("." + name + random digits) of
// writes that a crash cut short. The caller holds the lock.
func removeLeftovers(dir string, names ...string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		for _, name := range names {
			rest, ok := strings.CutPrefix(e.Name(), "."+name)
			if ok && rest != "" && strings.Trim(rest, "0123456789") == "" {
				_ = os.Remove(filepath.Join(dir, e.Name()))
			}
		}
	}
}

// errTooLarge is readFile's refusal of a file over its limit.
var errTooLarge = errors.New("larger than a ledger grip writes")

// readFile reads a whole file of at most limit bytes. A bigger one is
// refused with errTooLarge before any of it is read.
func readFile(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.Size() > limit {
		return nil, fmt.Errorf("%w: %d bytes, limit %d", errTooLarge, st.Size(), limit)
	}
	data := make([]byte, 0, st.Size()+1) // +1: a file that grew shows at the end
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if int64(len(data)) > limit {
			return nil, fmt.Errorf("%w: more than %d bytes", errTooLarge, limit)
		}
		if errors.Is(err, io.EOF) {
			return data, nil
		}
		if err != nil {
			return nil, err
		}
		if len(data) == cap(data) {
			data = slices.Grow(data, 4096)
		}
	}
}

// validProfile reports whether a profile id can name the ledger's files.
func validProfile(p string) bool {
	if p == "" || len(p) > 128 {
		return false
	}
	for i := 0; i < len(p); i++ {
		c := p[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || c != '.' && c != '_' && c != '-') {
			return false
		}
	}
	return true
}

// writeFileAtomic writes a ledger file whole, 0600, durably.
func writeFileAtomic(name string, data []byte) error { return atomicfile.WriteFile(name, data, 0o600) }
