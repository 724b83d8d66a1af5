package refcache

import (
	"strconv"

	"github.com/grip-dev/grip/protocol"
)

// refHint tells the agent what a ref looks like.
const refHint = "refs look like @e12, as grip snapshot prints them"

// ParseRef reads a public ref: "@e12" is 12. It refuses anything else —
// "@e0", "@e01", "@ex", "e5", "", a number above MaxRef — with an
// invalid_locator *protocol.Error at BoundaryPayload.
func ParseRef(s string) (uint64, error) {
	bad := func(why string) (uint64, error) {
		return 0, protocol.Errorf(protocol.CodeInvalidLocator, protocol.BoundaryPayload, refHint,
			"malformed ref %q: %s", s, why)
	}
	if len(s) < 2 || s[0] != '@' || s[1] != 'e' {
		return bad("a ref starts with @e")
	}
	digits := s[2:]
	switch {
	case digits == "":
		return bad("no number after @e")
	case digits[0] == '0' && len(digits) == 1:
		return bad("refs start at @e1")
	case digits[0] == '0':
		return bad("no leading zeros")
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return bad("the number after @e has a non-digit")
		}
	}
	n, err := strconv.ParseUint(digits, 10, 64)
	if err != nil || n > MaxRef {
		return bad("number out of range")
	}
	return n, nil
}

// FormatRef writes a public ref: 12 is "@e12".
func FormatRef(n uint64) string {
	return "@e" + strconv.FormatUint(n, 10)
}

// FormatRefs is FormatRef of each of refs, written into one string that
// they share: a read of thousands of elements makes one allocation for
// their refs, not two for each.
func FormatRefs(refs []uint64) []string {
	buf := make([]byte, 0, len(refs)*8)
	ends := make([]int, len(refs))
	for i, n := range refs {
		buf = append(buf, "@e"...)
		buf = strconv.AppendUint(buf, n, 10)
		ends[i] = len(buf)
	}
	all := string(buf)
	out := make([]string, len(refs))
	start := 0
	for i, end := range ends {
		out[i] = all[start:end]
		start = end
	}
	return out
}
