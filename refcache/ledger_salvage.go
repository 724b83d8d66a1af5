package refcache

import (
	"bytes"
	"io"
	"os"
)

// Salvage: when Open refuses a ledger or hwm file, the allocator still
// starts its counter above every number the file may have handed out, so
// no ref is ever repeated. The file may be damaged anywhere (cut short,
// half overwritten, not JSON at all), so this is a tolerant byte scan, not
// a decoder.

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
