package policy

import (
	"fmt"
	"strconv"
	"strings"
)

// Pattern is one origin pattern of a rule line.
type Pattern struct {
	Scheme string // "" matches every scheme
	// Host is the exact host, or with Wild the domain whose subdomains
	// (and itself) match; "" with Wild matches every host.
	Host string
	Wild bool
	Port string // "" matches every port
}

// String writes the pattern in its normal form, the way Parse reads it.
func (p Pattern) String() string {
	var b strings.Builder
	if p.Scheme != "" {
		b.WriteString(p.Scheme + "://")
	}
	switch {
	case p.Wild && p.Host == "":
		b.WriteString("*")
	case p.Wild:
		b.WriteString("*." + p.Host)
	case strings.Contains(p.Host, ":"):
		b.WriteString("[" + p.Host + "]")
	default:
		b.WriteString(p.Host)
	}
	if p.Port != "" {
		b.WriteString(":" + p.Port)
	}
	return b.String()
}

// ParsePattern reads one origin pattern: [scheme://]host[:port][/], where
// host is an exact host, *.domain or *. A path, a query, user info or a
// host that is not plain ASCII are refused, with what to write instead.
func ParsePattern(s string) (Pattern, error) {
	var p Pattern
	orig := s
	if i := strings.Index(s, "://"); i >= 0 {
		p.Scheme = strings.ToLower(s[:i])
		if !validScheme(p.Scheme) {
			return p, fmt.Errorf("%q: %q is not a scheme (https, http, file…)", orig, s[:i])
		}
		s = s[i+3:]
	} else if strings.Contains(s, ":/") {
		return p, fmt.Errorf("%q: write the scheme with two slashes, e.g. https://mail.example.com", orig)
	}
	if p.Scheme == "file" {
		if s != "" && s != "/" {
			return p, fmt.Errorf("%q: a file rule is written file:// (every local file); rules name origins, not paths", orig)
		}
		return Pattern{Scheme: "file"}, nil
	}
	s = strings.TrimSuffix(s, "/")
	if strings.ContainsAny(s, "/?#") {
		return p, fmt.Errorf("%q: a rule names an origin (scheme://host:port), not a path or a query; write %s", orig, originPart(orig))
	}
	if strings.Contains(s, "@") {
		return p, fmt.Errorf("%q: leave out the user name; write the host alone", orig)
	}
	host := s
	if strings.HasPrefix(s, "[") {
		end := strings.Index(s, "]")
		if end < 0 {
			return p, fmt.Errorf("%q: an IPv6 address needs its closing ]", orig)
		}
		host = s[1:end]
		rest := s[end+1:]
		if rest != "" {
			if !strings.HasPrefix(rest, ":") {
				return p, fmt.Errorf("%q: after ] only a :port may follow", orig)
			}
			if err := p.setPort(rest[1:], orig); err != nil {
				return p, err
			}
		}
		if host == "" || strings.Trim(strings.ToLower(host), "0123456789abcdef:.") != "" {
			return p, fmt.Errorf("%q: %q is not an IPv6 address", orig, host)
		}
		p.Host = strings.ToLower(host)
		return p, nil
	}
	if i := strings.LastIndexByte(s, ':'); i >= 0 {
		host = s[:i]
		if err := p.setPort(s[i+1:], orig); err != nil {
			return p, err
		}
	}
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	switch {
	case host == "*":
		p.Wild = true
		return p, nil
	case strings.HasPrefix(host, "*."):
		p.Wild = true
		host = host[2:]
	case strings.Contains(host, "*"):
		return p, fmt.Errorf("%q: * stands only for a whole host (*) or a host's subdomains (*.example.com)", orig)
	}
	if err := checkHost(host, orig); err != nil {
		return p, err
	}
	if !p.Wild {
		host = canonicalHost(host) // 0x7f.1 names 127.0.0.1
	}
	p.Host = host
	return p, nil
}

// originPart guesses the origin a person meant in a pattern with a path.
func originPart(s string) string {
	rest := s
	prefix := ""
	if i := strings.Index(s, "://"); i >= 0 {
		prefix, rest = s[:i+3], s[i+3:]
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	return prefix + rest
}

func (p *Pattern) setPort(port, orig string) error {
	if port == "*" {
		return nil
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 1 || n > 65535 || strings.HasPrefix(port, "0") || strings.HasPrefix(port, "+") {
		return fmt.Errorf("%q: %q is not a port (1 to 65535, or *)", orig, port)
	}
	p.Port = port
	return nil
}

func validScheme(s string) bool {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

// checkHost accepts ASCII host names and IPv4 addresses; Chrome reports
// internationalised names in their xn-- form, so patterns must use it.
func checkHost(host, orig string) error {
	if host == "" {
		return fmt.Errorf("%q names no host", orig)
	}
	if len(host) > 253 {
		return fmt.Errorf("%q: the host is longer than 253 characters", orig)
	}
	for _, label := range strings.Split(host, ".") {
		if label == "" {
			return fmt.Errorf("%q: the host has an empty label (two dots, or a leading dot)", orig)
		}
		for _, c := range label {
			if c >= 0x80 {
				return fmt.Errorf("%q: write an internationalised host in its xn-- form, as the address bar shows it when copied", orig)
			}
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return fmt.Errorf("%q: %q cannot be in a host name", orig, c)
			}
		}
	}
	return nil
}

// match reports whether o falls under p, and how specific the match is:
// an exact host beats any wildcard, a longer wildcard a shorter one, and
// a scheme, then a port, given beats one left out.
func (p Pattern) match(o Origin) (int, bool) {
	if p.Scheme != "" && p.Scheme != o.Scheme {
		return 0, false
	}
	if p.Port != "" && p.Port != o.Port {
		return 0, false
	}
	var score int
	switch {
	case p.Scheme == "file":
		score = 1 << 20 // file:// has no host: as specific as an exact host
	case !p.Wild:
		if o.Host != p.Host {
			return 0, false
		}
		score = 1 << 20
	case p.Host == "":
		score = 0
	default:
		if o.Host != p.Host && !strings.HasSuffix(o.Host, "."+p.Host) {
			return 0, false
		}
		score = (strings.Count(p.Host, ".") + 1) << 4
	}
	if p.Scheme != "" {
		score += 2
	}
	if p.Port != "" {
		score++
	}
	return score, true
}
