package policy

import (
	"strconv"
	"strings"
)

// canonicalHost writes a host the way the browser and DNS treat it, so a
// pattern and a URL naming the same host always compare equal: lower
// case, no trailing dot, and an IPv4 address in any of the forms the URL
// standard accepts (0x7f.1, 017700000001, 2130706433, 127.1) as its four
// decimal parts. Anything else is returned lower-cased and trimmed.
func canonicalHost(host string) string {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if ip, ok := parseIPv4(host); ok {
		return ip
	}
	return host
}

// parseIPv4 is the URL standard's IPv4 parser: one to four parts, each
// decimal, octal (leading 0) or hex (0x); the last part fills the bytes
// the others leave. It reports false for a host that is not an IPv4
// address (one whose last part is not a number).
func parseIPv4(host string) (string, bool) {
	parts := strings.Split(host, ".")
	if len(parts) > 4 || len(parts) == 0 {
		return "", false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, ok := ipv4Number(p)
		if !ok {
			return "", false
		}
		nums[i] = n
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return "", false
	}
	v := last
	for i, n := range nums[:len(nums)-1] {
		if n > 255 {
			return "", false
		}
		v += n << (8 * (3 - i))
	}
	if v > 0xffffffff {
		return "", false
	}
	return strconv.FormatUint(v>>24, 10) + "." + strconv.FormatUint(v>>16&255, 10) + "." +
		strconv.FormatUint(v>>8&255, 10) + "." + strconv.FormatUint(v&255, 10), true
}

func ipv4Number(p string) (uint64, bool) {
	if p == "" {
		return 0, false
	}
	base := 10
	switch {
	case strings.HasPrefix(p, "0x"):
		base, p = 16, p[2:]
		if p == "" {
			return 0, true // "0x" alone is zero
		}
	case len(p) > 1 && p[0] == '0':
		base, p = 8, p[1:]
	}
	n, err := strconv.ParseUint(p, base, 64)
	if err != nil || n > 0xffffffff {
		return 0, false
	}
	return n, true
}
