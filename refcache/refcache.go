// Package refcache hands out grip's public element refs (@e1, @e2, …) and
// remembers which element each one names (docs/identity.md, "Identity").
//
// An element is known by its identity key (documentId, frameId, localId): the
// document Chrome reports for the frame, the frame, and the id the in-page
// kernel gives the node. The same key always gets the same ref, whatever the
// element's role or name now says; a key seen for the first time gets the
// next number, and numbers are never handed out twice — not after an entry
// goes stale, not after it is forgotten, not after a restart or a crash.
//
// An Allocator serves one browser profile. New makes one that lives in
// memory only; Open makes one backed by a ledger in the state dir, which
// survives restarts (see Open for the files it keeps). It keeps no page
// text: of an element's role and name only a hash (Signature), so that the
// ledger on disk holds identities, never what the page said.
package refcache

import (
	"fmt"
	"slices"
	"sync"

	"github.com/grip-dev/grip/protocol"
)

const (
	// MaxInactive is how many inactive (stale) entries are kept. Beyond it
	// the entries that went inactive longest ago are forgotten, and their
	// refs answer unknown_ref instead of stale_ref.
	MaxInactive = 10000

	// MaxActive is how many active entries are kept, over all tabs. When a
	// snapshot needs more, the tabs read least recently are made inactive
	// first, whole (their refs answer stale_ref until the tab is read
	// again, which gives them back their numbers); the elements of one tab
	// past the limit get no ref. It bounds the host's memory and the
	// ledger's size, so that a ledger the host wrote can always be read
	// back: 500,000 is fifty tabs of 10,000 elements.
	MaxActive = 500_000

	// MaxRef is the largest ref number the allocator hands out or accepts
	// from a ledger, 2^53-1, so that a ref survives a JavaScript number.
	MaxRef = 1<<53 - 1

	// maxDocID bounds a document id that can be a key. Chrome's are 32
	// hex digits; a longer one, or one with other than printable ASCII,
	// never matches, and the ledger keeps it as "".
	maxDocID = 64
)

// Key is an element's identity: the document Chrome reported for the frame,
// the frame, and the kernel's local id for the node within that document.
// A key whose DocumentID is not shaped like Chrome's (empty, longer than 64
// bytes, or other than printable ASCII) or whose FrameID is negative is
// unknown: it never matches an earlier entry.
type Key struct {
	DocumentID string
	FrameID    int
	LocalID    int
}

// Observed is one element as a snapshot saw it.
type Observed struct {
	Key  Key
	Role string
	Name string
}

// Entry is what the allocator knows about a ref.
type Entry struct {
	Ref uint64
	Key Key
	Tab int
	// Sig is Signature of the role and name the element had when a
	// snapshot last saw it: enough to tell whether its meaning changed,
	// without keeping the page's text.
	Sig    uint64
	Active bool
}

// Signature returns the hash the allocator keeps of an element's role and
// name (64-bit FNV-1a, the two separated by a byte that UTF-8 never uses).
func Signature(role, name string) uint64 { return signature(role, name) }

// signature is Signature of strings or bytes (a version 1 ledger's names,
// hashed where they lie in the file).
func signature[T string | []byte](role, name T) uint64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	for i := 0; i < len(role); i++ {
		h = (h ^ uint64(role[i])) * prime
	}
	h = (h ^ 0xff) * prime
	for i := 0; i < len(name); i++ {
		h = (h ^ uint64(name[i])) * prime
	}
	return h
}

// Diff lists the refs that became active and inactive in one tab by one
// call, each ascending.
type Diff struct {
	Added []uint64
	Gone  []uint64
}

// slot is one entry in the table. Slots are kept in ascending ref order, so
// a ref is found by binary search; a forgotten entry stays as a hole (with
// its ref, to keep the order) until the table is compacted.
type slot struct {
	ref uint64
	// seq is the operation that last flipped active; among inactive
	// entries the lowest (seq, ref) is forgotten first.
	seq   uint64
	sig   uint64 // Signature(role, name)
	frame int
	local int
	tab   int
	doc   uint32 // index into Allocator.docs
	// active entries resolve; inactive ones answer stale_ref.
	active bool
	// trimmed marks a hole: the entry was forgotten.
	trimmed bool
	// indexed is set when the key is known and so sits in byKey.
	indexed bool
}

// skey is a known key in compact form, with the document interned.
type skey struct {
	doc   uint32
	frame int
	local int
}

// docInfo is an interned document id.
type docInfo struct {
	id string
	// valid is false for an id that validDocID refuses: such a document
	// never matches (and the ledger does not keep it apart).
	valid bool
	// active counts the document's active entries, so that
	// InvalidateDocuments can skip the scan when nothing is to go.
	active int
}

// tabList holds the slots that may be active in a tab: a superset, checked
// when read (an entry may since have moved tab or gone inactive).
type tabList struct {
	slots []uint32
	// clean is the length of slots after it was last rebuilt; Merge
	// filters the list when it has grown well past that.
	clean int
	// read is the operation (seq) that last recorded a snapshot of the
	// tab: past MaxActive, the tab read least recently goes first.
	read uint64
}

// queued is an inactive entry waiting to be forgotten. It is out of date
// when the slot has been reactivated or re-queued since (its seq differs).
type queued struct {
	slot uint32
	seq  uint64
}

// Allocator hands out refs for one browser profile. It is safe for
// concurrent use.
type Allocator struct {
	// mu guards every field below except those of the ledger that say
	// otherwise.
	mu sync.Mutex

	slots  []slot            // ascending by ref, holes included
	holes  int               // trimmed slots not yet compacted away
	byKey  map[skey]uint32   // known key → slot
	docs   []docInfo         // interned documents
	docIdx map[string]uint32 // document id → index in docs
	tabs   map[int]*tabList
	queue  []queued // inactive entries, oldest first, from qhead on
	qhead  int
	seen   bitset // scratch for Replace and Merge

	live, inactive int
	next           uint64 // the next ref to hand out
	seq            uint64 // the current operation, see slot.seq
	version        uint64 // bumped on every change the ledger records but a signature's
	// sigs is bumped when only a signature changed (a button renamed): the
	// ledger's identities stand, so the change is written with the next
	// save that has another, or at Close, not on the path of a read's
	// reply (docs/identity.md).
	sigs uint64

	// reserved is the in-memory reservation: numbers below it are handed
	// out without writing the hwm file again. Without a ledger it is
	// unbounded.
	reserved uint64
	// noRoomSeq is the operation (seq) in which a reservation last failed:
	// the rest of that operation does not try again.
	noRoomSeq uint64
	// overflow says how many elements of a tab got no ref because the tab
	// alone holds MaxActive entries; Save reports it once.
	overflow error

	// closed are the tabs InvalidateTab was told of, so that a ref of one
	// says its tab was closed; oldest first in closedOrder, at most
	// maxClosedTabs of them (Chrome does not reuse tab ids in a session).
	closed      map[int]bool
	closedOrder []int

	ledger *ledger // nil for New
}

// maxClosedTabs bounds the closed tabs remembered for Resolve's wording.
const maxClosedTabs = 1024

// New returns an allocator that lives in memory only: Save and Close do
// nothing.
func New() *Allocator {
	a := newAllocator()
	a.reserved = ^uint64(0)
	return a
}

func newAllocator() *Allocator {
	return &Allocator{
		byKey:  make(map[skey]uint32),
		docIdx: make(map[string]uint32),
		tabs:   make(map[int]*tabList),
		next:   1,
		seq:    1,
	}
}

// Replace records a complete snapshot of a tab: every element in obs is
// active in tab, and every entry of tab that obs does not contain becomes
// inactive. refs[i] is obs[i]'s ref, or 0 when obs[i] is new and no number
// could be reserved on disk (Save returns why).
func (a *Allocator) Replace(tab int, obs []Observed) (refs []uint64, d Diff) {
	return a.update(tab, obs, true, nil, nil)
}

// ReplaceRead is Replace for a snapshot as the page answered it: the
// entries of the documents in unread (busy, loading) keep their state,
// since nothing is known of them; the active entries whose keys are in
// alive stay active, for the page says their elements are still in it
// although this read did not list them (a read in another mode, a hidden
// element); every other entry of tab that obs does not contain becomes
// inactive. So a ref goes stale exactly when its element left the page
// (docs/identity.md, "Identity").
func (a *Allocator) ReplaceRead(tab int, obs []Observed, unread map[string]bool, alive map[Key]bool) (refs []uint64, d Diff) {
	return a.update(tab, obs, true, unread, alive)
}

// Merge records a partial snapshot of a tab: it adds and refreshes the
// elements in obs and expires nothing. refs[i] is obs[i]'s ref, or 0 as
// for Replace.
func (a *Allocator) Merge(tab int, obs []Observed) (refs []uint64, d Diff) {
	return a.update(tab, obs, false, nil, nil)
}

func (a *Allocator) update(tab int, obs []Observed, full bool, unread map[string]bool, alive map[Key]bool) (refs []uint64, d Diff) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.seq++
	refs = make([]uint64, len(obs))
	tl := a.tabs[tab]
	if tl == nil {
		tl = &tabList{}
		a.tabs[tab] = tl
	}
	tl.read = a.seq
	withheld := 0
	var fresh []uint32 // slots of tab in this snapshot (Replace) or new to it (Merge)
	if full {
		fresh = make([]uint32, 0, len(obs))
	}
	for i := range obs {
		idx, created := a.findOrAddLocked(tab, &obs[i], len(obs)-i)
		if idx == noSlot {
			withheld++
			continue // no number could be reserved durably: refs[i] stays 0
		}
		s := &a.slots[idx]
		if !created && !s.active && a.live >= MaxActive && !a.shedLocked(tab) {
			withheld++
			continue // no room to make it active again: refs[i] stays 0
		}
		refs[i] = s.ref
		if a.seen.has(idx) {
			continue // the same key twice in one snapshot: the first one counts
		}
		a.seen.set(idx)
		if created || !s.active || s.tab != tab {
			d.Added = append(d.Added, s.ref)
			if !full {
				fresh = append(fresh, idx)
			}
		}
		if full {
			fresh = append(fresh, idx)
		}
		if !created {
			a.refreshLocked(idx, tab, &obs[i])
		}
	}
	if full {
		var gone []uint32
		for _, idx := range tl.slots {
			s := &a.slots[idx]
			if s.active && s.tab == tab && !a.seen.has(idx) {
				a.seen.set(idx) // a slot may be listed twice
				if doc := a.docs[s.doc].id; unread[doc] || (len(alive) > 0 && alive[Key{DocumentID: doc, FrameID: s.frame, LocalID: s.local}]) {
					fresh = append(fresh, idx) // not read, or still on the page: kept as it was
					continue
				}
				gone = append(gone, idx)
			}
		}
		d.Gone = a.deactivateLocked(gone)
		tl.slots, tl.clean = fresh, len(fresh)
	} else {
		tl.slots = append(tl.slots, fresh...)
		if len(tl.slots) > 2*tl.clean+64 {
			a.cleanTabLocked(tab, tl)
		}
	}
	a.seen.reset()
	slices.Sort(d.Added)
	if withheld > 0 && a.live >= MaxActive {
		a.overflow = fmt.Errorf("%w: %d elements of tab %d got no ref: the tab alone holds %d active refs", ErrTabFull, withheld, tab, a.live)
	}
	a.trimLocked()
	return refs, d
}

// noSlot is findOrAddLocked's answer when a new entry needs a number that
// could not be reserved durably.
const noSlot = ^uint32(0)

// findOrAddLocked returns the slot of o's key, adding an active entry in
// tab when the key is new or unknown. more is how many numbers the caller
// may still need, counting this one, so a reservation covers the batch.
// It returns noSlot, adding nothing, when the key is new and no number
// can be reserved on disk (a full or read-only disk past the reserved
// block), or when tab alone holds MaxActive active entries.
func (a *Allocator) findOrAddLocked(tab int, o *Observed, more int) (idx uint32, created bool) {
	doc := a.internDocLocked(o.Key.DocumentID)
	k := skey{doc: doc, frame: o.Key.FrameID, local: o.Key.LocalID}
	known := a.docs[doc].valid && o.Key.FrameID >= 0
	if known {
		if idx, ok := a.byKey[k]; ok {
			return idx, false
		}
	}
	if a.live >= MaxActive && !a.shedLocked(tab) {
		return noSlot, false
	}
	if a.next >= a.reserved {
		if a.noRoomSeq == a.seq {
			return noSlot, false
		}
		a.reserveLocked(uint64(more))
		if a.next >= a.reserved {
			return noSlot, false
		}
	}
	idx = uint32(len(a.slots))
	a.slots = append(a.slots, slot{
		ref:     a.next,
		seq:     a.seq,
		sig:     Signature(o.Role, o.Name),
		frame:   o.Key.FrameID,
		local:   o.Key.LocalID,
		tab:     tab,
		doc:     doc,
		active:  true,
		indexed: known,
	})
	a.next++
	if known {
		a.byKey[k] = idx
	}
	a.docs[doc].active++
	a.live++
	a.version++
	return idx, true
}

// refreshLocked makes an existing entry active in tab with o's role and
// name (their signature).
func (a *Allocator) refreshLocked(idx uint32, tab int, o *Observed) {
	s := &a.slots[idx]
	changed := false
	if !s.active {
		s.active = true
		s.seq = a.seq
		a.live++
		a.inactive--
		a.docs[s.doc].active++
		changed = true
	}
	if s.tab != tab {
		s.tab = tab
		changed = true
	}
	if changed {
		a.version++
	}
	if sig := Signature(o.Role, o.Name); s.sig != sig {
		s.sig = sig
		a.sigs++
	}
}

// deactivateLocked makes the active slots in idxs inactive and queues them
// to be forgotten, lowest ref first. It returns their refs, ascending.
func (a *Allocator) deactivateLocked(idxs []uint32) []uint64 {
	if len(idxs) == 0 {
		return nil
	}
	slices.Sort(idxs) // slot order is ref order
	refs := make([]uint64, 0, len(idxs))
	for _, idx := range idxs {
		s := &a.slots[idx]
		if !s.active {
			continue
		}
		s.active = false
		s.seq = a.seq
		a.live--
		a.inactive++
		a.docs[s.doc].active--
		a.queue = append(a.queue, queued{slot: idx, seq: s.seq})
		refs = append(refs, s.ref)
	}
	a.version++
	return refs
}

// shedLocked makes room for one more active entry: it makes inactive,
// whole, the tabs other than keep that were read least recently, until
// fewer than MaxActive entries are active. It reports whether there is
// room; there is none when keep alone holds MaxActive entries. It does not
// use a.seen, which the update calling it holds.
func (a *Allocator) shedLocked(keep int) bool {
	for a.live >= MaxActive {
		oldest, found := 0, false
		for t, tl := range a.tabs {
			if t != keep && (!found || tl.read < a.tabs[oldest].read || tl.read == a.tabs[oldest].read && t < oldest) {
				oldest, found = t, true
			}
		}
		if !found {
			return false
		}
		tl := a.tabs[oldest]
		delete(a.tabs, oldest)
		var idxs []uint32
		for _, idx := range tl.slots {
			if s := &a.slots[idx]; s.active && s.tab == oldest {
				idxs = append(idxs, idx) // a slot listed twice is skipped by deactivateLocked
			}
		}
		a.deactivateLocked(idxs)
	}
	return true
}

// cleanTabLocked drops from a tab's list the slots no longer active in it.
func (a *Allocator) cleanTabLocked(tab int, tl *tabList) {
	out := tl.slots[:0]
	for _, idx := range tl.slots {
		if s := &a.slots[idx]; s.active && s.tab == tab && !a.seen.has(idx) {
			a.seen.set(idx)
			out = append(out, idx)
		}
	}
	a.seen.reset()
	tl.slots, tl.clean = out, len(out)
}

// InvalidateDocuments makes inactive every entry whose document is not in
// live: after a navigation, a closed tab, and at host start for everything
// the extension does not report. It returns the refs that went inactive,
// ascending.
func (a *Allocator) InvalidateDocuments(live map[string]bool) (gone []uint64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	var dead []bool
	for i := range a.docs {
		if a.docs[i].active > 0 && !live[a.docs[i].id] {
			if dead == nil {
				dead = make([]bool, len(a.docs))
			}
			dead[i] = true
		}
	}
	if dead == nil {
		return nil
	}
	a.seq++
	var idxs []uint32
	for i := range a.slots {
		if s := &a.slots[i]; s.active && dead[s.doc] {
			idxs = append(idxs, uint32(i))
		}
	}
	gone = a.deactivateLocked(idxs)
	a.trimLocked()
	return gone
}

// InvalidateTab makes inactive every entry of tab, as when the tab closes.
// It returns the refs that went inactive, ascending.
func (a *Allocator) InvalidateTab(tab int) (gone []uint64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	tl := a.tabs[tab]
	if tl == nil {
		return nil
	}
	delete(a.tabs, tab)
	if a.closed == nil {
		a.closed = map[int]bool{}
	}
	if !a.closed[tab] {
		a.closed[tab] = true
		a.closedOrder = append(a.closedOrder, tab)
		if len(a.closedOrder) > maxClosedTabs {
			delete(a.closed, a.closedOrder[0])
			a.closedOrder = a.closedOrder[1:]
		}
	}
	a.seq++
	var idxs []uint32
	for _, idx := range tl.slots {
		if s := &a.slots[idx]; s.active && s.tab == tab && !a.seen.has(idx) {
			a.seen.set(idx)
			idxs = append(idxs, idx)
		}
	}
	a.seen.reset()
	gone = a.deactivateLocked(idxs)
	a.trimLocked()
	return gone
}

// resolveHint tells the agent how to get a ref that works.
const resolveHint = "take a new snapshot with grip snapshot and use the ref it gives"

// Resolve returns the entry of an active ref. A ref that was never handed
// out or has been forgotten is refused with unknown_ref; one that is kept
// but inactive with stale_ref. Both are *protocol.Error at BoundaryRef.
func (a *Allocator) Resolve(ref uint64) (Entry, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	idx, ok := a.findRefLocked(ref)
	if !ok {
		why := "it was never handed out"
		if ref != 0 && ref < a.next {
			why = "it has been forgotten"
		}
		return Entry{}, protocol.Errorf(protocol.CodeUnknownRef, protocol.BoundaryRef, resolveHint,
			"%s is not a known ref: %s", FormatRef(ref), why)
	}
	s := &a.slots[idx]
	if !s.active {
		if a.closed[s.tab] {
			return Entry{}, protocol.Errorf(protocol.CodeStaleRef, protocol.BoundaryRef, "take a snapshot of an open tab (grip tabs lists them)",
				"%s is stale: its tab was closed", FormatRef(ref))
		}
		return Entry{}, protocol.Errorf(protocol.CodeStaleRef, protocol.BoundaryRef, resolveHint,
			"%s is stale: its element is no longer on the page", FormatRef(ref))
	}
	return a.entryLocked(idx), nil
}

func (a *Allocator) entryLocked(idx uint32) Entry {
	s := &a.slots[idx]
	return Entry{
		Ref:    s.ref,
		Key:    Key{DocumentID: a.docs[s.doc].id, FrameID: s.frame, LocalID: s.local},
		Tab:    s.tab,
		Sig:    s.sig,
		Active: s.active,
	}
}

// findRefLocked returns the slot of a kept (not forgotten) ref.
func (a *Allocator) findRefLocked(ref uint64) (uint32, bool) {
	i, ok := slices.BinarySearchFunc(a.slots, ref, func(s slot, ref uint64) int {
		switch {
		case s.ref < ref:
			return -1
		case s.ref > ref:
			return 1
		}
		return 0
	})
	if !ok || a.slots[i].trimmed {
		return 0, false
	}
	return uint32(i), true
}

// Stats returns how many entries are active and kept inactive, and the next
// ref the allocator will hand out.
func (a *Allocator) Stats() (live, inactive int, next uint64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.live, a.inactive, a.next
}

// trimLocked forgets the oldest inactive entries beyond MaxInactive and
// keeps the table's bookkeeping from growing.
func (a *Allocator) trimLocked() {
	for a.inactive > MaxInactive && a.qhead < len(a.queue) {
		q := a.queue[a.qhead]
		a.qhead++
		s := &a.slots[q.slot]
		if s.trimmed || s.active || s.seq != q.seq {
			continue // out of date
		}
		s.trimmed = true
		if s.indexed {
			delete(a.byKey, skey{doc: s.doc, frame: s.frame, local: s.local})
		}
		a.inactive--
		a.holes++
		a.version++
	}
	if a.qhead > len(a.queue)/2 {
		n := copy(a.queue, a.queue[a.qhead:])
		a.queue, a.qhead = a.queue[:n], 0
	}
	if len(a.queue) > 2*a.inactive+1024 {
		out := a.queue[:a.qhead]
		for _, q := range a.queue[a.qhead:] {
			if s := &a.slots[q.slot]; !s.trimmed && !s.active && s.seq == q.seq {
				out = append(out, q)
			}
		}
		a.queue = out
	}
	if a.holes > 1024 && a.holes > len(a.slots)/4 {
		a.compactLocked()
	}
}

// compactLocked drops the holes and the documents no entry names any more,
// and rebuilds the indexes.
func (a *Allocator) compactLocked() {
	remap := make([]int32, len(a.docs))
	for i := range remap {
		remap[i] = -1
	}
	var docs []docInfo
	out := a.slots[:0]
	for _, s := range a.slots {
		if s.trimmed {
			continue
		}
		if remap[s.doc] < 0 {
			remap[s.doc] = int32(len(docs))
			docs = append(docs, docInfo{id: a.docs[s.doc].id, valid: a.docs[s.doc].valid})
		}
		s.doc = uint32(remap[s.doc])
		out = append(out, s)
	}
	clear(a.slots[len(out):])
	a.slots, a.docs = out, docs
	clear(a.docIdx)
	for i, d := range a.docs {
		a.docIdx[d.id] = uint32(i)
	}
	_ = a.rebuildLocked() // keys were unique before, so they are now
}

// rebuildLocked derives every index from slots and docs (ascending, no
// holes, documents unique). It refuses a table with a known key twice.
func (a *Allocator) rebuildLocked() error {
	if len(a.byKey) == 0 {
		a.byKey = make(map[skey]uint32, len(a.slots)) // sized once, not grown
	}
	clear(a.byKey)
	clear(a.tabs)
	a.queue, a.qhead = a.queue[:0], 0
	a.live, a.inactive, a.holes = 0, 0, 0
	for i := range a.docs {
		a.docs[i].active = 0
	}
	for i := range a.slots {
		s := &a.slots[i]
		idx := uint32(i)
		if s.indexed {
			k := skey{doc: s.doc, frame: s.frame, local: s.local}
			if prev, dup := a.byKey[k]; dup {
				return &dupKeyError{a.slots[prev].ref, s.ref}
			}
			a.byKey[k] = idx
		}
		if s.active {
			a.live++
			a.docs[s.doc].active++
			tl := a.tabs[s.tab]
			if tl == nil {
				tl = &tabList{}
				a.tabs[s.tab] = tl
			}
			tl.slots = append(tl.slots, idx)
			tl.clean = len(tl.slots)
		} else {
			a.inactive++
			a.queue = append(a.queue, queued{slot: idx, seq: s.seq})
		}
	}
	slices.SortFunc(a.queue, func(x, y queued) int {
		if x.seq != y.seq {
			if x.seq < y.seq {
				return -1
			}
			return 1
		}
		return int(x.slot) - int(y.slot)
	})
	return nil
}

func (a *Allocator) internDocLocked(id string) uint32 {
	if i, ok := a.docIdx[id]; ok {
		return i
	}
	i := uint32(len(a.docs))
	a.docs = append(a.docs, docInfo{id: id, valid: validDocID(id)})
	a.docIdx[id] = i
	return i
}

// validDocID reports whether id can be part of a key: 1 to maxDocID bytes
// of printable ASCII other than '"' and '\', as Chrome's ids are. It bounds
// what the ledger writes of a document.
func validDocID(id string) bool {
	if id == "" || len(id) > maxDocID {
		return false
	}
	for i := 0; i < len(id); i++ {
		if c := id[i]; c <= ' ' || c > '~' || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// bitset is a set of slot indexes.
type bitset struct{ w []uint64 }

func (b *bitset) has(i uint32) bool {
	n := int(i >> 6)
	return n < len(b.w) && b.w[n]&(1<<(i&63)) != 0
}

func (b *bitset) set(i uint32) {
	n := int(i >> 6)
	if n >= len(b.w) {
		b.w = slices.Grow(b.w, n+1-len(b.w))[:n+1]
	}
	b.w[n] |= 1 << (i & 63)
}

func (b *bitset) reset() { clear(b.w) }

// TabOf returns the tab a ref was handed out for, stale or not, while the
// allocator still knows it: a ref of another session's tab is refused as
// that, before whether it is stale is said (docs/sessions.md,
// "Sessions").
func (a *Allocator) TabOf(ref uint64) (int, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	idx, ok := a.findRefLocked(ref)
	if !ok {
		return 0, false
	}
	return a.slots[idx].tab, true
}

// Lookup returns the entry of a kept ref, active or not (Entry.Active says
// which): what a reply needs to tell where a ref that just went stale
// was, which Resolve refuses.
func (a *Allocator) Lookup(ref uint64) (Entry, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	idx, ok := a.findRefLocked(ref)
	if !ok {
		return Entry{}, false
	}
	return a.entryLocked(idx), true
}
