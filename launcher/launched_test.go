package launcher

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

var launchTests = []struct {
	in  string
	ok  bool
	err bool
}{
	{"", false, false},
	{"  ", false, false},
	{`{"profile_dir":"/p"}`, true, false},
	{`{"profile_dir":"/p","headless":true,"resume_sha256":"` + strings.Repeat("ab", 32) + `"}`, true, false},
	{`{"profile_dir":"p"}`, false, true},
	{`{"profile_dir":"/p","resume_sha256":"abc"}`, false, true},
	{`{"profile_dir":"/p","resume_sha256":"` + strings.Repeat("zz", 32) + `"}`, false, true},
	{`{"profile_dir":"/p","other":1}`, false, true},
	{`{"profile_dir":"/p"} {}`, false, true},
	{`not json`, false, true},
}

func TestParseLaunch(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the table's paths are POSIX ones")
	}
	for _, tt := range launchTests {
		_, ok, err := ParseLaunch(tt.in)
		if ok != tt.ok || (err != nil) != tt.err {
			t.Errorf("ParseLaunch(%q) = ok %v, err %v", tt.in, ok, err)
		}
	}
	l := Launch{ProfileDir: "/p", Headless: true, ResumeSHA256: TokenSum("t0k")}
	name, val, _ := strings.Cut(l.Env(), "=")
	got, ok, err := ParseLaunch(val)
	if name != EnvLaunch || !ok || err != nil || got != l {
		t.Fatalf("Env round trip: %s=%s → %+v %v %v", name, val, got, ok, err)
	}
}

func FuzzParseLaunch(f *testing.F) {
	for _, tt := range launchTests {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		l, ok, err := ParseLaunch(in)
		if ok && (err != nil || !filepath.IsAbs(l.ProfileDir)) {
			t.Fatalf("ParseLaunch(%q) = %+v, %v, %v", in, l, ok, err)
		}
		if ok {
			if again, ok2, err2 := ParseLaunch(strings.TrimPrefix(l.Env(), EnvLaunch+"=")); !ok2 || err2 != nil || again != l {
				t.Fatalf("round trip of %+v: %+v %v %v", l, again, ok2, err2)
			}
		}
	})
}

// The token in its file lifts the pause; another does not; the file is
// this user's alone, and one others may read is refused.
func TestResumeToken(t *testing.T) {
	dir := t.TempDir()
	tok, sum, err := NewResumeToken()
	if err != nil {
		t.Fatal(err)
	}
	other, _, _ := NewResumeToken()
	l := Launch{ProfileDir: dir, ResumeSHA256: sum}
	if !l.TokenMatches(tok) || l.TokenMatches(other) || l.TokenMatches("") || (Launch{}).TokenMatches(tok) {
		t.Fatal("TokenMatches")
	}
	p, err := WriteResumeToken(dir, tok)
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(p); runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
		t.Errorf("token file mode %v", st.Mode().Perm())
	}
	got, err := ReadResumeToken(p)
	if err != nil || !l.TokenMatches(got) {
		t.Fatalf("read back %q, %v", got, err)
	}
	if runtime.GOOS != "windows" {
		os.Chmod(p, 0o644)
		if _, err := ReadResumeToken(p); err == nil || !strings.Contains(err.Error(), "other users") {
			t.Errorf("a token others may read: %v", err)
		}
	}
}
