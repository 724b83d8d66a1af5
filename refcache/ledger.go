package refcache

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/gofrs/flock"
	"github.com/grip-dev/grip/internal/atomicfile"
)

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
	// saved is the Allocator.version last written. Guarded by Allocator.mu.
	saved uint64
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
// for New.
func (a *Allocator) Save() error {
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
	if a.version == l.saved {
		a.mu.Unlock()
		return hwmErr
	}
	v := a.version
	data := a.encodeLocked(make([]byte, 0, l.sizeHint))
	a.mu.Unlock()

	l.sizeHint = len(data) + len(data)/8
	if err := l.write(l.path, data); err != nil {
		return errors.Join(hwmErr, fmt.Errorf("refcache: save %s: %w", l.path, err))
	}
	a.mu.Lock()
	l.saved = max(l.saved, v)
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
	err := a.Save()
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

// numbers says which numbers of a refused file salvage takes: the lenient
// scans for every number that may be a ref or a counter. An over-estimate
// only skips numbers; an under-estimate could repeat one.
type numbers int

const (
	ledgerNumbers numbers = iota // after '[' or "next": (up to 16 digits)
	hwmNumbers                   // after "reserved":
	anyNumbers                   // every run of up to 16 digits
)

// salvage returns the largest number at most MaxRef that which finds in
// data. It is a plain byte scan, fast enough for a file of any size.
func salvage(data []byte, which numbers) uint64 {
	var top uint64
	take := func(i int) int { // reads up to 16 digits at i
		var n uint64
		j := i
		for ; j < len(data) && j-i < 16 && data[j] >= '0' && data[j] <= '9'; j++ {
			n = n*10 + uint64(data[j]-'0')
		}
		if j > i && n <= MaxRef {
			top = max(top, n)
		}
		return j
	}
	skipSpace := func(i int) int {
		for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
			i++
		}
		return i
	}
	afterColon := func(i int) int { // i is past a key; -1 when no ':' follows
		if i = skipSpace(i); i < len(data) && data[i] == ':' {
			return skipSpace(i + 1)
		}
		return -1
	}
	for i := 0; i < len(data); i++ {
		switch {
		case which == anyNumbers && data[i] >= '0' && data[i] <= '9':
			i = take(i) - 1
		case which == ledgerNumbers && data[i] == '[':
			take(skipSpace(i + 1))
		case which == ledgerNumbers && bytes.HasPrefix(data[i:], []byte(`"next"`)):
			if j := afterColon(i + 6); j >= 0 {
				take(j)
			}
		case which == hwmNumbers && bytes.HasPrefix(data[i:], []byte(`"reserved"`)):
			if j := afterColon(i + 10); j >= 0 {
				take(j)
			}
		}
	}
	return top
}

// salvageFile is salvage of a file too large to read whole: it scans the
// first maxSalvageScan bytes in chunks, each overlapping the last so that
// a number cut by a chunk's end is read whole from the next.
func salvageFile(path string, which numbers) uint64 {
	f, err := os.Open(path)
	if err != nil {
		return 0
	}
	defer f.Close()
	const chunk, overlap = 1 << 20, 64
	r := io.LimitReader(f, maxSalvageScan)
	buf := make([]byte, overlap+chunk)
	var top uint64
	kept := 0
	for {
		n, err := io.ReadFull(r, buf[kept:])
		win := buf[:kept+n]
		top = max(top, salvage(win, which))
		if err != nil {
			return top
		}
		kept = copy(buf, win[len(win)-overlap:])
	}
}

// The hwm file: {"version":1,"profile":"…","reserved":N}.
type hwmFile struct {
	Version  *int    `json:"version"`
	Profile  *string `json:"profile"`
	Reserved *uint64 `json:"reserved"`
}

func encodeHWM(profile string, reserved uint64) []byte {
	b := []byte(`{"version":1,"profile":`)
	b = appendString(b, profile)
	b = append(b, `,"reserved":`...)
	b = strconv.AppendUint(b, reserved, 10)
	return append(b, "}\n"...)
}

func decodeHWM(data []byte, profile string) (uint64, error) {
	var f hwmFile
	if err := decodeStrict(data, &f); err != nil {
		return 0, err
	}
	switch {
	case f.Version == nil || f.Profile == nil || f.Reserved == nil:
		return 0, errors.New("missing version, profile or reserved")
	case *f.Version != hwmVersion:
		return 0, fmt.Errorf("unsupported version %d", *f.Version)
	case *f.Profile != profile:
		return 0, fmt.Errorf("written for profile %q", *f.Profile)
	case *f.Reserved > maxSeq:
		return 0, fmt.Errorf("reserved %d out of range", *f.Reserved)
	}
	return *f.Reserved, nil
}

// The ledger file (version 2):
//
//	{"version":2,"profile":"…","next":N,"documents":["docid",…],"entries":[
//	[ref,doc,frameId,localId,tab,active,"sig",seq],
//	…]}
//
// doc indexes documents; sig is the element's Signature in 16 hex digits;
// seq orders forgetting among inactive entries. Version 1 had "role","name"
// where version 2 has "sig". decodeLocked reads both.

// decodeStrict decodes one JSON object into v, refusing unknown fields and
// anything after it.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("data after the object")
	}
	return nil
}

// decodeLocked loads a ledger into an empty allocator, refusing anything
// that fails validation; a may hold part of it after a refusal. It reads
// data in place, so that memory follows the entries decoded, never what
// the bytes claim, and refuses more than maxEntries entries. old reports a
// ledger of version 1, whose names are hashed as they are read.
func (a *Allocator) decodeLocked(data []byte, profile string) (old bool, err error) {
	if !json.Valid(data) {
		// Let encoding/json say what is wrong; it checks the syntax before
		// it decodes anything, into nothing here.
		if err := json.Unmarshal(data, new(struct{})); err != nil {
			return false, err
		}
		return false, errors.New("not valid JSON")
	}
	var (
		version, next uint64
		prof          string
		docs, entries []byte
		seen          = map[string]bool{}
		sc            = scanner{b: data}
	)
	if !sc.expect('{') {
		return false, errors.New("not an object")
	}
	for !sc.expect('}') {
		if len(seen) > 0 && !sc.expect(',') {
			return false, errors.New("malformed object")
		}
		key, err := sc.str()
		if err != nil {
			return false, err
		}
		if seen[key] {
			return false, fmt.Errorf("field %q twice", key)
		}
		seen[key] = true
		if !sc.expect(':') {
			return false, errors.New("malformed object")
		}
		switch key {
		case "version":
			version, err = sc.uint("version", math.MaxInt32)
		case "profile":
			prof, err = sc.str()
		case "next":
			next, err = sc.uint("next", math.MaxUint64)
		case "documents":
			docs, err = sc.value()
		case "entries":
			entries, err = sc.value()
		default:
			err = fmt.Errorf("unknown field %q", key)
		}
		if err != nil {
			return false, err
		}
	}
	switch {
	case len(seen) != 5:
		return false, errors.New("missing version, profile, next, documents or entries")
	case version != 1 && version != ledgerVersion:
		return false, fmt.Errorf("unsupported version %d", version)
	case prof != profile:
		return false, fmt.Errorf("written for profile %q", prof)
	case next < 1 || next > MaxRef+1:
		return false, fmt.Errorf("counter %d out of range", next)
	}
	old = version == 1
	sc = scanner{b: docs}
	if err := sc.array(func() error {
		id, err := sc.str()
		if err != nil {
			return err
		}
		if _, dup := a.docIdx[id]; dup {
			return fmt.Errorf("document %q listed twice", id)
		}
		if len(a.docs) >= maxEntries {
			return fmt.Errorf("more than %d documents", maxEntries)
		}
		a.internDocLocked(id)
		return nil
	}); err != nil {
		return old, fmt.Errorf("documents: %w", err)
	}
	sc = scanner{b: entries}
	if err := sc.array(func() error {
		if len(a.slots) >= maxEntries {
			return fmt.Errorf("more than %d entries", maxEntries)
		}
		s, err := a.decodeEntry(&sc, old)
		if err != nil {
			return fmt.Errorf("entry %d: %w", len(a.slots)+1, err)
		}
		a.slots = append(a.slots, s)
		return nil
	}); err != nil {
		return old, fmt.Errorf("entries: %w", err)
	}
	a.slots = slices.Clip(a.slots)
	cmp := func(x, y slot) int {
		switch {
		case x.ref < y.ref:
			return -1
		case x.ref > y.ref:
			return 1
		}
		return 0
	}
	if !slices.IsSortedFunc(a.slots, cmp) {
		slices.SortFunc(a.slots, cmp)
	}
	a.next = next
	for i := range a.slots {
		s := &a.slots[i]
		if i > 0 && a.slots[i-1].ref == s.ref {
			return old, fmt.Errorf("duplicate ref %s", FormatRef(s.ref))
		}
		if s.ref >= a.next {
			return old, fmt.Errorf("counter %d not above ref %s", a.next, FormatRef(s.ref))
		}
		a.seq = max(a.seq, s.seq+1)
	}
	if err := a.rebuildLocked(); err != nil {
		return old, err
	}
	a.version = 0
	a.trimLocked()
	return old, nil
}

// decodeEntry reads [ref,doc,frameId,localId,tab,active,"sig",seq], or
// for a version 1 ledger (old) [ref,doc,frameId,localId,tab,active,"role",
// "name",seq].
func (a *Allocator) decodeEntry(sc *scanner, old bool) (slot, error) {
	var s slot
	if !sc.expect('[') {
		return s, errors.New("not an array")
	}
	ref, err := sc.uint("ref", MaxRef)
	if err != nil {
		return s, err
	}
	if ref == 0 {
		return s, errors.New("ref 0")
	}
	if !sc.expect(',') {
		return s, errors.New("no document")
	}
	doc, err := sc.uint("document", uint64(len(a.docs)))
	if err == nil && doc == uint64(len(a.docs)) {
		err = fmt.Errorf("document %d not listed", doc)
	}
	if err != nil {
		return s, err
	}
	var ints [3]int
	for i, what := range []string{"frame", "local id", "tab"} {
		if !sc.expect(',') {
			return s, fmt.Errorf("no %s", what)
		}
		if ints[i], err = sc.int(what); err != nil {
			return s, err
		}
	}
	if !sc.expect(',') {
		return s, errors.New("no active")
	}
	active, err := sc.boolean()
	if err != nil {
		return s, err
	}
	var sig uint64
	if old {
		var strs [2][]byte
		for i, what := range []string{"role", "name"} {
			if !sc.expect(',') {
				return s, fmt.Errorf("no %s", what)
			}
			if strs[i], err = sc.strBytes(); err != nil {
				return s, fmt.Errorf("%s: %w", what, err)
			}
		}
		sig = signature(strs[0], strs[1])
	} else {
		if !sc.expect(',') {
			return s, errors.New("no sig")
		}
		if sig, err = sc.hex64(); err != nil {
			return s, fmt.Errorf("sig: %w", err)
		}
	}
	if !sc.expect(',') {
		return s, errors.New("no seq")
	}
	seq, err := sc.uint("seq", maxSeq)
	if err != nil {
		return s, err
	}
	if !sc.expect(']') {
		return s, errors.New("too many fields")
	}
	d := uint32(doc)
	return slot{
		ref:     ref,
		seq:     seq,
		sig:     sig,
		frame:   ints[0],
		local:   ints[1],
		tab:     ints[2],
		doc:     d,
		active:  active,
		indexed: a.docs[d].valid && ints[0] >= 0,
	}, nil
}

// scanner reads the arrays of a ledger that encoding/json has already
// checked to be valid JSON, refusing values of the wrong type.
type scanner struct {
	b []byte
	i int
}

func (sc *scanner) peek() byte {
	for sc.i < len(sc.b) {
		switch c := sc.b[sc.i]; c {
		case ' ', '\t', '\n', '\r':
			sc.i++
		default:
			return c
		}
	}
	return 0
}

func (sc *scanner) expect(c byte) bool {
	if sc.peek() == c {
		sc.i++
		return true
	}
	return false
}

// array reads [elem, elem, …].
func (sc *scanner) array(elem func() error) error {
	if !sc.expect('[') {
		return errors.New("not an array")
	}
	if sc.expect(']') {
		return nil
	}
	for {
		if err := elem(); err != nil {
			return err
		}
		if sc.expect(']') {
			return nil
		}
		if !sc.expect(',') {
			return errors.New("malformed array")
		}
	}
}

// integer reads an integer as sign and magnitude, refusing fractions,
// exponents and anything that is not a number.
func (sc *scanner) integer(what string) (neg bool, mag uint64, err error) {
	c := sc.peek()
	if c == '-' {
		neg = true
		sc.i++
	}
	start := sc.i
	for ; sc.i < len(sc.b) && sc.b[sc.i] >= '0' && sc.b[sc.i] <= '9'; sc.i++ {
		d := uint64(sc.b[sc.i] - '0')
		if mag > (math.MaxUint64-d)/10 {
			return false, 0, fmt.Errorf("%s out of range", what)
		}
		mag = mag*10 + d
	}
	if sc.i == start {
		return false, 0, fmt.Errorf("%s: not a number", what)
	}
	if sc.i < len(sc.b) && (sc.b[sc.i] == '.' || sc.b[sc.i] == 'e' || sc.b[sc.i] == 'E') {
		return false, 0, fmt.Errorf("%s: not an integer", what)
	}
	return neg, mag, nil
}

// uint reads an integer in [0, limit].
func (sc *scanner) uint(what string, limit uint64) (uint64, error) {
	neg, n, err := sc.integer(what)
	if err != nil {
		return 0, err
	}
	if neg && n != 0 || n > limit {
		return 0, fmt.Errorf("%s out of range", what)
	}
	return n, nil
}

func (sc *scanner) int(what string) (int, error) {
	neg, n, err := sc.integer(what)
	if err != nil {
		return 0, err
	}
	switch {
	case !neg && n <= math.MaxInt:
		return int(n), nil
	case neg && n <= math.MaxInt:
		return -int(n), nil
	case neg && n == math.MaxInt+1:
		return math.MinInt, nil
	}
	return 0, fmt.Errorf("%s out of range", what)
}

func (sc *scanner) boolean() (bool, error) {
	sc.peek()
	rest := sc.b[sc.i:]
	switch {
	case bytes.HasPrefix(rest, []byte("true")):
		sc.i += 4
		return true, nil
	case bytes.HasPrefix(rest, []byte("false")):
		sc.i += 5
		return false, nil
	}
	return false, errors.New("active: not a boolean")
}

func (sc *scanner) str() (string, error) {
	b, err := sc.strBytes()
	return string(b), err
}

// strBytes reads a string; unless it has escapes, the bytes returned are
// the input's own, valid until the input changes.
func (sc *scanner) strBytes() ([]byte, error) {
	if sc.peek() != '"' {
		return nil, errors.New("not a string")
	}
	start := sc.i
	escaped := false
	for sc.i++; sc.i < len(sc.b); sc.i++ {
		switch sc.b[sc.i] {
		case '\\':
			escaped = true
			sc.i++
		case '"':
			sc.i++
			raw := sc.b[start:sc.i]
			if !escaped && utf8.Valid(raw) {
				return raw[1 : len(raw)-1], nil
			}
			var s string
			err := json.Unmarshal(raw, &s)
			return []byte(s), err
		}
	}
	return nil, io.ErrUnexpectedEOF
}

// hex64 reads a string of 16 hex digits, as appendSig writes a signature.
func (sc *scanner) hex64() (uint64, error) {
	b, err := sc.strBytes()
	if err != nil {
		return 0, err
	}
	if len(b) != 16 {
		return 0, errors.New("not 16 hex digits")
	}
	var n uint64
	for _, c := range b {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c -= 'a' - 10
		default:
			return 0, errors.New("not 16 hex digits")
		}
		n = n<<4 | uint64(c)
	}
	return n, nil
}

// value skips one value of input that encoding/json has checked to be
// valid JSON, and returns its bytes.
func (sc *scanner) value() ([]byte, error) {
	c := sc.peek()
	start := sc.i
	switch c {
	case '"':
		sc.skipString()
	case '[', '{':
		for depth := 0; sc.i < len(sc.b); {
			switch sc.b[sc.i] {
			case '"':
				sc.skipString()
				continue
			case '[', '{':
				depth++
			case ']', '}':
				depth--
			}
			sc.i++
			if depth == 0 {
				break
			}
		}
	default:
		for sc.i < len(sc.b) && !strings.ContainsRune(",]} \t\n\r", rune(sc.b[sc.i])) {
			sc.i++
		}
	}
	if sc.i == start {
		return nil, io.ErrUnexpectedEOF
	}
	return sc.b[start:sc.i], nil
}

// skipString moves past the string that starts at sc.i.
func (sc *scanner) skipString() {
	for sc.i++; sc.i < len(sc.b); sc.i++ {
		switch sc.b[sc.i] {
		case '\\':
			sc.i++
		case '"':
			sc.i++
			return
		}
	}
}

// encodeLocked appends the whole ledger to b, in the current version.
// Documents no kept entry names are left out; a document that is not a
// valid key (validDocID) is written as "", which stays invalid.
func (a *Allocator) encodeLocked(b []byte) []byte {
	b = append(b, `{"version":2,"profile":`...)
	b = appendString(b, a.ledger.profile)
	b = append(b, `,"next":`...)
	b = strconv.AppendUint(b, a.next, 10)
	b = append(b, `,"documents":[`...)
	remap := make([]int32, len(a.docs))
	for i := range remap {
		remap[i] = -1
	}
	n, empty := int32(0), int32(-1)
	for i := range a.slots {
		s := &a.slots[i]
		if s.trimmed || remap[s.doc] >= 0 {
			continue
		}
		d := &a.docs[s.doc]
		if !d.valid && empty >= 0 {
			remap[s.doc] = empty
			continue
		}
		if n > 0 {
			b = append(b, ',')
		}
		if d.valid {
			b = appendString(b, d.id)
		} else {
			b = append(b, `""`...)
			empty = n
		}
		remap[s.doc] = n
		n++
	}
	b = append(b, `],"entries":[`...)
	first := true
	for i := range a.slots {
		s := &a.slots[i]
		if s.trimmed {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, "\n["...)
		b = strconv.AppendUint(b, s.ref, 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(remap[s.doc]), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(s.frame), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(s.local), 10)
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(s.tab), 10)
		b = append(b, ',')
		b = strconv.AppendBool(b, s.active)
		b = append(b, ',')
		b = appendSig(b, s.sig)
		b = append(b, ',')
		b = strconv.AppendUint(b, s.seq, 10)
		b = append(b, ']')
	}
	return append(b, "\n]}\n"...)
}

// appendSig appends a signature as a string of 16 hex digits.
func appendSig(b []byte, sig uint64) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for shift := 60; shift >= 0; shift -= 4 {
		b = append(b, hex[sig>>shift&0xf])
	}
	return append(b, '"')
}

// appendString appends s as a JSON string; bytes that are not UTF-8 become
// U+FFFD, as encoding/json does.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, `\n`...)
			case '\r':
				b = append(b, `\r`...)
			case '\t':
				b = append(b, `\t`...)
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// writeFileAtomic writes a ledger file whole, 0600, durably.
func writeFileAtomic(name string, data []byte) error { return atomicfile.WriteFile(name, data, 0o600) }
