package refcache

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/grip-dev/grip/internal/atomicfile"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/gofrs/flock"
)

const (
	// ledgerVersion is the version of the ledger and hwm file formats.
	ledgerVersion = 1

	// reserveBlock is how many numbers one write of the hwm file reserves
	// beyond what the current call needs.
	reserveBlock = 1024

	// DefaultLockWait is how long Open waits for another host of the same
	// profile to let go of the ledger before it gives up.
	DefaultLockWait = 2 * time.Second

	// maxFileSize bounds what Open reads of a ledger: a bigger file is not
	// one grip wrote, and reading it could exhaust memory.
	maxFileSize = 1 << 30

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
// is moved aside to <name>.bad-<time>, the allocator starts empty with a
// counter above every number it can still read, and LoadError reports the
// refusal. Open fails when another host holds the profile (ErrLocked, after
// waiting DefaultLockWait) or when profile cannot name a file
// (ErrBadProfile). When the lock cannot be taken for another reason (an
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
	a.mu.Lock()
	defer a.mu.Unlock()
	hwm, floor, err := a.loadHWMLocked()
	if err != nil {
		problems = append(problems, err)
	}
	l.durable = hwm
	ledgerFloor, err := a.loadLedgerLocked()
	if err != nil {
		problems = append(problems, err)
		a.version++ // write a fresh ledger at the next Save
	}
	a.next = max(a.next, hwm, floor, ledgerFloor)
	a.reserved = l.durable
	if l.durable < a.next {
		a.reserveLocked(0) // make the floor durable before anything is handed out
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
// the next Save tries again. Save does nothing for New.
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
	hwmErr := l.hwmErr
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
	data, err := readFile(l.hwmPath)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, 0, nil
	}
	if err == nil {
		hwm, err = decodeHWM(data, l.profile)
		if err == nil {
			return hwm, 0, nil
		}
		floor = salvage(data, hwmNumber)
		if floor == 0 {
			floor = salvage(data, anyNumber)
		}
	}
	return 0, floor, a.refuseLocked(l.hwmPath, err)
}

// loadLedgerLocked reads the ledger into a. For a refused ledger it leaves
// a empty and returns a counter above every number salvaged from it.
func (a *Allocator) loadLedgerLocked() (floor uint64, err error) {
	l := a.ledger
	data, err := readFile(l.path)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err == nil {
		err = a.decodeLocked(data, l.profile)
		if err == nil {
			return 0, nil // l.saved is 0, the version decoded
		}
		a.resetLocked()
		if n := salvage(data, ledgerNumber); n > 0 {
			floor = n + 1
		}
	}
	return floor, a.refuseLocked(l.path, err)
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
// existing file.
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
		return dst, nil
	}
	return "", fmt.Errorf("no free name for %s.bad-%s", path, stamp)
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

func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err == nil && len(data) > maxFileSize {
		err = fmt.Errorf("larger than %d bytes", maxFileSize)
	}
	return data, err
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

// The lenient scans of a refused file: every number that may be a ref or a
// counter. An over-estimate only skips numbers; an under-estimate could
// repeat one.
var (
	ledgerNumber = regexp.MustCompile(`(?:\[|"next"\s*:)\s*([0-9]{1,16})`)
	hwmNumber    = regexp.MustCompile(`"reserved"\s*:\s*([0-9]{1,16})`)
	anyNumber    = regexp.MustCompile(`([0-9]{1,16})`)
)

// salvage returns the largest number at most MaxRef that re finds in data.
func salvage(data []byte, re *regexp.Regexp) uint64 {
	var top uint64
	for _, m := range re.FindAllSubmatch(data, -1) {
		if n, err := strconv.ParseUint(string(m[1]), 10, 64); err == nil && n <= MaxRef {
			top = max(top, n)
		}
	}
	return top
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
	case *f.Version != ledgerVersion:
		return 0, fmt.Errorf("unsupported version %d", *f.Version)
	case *f.Profile != profile:
		return 0, fmt.Errorf("written for profile %q", *f.Profile)
	case *f.Reserved > maxSeq:
		return 0, fmt.Errorf("reserved %d out of range", *f.Reserved)
	}
	return *f.Reserved, nil
}

// The ledger file:
//
//	{"version":1,"profile":"…","next":N,"documents":["docid",…],"entries":[
//	[ref,doc,frameId,localId,tab,active,"role","name",seq],
//	…]}
//
// doc indexes documents; seq orders forgetting among inactive entries.
type ledgerFile struct {
	Version   *int            `json:"version"`
	Profile   *string         `json:"profile"`
	Next      *uint64         `json:"next"`
	Documents json.RawMessage `json:"documents"`
	Entries   json.RawMessage `json:"entries"`
}

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
// that fails validation. a may hold part of it after a refusal.
func (a *Allocator) decodeLocked(data []byte, profile string) error {
	var f ledgerFile
	if err := decodeStrict(data, &f); err != nil {
		return err
	}
	switch {
	case f.Version == nil || f.Profile == nil || f.Next == nil || f.Documents == nil || f.Entries == nil:
		return errors.New("missing version, profile, next, documents or entries")
	case *f.Version != ledgerVersion:
		return fmt.Errorf("unsupported version %d", *f.Version)
	case *f.Profile != profile:
		return fmt.Errorf("written for profile %q", *f.Profile)
	case *f.Next < 1 || *f.Next > MaxRef+1:
		return fmt.Errorf("counter %d out of range", *f.Next)
	}
	sc := scanner{b: f.Documents}
	if err := sc.array(func() error {
		id, err := sc.str()
		if err != nil {
			return err
		}
		if _, dup := a.docIdx[id]; dup {
			return fmt.Errorf("document %q listed twice", id)
		}
		a.internDocLocked(id)
		return nil
	}); err != nil {
		return fmt.Errorf("documents: %w", err)
	}
	sc = scanner{b: f.Entries}
	a.slots = make([]slot, 0, bytes.Count(f.Entries, []byte("["))) // a bound: one per entry, plus some
	if err := sc.array(func() error {
		s, err := a.decodeEntry(&sc)
		if err != nil {
			return fmt.Errorf("entry %d: %w", len(a.slots)+1, err)
		}
		a.slots = append(a.slots, s)
		return nil
	}); err != nil {
		return fmt.Errorf("entries: %w", err)
	}
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
	a.next = *f.Next
	for i := range a.slots {
		s := &a.slots[i]
		if i > 0 && a.slots[i-1].ref == s.ref {
			return fmt.Errorf("duplicate ref %s", FormatRef(s.ref))
		}
		if s.ref >= a.next {
			return fmt.Errorf("counter %d not above ref %s", a.next, FormatRef(s.ref))
		}
		a.seq = max(a.seq, s.seq+1)
	}
	if err := a.rebuildLocked(); err != nil {
		return err
	}
	a.version = 0
	a.trimLocked()
	return nil
}

// decodeEntry reads [ref,doc,frameId,localId,tab,active,"role","name",seq].
func (a *Allocator) decodeEntry(sc *scanner) (slot, error) {
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
	var strs [2]string
	for i, what := range []string{"role", "name"} {
		if !sc.expect(',') {
			return s, fmt.Errorf("no %s", what)
		}
		if strs[i], err = sc.str(); err != nil {
			return s, fmt.Errorf("%s: %w", what, err)
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
		return s, errors.New("more than 9 fields")
	}
	d := uint32(doc)
	return slot{
		ref:     ref,
		seq:     seq,
		role:    a.internRoleLocked(strs[0]),
		name:    strs[1],
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
	if sc.peek() != '"' {
		return "", errors.New("not a string")
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
				return string(raw[1 : len(raw)-1]), nil
			}
			var s string
			err := json.Unmarshal(raw, &s)
			return s, err
		}
	}
	return "", io.ErrUnexpectedEOF
}

// encodeLocked appends the whole ledger to b. Documents no kept entry names
// are left out; a document that is not a valid key (empty, or not UTF-8,
// which JSON cannot carry) is written as "", which stays invalid.
func (a *Allocator) encodeLocked(b []byte) []byte {
	b = append(b, `{"version":1,"profile":`...)
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
		b = appendString(b, s.role)
		b = append(b, ',')
		b = appendString(b, s.name)
		b = append(b, ',')
		b = strconv.AppendUint(b, s.seq, 10)
		b = append(b, ']')
	}
	return append(b, "\n]}\n"...)
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
