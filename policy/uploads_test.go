package policy

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestJudgeUpload(t *testing.T) {
	home := t.TempDir()
	m := Machine{Home: home, Temp: "/nonexistent-tmp", State: filepath.Join(home, ".local/state/grip")}
	for _, tt := range []struct {
		src, path string
		ok        bool
		line      string
	}{
		{"", filepath.Join(home, "Downloads/a.pdf"), true, ""},
		{"", "/nonexistent-tmp/x.png", true, ""},
		{"", filepath.Join(home, "Documents/a.pdf"), false, "upload-from = ~/Downloads, /nonexistent-tmp, " + home + "/Documents"},
		{"upload-from = ~\n", filepath.Join(home, "Documents/a.pdf"), true, ""},
		{"upload-from = ~\n", filepath.Join(home, ".ssh/id_rsa"), false, "upload-from = ~, " + home + "/.ssh"},
		{"upload-from = ~\n", filepath.Join(home, ".local/state/grip/policy.conf"), false, ""},
		{"upload-from = ~, ~/.ssh\n", filepath.Join(home, ".ssh/id_rsa"), true, ""},
		{"upload-from = /\n", "/etc/passwd", false, "upload-from = /, /etc"},
		{"upload-from = /\n", "/proc/1/environ", false, ""},
		{"upload-from = /, /etc\n", "/etc/passwd", true, ""},
		{"upload-from = /srv/share\n", "/srv/shared/x", false, ""},
		{"upload-from = /srv/share\n", "/srv/share/x", true, ""},
	} {
		p, err := Parse([]byte(tt.src))
		if err != nil {
			t.Fatal(err)
		}
		r := p.JudgeUpload(tt.path, m)
		if (r == nil) != tt.ok {
			t.Errorf("%q: %s judged %v, want ok=%v", tt.src, tt.path, r, tt.ok)
			continue
		}
		if r != nil && tt.line != "" && r.Line != tt.line {
			t.Errorf("%q: %s: line %q, want %q", tt.src, tt.path, r.Line, tt.line)
		}
	}
}

func TestParseUploadFrom(t *testing.T) {
	p, err := Parse([]byte("# x\nupload-from = ~/Downloads, /srv/share\n"))
	if err != nil || strings.Join(p.UploadFrom, "|") != "~/Downloads|/srv/share" || p.UploadFromLine != 2 {
		t.Fatalf("%+v %v", p, err)
	}
	for _, bad := range []string{"upload-from = Downloads\n", "upload-from = ,\n", "upload-from = /a\nupload-from = /b\n"} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// TestFileURLsClosedUnlessNamed: file:// is blocked by default, and by a
// policy that opens every site with *, until a rule names file://.
func TestFileURLsClosedUnlessNamed(t *testing.T) {
	for _, tt := range []struct {
		src  string
		want Rule
	}{
		{"", Block},
		{"act *\n", Block},
		{"default = act\nact localhost\n", Block},
		{"read file://\n", Read},
		{"act file://\nblock *\n", Act},
	} {
		p, err := Parse([]byte(tt.src))
		if err != nil {
			t.Fatal(err)
		}
		d := p.Decide("file:///home/u/.ssh/id_rsa")
		if d.Rule != tt.want {
			t.Errorf("%q: file:// is %s (%s), want %s", tt.src, d.Rule, d.Why(), tt.want)
		}
		if tt.want == Block && !strings.Contains(d.Why(), "file://") {
			t.Errorf("%q: the refusal does not say how to open it: %s", tt.src, d.Why())
		}
	}
}

// TestHostsMatchAsDNSResolvesThem: a pattern and a URL naming the same
// host in different forms fall under the same rule.
func TestHostsMatchAsDNSResolvesThem(t *testing.T) {
	p, err := Parse([]byte("block 0x7f.1\nblock PAY.example.\nblock xn--bcher-kva.example\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"http://127.0.0.1/", "http://2130706433/", "http://0177.0.0.01/", "http://127.1/",
		"https://pay.example./x", "https://Pay.Example/", "https://xn--bcher-kva.example/"} {
		if d := p.Decide(u); d.Rule != Block {
			t.Errorf("%s: %s (%s), want block", u, d.Rule, d.Why())
		}
	}
	for _, u := range []string{"http://127.0.0.2/", "https://pay.example.com/", "http://1.2.3.4.5/"} {
		if d := p.Decide(u); d.Rule == Block {
			t.Errorf("%s: blocked by %s", u, d.Why())
		}
	}
	for in, want := range map[string]string{"0x7f.1": "127.0.0.1", "2130706433": "127.0.0.1", "1.2.3": "1.2.0.3", "256.1.1.1": "256.1.1.1", "a.1": "a.1", "1.2.3.4.5": "1.2.3.4.5", "0xffffffff": "255.255.255.255", "4294967296": "4294967296"} {
		if got := canonicalHost(in); got != want {
			t.Errorf("canonicalHost(%q) = %q, want %q", in, got, want)
		}
	}
}

// The profile folder of a browser grip launched (cookies, the launcher's
// resume token) is kept closed, even inside the temp folder, which is open
// by default.
func TestLaunchedProfileClosed(t *testing.T) {
	tmp := t.TempDir()
	m := Machine{Home: t.TempDir(), Temp: tmp, Profile: filepath.Join(tmp, "profile")}
	p := Default()
	if r := p.JudgeUpload(filepath.Join(tmp, "profile", "grip-resume.token"), m); r == nil || !strings.Contains(r.Why, "the browser's own profile folder") {
		t.Errorf("the resume token: %v", r)
	}
	if r := p.JudgeUpload(filepath.Join(tmp, "report.pdf"), m); r != nil {
		t.Errorf("a file beside the profile: %v", r)
	}
}

// TestUploadKeepsProfilesAndCredentialStoresIn: a browser's profile and a
// credential store are refused wherever they lie — in the temp folder and
// in ~/Downloads, both upload-from folders by default — unless upload-from
// names them; the files beside them are not.
func TestUploadKeepsProfilesAndCredentialStoresIn(t *testing.T) {
	home, tmp := t.TempDir(), t.TempDir()
	m := Machine{Home: home, Temp: tmp, State: filepath.Join(home, ".local/state/grip")}
	files := []string{
		"chrome/Local State", "chrome/Default/Cookies", "chrome/Default/Login Data", "chrome/Default/Preferences",
		"firefox/abc.default/cookies.sqlite", "firefox/abc.default/prefs.js",
		"recipes/Cookies", "recipes/pancakes.txt", "copied/Default/Preferences", "copied/Default/History",
		"krb5cc_1000", "backup/.aws/credentials", "backup/.ssh/known_hosts", "backup/.config/gcloud/credentials.db",
		"backup/.kube/config", "backup/.azure/accessTokens.json", "backup/.docker/config.json", "backup/id_ed25519",
		"login.keyring", "ok/report.pdf",
	}
	for _, f := range append(files, "../"+filepath.Base(home)+"/Downloads/.netrc", "../"+filepath.Base(home)+"/Downloads/.pgpass") {
		p := filepath.Join(tmp, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	p := Default()
	for _, tt := range []struct {
		path, why string
	}{
		{filepath.Join(tmp, "chrome/Default/Cookies"), "a browser's"},
		{filepath.Join(tmp, "chrome/Default/Preferences"), "a browser's profile folder"},
		{filepath.Join(tmp, "chrome/Local State"), "a browser's profile folder"},
		{filepath.Join(tmp, "firefox/abc.default/prefs.js"), "a browser's profile folder"},
		{filepath.Join(tmp, "copied/Default/History"), "a browser's profile folder"},
		{filepath.Join(tmp, "recipes/Cookies"), "a browser's cookies"},
		{filepath.Join(tmp, "krb5cc_1000"), "Kerberos"},
		{filepath.Join(tmp, "backup/.aws/credentials"), "AWS"},
		{filepath.Join(tmp, "backup/.ssh/known_hosts"), "SSH"},
		{filepath.Join(tmp, "backup/.config/gcloud/credentials.db"), "Google Cloud"},
		{filepath.Join(tmp, "backup/.kube/config"), "Kubernetes"},
		{filepath.Join(tmp, "backup/.azure/accessTokens.json"), "Azure"},
		{filepath.Join(tmp, "backup/.docker/config.json"), "Docker"},
		{filepath.Join(tmp, "backup/id_ed25519"), "private key"},
		{filepath.Join(tmp, "login.keyring"), "keyring"},
		{filepath.Join(home, "Downloads/.netrc"), ".netrc"},
		{filepath.Join(home, "Downloads/.pgpass"), "PostgreSQL"},
	} {
		r := p.JudgeUpload(tt.path, m)
		if r == nil || !strings.Contains(r.Why, tt.why) {
			t.Errorf("%s: %v, want a refusal saying %q", tt.path, r, tt.why)
		}
	}
	for _, f := range []string{"ok/report.pdf", "recipes/pancakes.txt"} {
		if r := p.JudgeUpload(filepath.Join(tmp, f), m); r != nil {
			t.Errorf("a file beside them is refused: %v", r)
		}
	}
	// Named by upload-from, a store opens, as ~/.ssh does.
	named, err := Parse([]byte("upload-from = " + filepath.Join(tmp, "chrome") + ", " + filepath.Join(tmp, "krb5cc_1000") + "\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"chrome/Default/Cookies", "krb5cc_1000"} {
		if r := named.JudgeUpload(filepath.Join(tmp, f), m); r != nil {
			t.Errorf("%s, named by upload-from: %v", f, r)
		}
	}
}
