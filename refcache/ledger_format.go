package refcache

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// The formats of the two files a ledger keeps: the hwm file and the
// ledger itself, decoded strictly (anything grip did not write is refused,
// then salvaged: ledger_salvage.go) and encoded by hand, in one pass over
// the allocator's slots.

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
