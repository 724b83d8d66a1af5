package protocol

import (
	"encoding/binary"
	"fmt"
)

// MaxDepth bounds how deeply containers (arrays and maps) may nest in a
// socket message. grip's deepest message, an action reply carrying a
// snapshot, nests about ten deep; the msgpack decoder recurses once per
// level, so without a bound a few megabytes of one-element arrays
// overflow the stack, which kills the process whatever recovers.
const MaxDepth = 64

// Check reports whether raw is exactly one well-formed msgpack value that
// is safe to decode: containers nest at most MaxDepth deep, every length
// and element count it claims fits in the bytes that follow (each element
// takes at least one byte), and it uses no extension types, which grip
// never sends. It walks the bytes once, without recursion or allocation,
// so that a hostile frame is refused before the decoder sizes anything by
// its claims. Errors wrap ErrTooDeep or ErrBadMsgpack.
func Check(raw []byte) error {
	// open[d] counts the values still to read in the d-th open container;
	// open[0] is the one top-level value.
	var open [MaxDepth + 1]uint64
	open[0] = 1
	depth := 0
	i := 0
	for {
		for open[depth] == 0 {
			if depth == 0 {
				if i != len(raw) {
					return fmt.Errorf("%w: %d bytes after the value", ErrBadMsgpack, len(raw)-i)
				}
				return nil
			}
			depth--
		}
		if i >= len(raw) {
			return fmt.Errorf("%w: ends inside a value", ErrBadMsgpack)
		}
		open[depth]--
		c := raw[i]
		i++
		var skip, items uint64 // bytes of payload to skip; values the container holds
		container := false
		switch {
		case c <= 0x7f || c >= 0xe0, c == 0xc0, c == 0xc2, c == 0xc3: // fixint, nil, bool
		case c&0xf0 == 0x80: // fixmap
			items, container = 2*uint64(c&0x0f), true
		case c&0xf0 == 0x90: // fixarray
			items, container = uint64(c&0x0f), true
		case c&0xe0 == 0xa0: // fixstr
			skip = uint64(c & 0x1f)
		case c == 0xcc || c == 0xd0:
			skip = 1
		case c == 0xcd || c == 0xd1:
			skip = 2
		case c == 0xca || c == 0xce || c == 0xd2:
			skip = 4
		case c == 0xcb || c == 0xcf || c == 0xd3:
			skip = 8
		case c == 0xc4 || c == 0xd9, c == 0xc5 || c == 0xda, c == 0xc6 || c == 0xdb: // bin, str
			n, ok := readLen(raw, &i, c)
			if !ok {
				return fmt.Errorf("%w: ends inside a length", ErrBadMsgpack)
			}
			skip = n
		case c == 0xdc || c == 0xdd: // array16, array32
			n, ok := readLen(raw, &i, c)
			if !ok {
				return fmt.Errorf("%w: ends inside a length", ErrBadMsgpack)
			}
			items, container = n, true
		case c == 0xde || c == 0xdf: // map16, map32
			n, ok := readLen(raw, &i, c)
			if !ok {
				return fmt.Errorf("%w: ends inside a length", ErrBadMsgpack)
			}
			items, container = 2*n, true
		case c == 0xc1:
			return fmt.Errorf("%w: byte 0xc1 at %d is never used", ErrBadMsgpack, i-1)
		default: // 0xc7–0xc9, 0xd4–0xd8: extension types
			return fmt.Errorf("%w: extension type 0x%02x at %d", ErrBadMsgpack, c, i-1)
		}
		left := uint64(len(raw) - i)
		switch {
		case skip > left:
			return fmt.Errorf("%w: %d bytes claimed at %d, %d left", ErrBadMsgpack, skip, i, left)
		case items > left:
			return fmt.Errorf("%w: %d values claimed at %d, %d bytes left", ErrBadMsgpack, items, i, left)
		}
		i += int(skip)
		if container {
			if depth == MaxDepth {
				return fmt.Errorf("%w: containers nest more than %d deep", ErrTooDeep, MaxDepth)
			}
			depth++
			open[depth] = items
		}
	}
}

// readLen reads the big-endian length that follows type byte c at raw[*i]:
// one, two or four bytes by the type's size class.
func readLen(raw []byte, i *int, c byte) (uint64, bool) {
	var size int
	switch c {
	case 0xc4, 0xd9:
		size = 1
	case 0xc5, 0xda, 0xdc, 0xde:
		size = 2
	default: // 0xc6, 0xdb, 0xdd, 0xdf
		size = 4
	}
	if len(raw)-*i < size {
		return 0, false
	}
	b := raw[*i : *i+size]
	*i += size
	switch size {
	case 1:
		return uint64(b[0]), true
	case 2:
		return uint64(binary.BigEndian.Uint16(b)), true
	}
	return uint64(binary.BigEndian.Uint32(b)), true
}
