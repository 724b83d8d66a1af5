package manifest

import (
	"strings"
	"testing"
)

// FuzzOrigin: the origin Chrome passes to the host is the only thing that
// says who started it. Whatever the argument, parsing never panics, and an
// origin is allowed only when it names an allowed ID exactly (with or
// without the trailing slash): no prefix, suffix, case or encoding games.
func FuzzOrigin(f *testing.F) {
	const id = "ljbpbjbogilfhbhbmmbpnncpndikkoic"
	for _, s := range []string{
		Origin(id), originScheme + id, originScheme + id + "//", originScheme + id + "x/",
		originScheme + strings.ToUpper(id) + "/", "CHROME-EXTENSION://" + id + "/", originScheme + id + "/\x00",
		originScheme + "/" + id + "/", " " + Origin(id), Origin(id) + " ", originScheme, "", "https://" + id + "/",
		originScheme + "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa/", originScheme + id[:31] + "q/",
	} {
		f.Add(s, id)
		f.Add(s, Origin(id))
	}
	f.Fuzz(func(t *testing.T, origin, allowed string) {
		pid, perr := ParseOrigin(origin)
		if perr == nil && (!ValidExtensionID(pid) || (origin != Origin(pid) && origin != originScheme+pid)) {
			t.Fatalf("ParseOrigin(%q) = %q: not the exact origin of a valid ID", origin, pid)
		}
		if err := AllowedOrigin(origin, []string{allowed}); err == nil {
			want := allowed
			if !ValidExtensionID(allowed) {
				want = strings.TrimSuffix(strings.TrimPrefix(allowed, originScheme), "/")
			}
			if origin != Origin(want) && origin != originScheme+want {
				t.Fatalf("origin %q allowed by %q", origin, allowed)
			}
		}
		// The host manifest is read back by doctor and install: any bytes.
		if h, err := Parse([]byte(origin)); err == nil && (!ValidName(h.Name) || h.Type != "stdio" || h.Path == "") {
			t.Fatalf("Parse accepted %+v", h)
		}
	})
}
