package winpipe

import (
	"strings"
	"testing"
)

func TestName(t *testing.T) {
	a := Name(`C:\Users\Zoë Smith\AppData\Local\grip\run`, "0123456789abcdef")
	if !strings.HasPrefix(a, Prefix) || !strings.HasSuffix(a, "-0123456789abcdef") {
		t.Fatalf("Name = %q", a)
	}
	if len(a) != len(Prefix)+16+1+16 {
		t.Errorf("Name = %q: %d characters", a, len(a))
	}
	// One folder, however it is spelt.
	for _, same := range []string{`c:\users\zoë smith\appdata\local\grip\run\`, `C:/Users/Zoë Smith/AppData/Local/grip/run`} {
		if b := Name(same, "0123456789abcdef"); b != a {
			t.Errorf("Name(%q) = %q, want %q", same, b, a)
		}
	}
	// Another folder or profile, another pipe.
	if b := Name(`C:\Users\other\AppData\Local\grip\run`, "0123456789abcdef"); b == a {
		t.Errorf("two users' folders share pipe %q", a)
	}
	if b := Name(`C:\Users\Zoë Smith\AppData\Local\grip\run`, "fedcba9876543210"); b == a {
		t.Errorf("two profiles share pipe %q", a)
	}
}

func TestSDDL(t *testing.T) {
	const sid = "S-1-5-21-1-2-3-1001"
	got := SDDL(sid)
	if got != "O:S-1-5-21-1-2-3-1001D:P(A;;GA;;;S-1-5-21-1-2-3-1001)(A;;GA;;;SY)" {
		t.Errorf("SDDL = %q", got)
	}
	// Nobody else: no Everyone (WD), Users (BU), Administrators (BA),
	// Authenticated Users (AU) or Anonymous (AN) entry.
	for _, other := range []string{";WD)", ";BU)", ";BA)", ";AU)", ";AN)"} {
		if strings.Contains(got, other) {
			t.Errorf("SDDL %q grants %s", got, other)
		}
	}
}
