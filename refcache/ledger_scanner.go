package refcache

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"unicode/utf8"
)

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
