package statedir

import (
	"path/filepath"
	"testing"
)

// The state root on each OS, for a home and an environment given: the
// macOS and Windows rows have never run on those systems, so they are
// checked here.
func TestDefaultRootPerOS(t *testing.T) {
	tests := []struct {
		name, goos, home string
		env              map[string]string
		want             string
	}{
		{"linux", "linux", "/home/u", nil, "/home/u/.local/state/grip"},
		{"linux, XDG_STATE_HOME", "linux", "/home/u", map[string]string{"XDG_STATE_HOME": "/srv/state/"}, "/srv/state/grip"},
		{"linux, relative XDG_STATE_HOME ignored", "linux", "/home/u", map[string]string{"XDG_STATE_HOME": "state"}, "/home/u/.local/state/grip"},
		{"freebsd", "freebsd", "/home/u", nil, "/home/u/.local/state/grip"},
		{"darwin", "darwin", "/Users/u", nil, "/Users/u/Library/Application Support/grip"},
		{"darwin ignores XDG", "darwin", "/Users/u", map[string]string{"XDG_STATE_HOME": "/x"}, "/Users/u/Library/Application Support/grip"},
		{"windows", "windows", `C:\Users\u`, map[string]string{"LocalAppData": `C:\Users\u\AppData\Local`}, `C:\Users\u\AppData\Local\grip`},
		{"windows, LocalAppData with a trailing backslash", "windows", `C:\Users\u`, map[string]string{"LocalAppData": `D:\Local\`}, `D:\Local\grip`},
		{"windows without LocalAppData", "windows", `C:\Users\u`, nil, `C:\Users\u\AppData\Local\grip`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := DefaultRoot(tt.goos, tt.home, func(k string) string { return tt.env[k] })
			if err != nil || got != tt.want {
				t.Errorf("DefaultRoot = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	for _, goos := range []string{"linux", "darwin", "windows"} {
		if got, err := DefaultRoot(goos, "", func(string) string { return "" }); err == nil {
			t.Errorf("%s without a home: %q, want an error naming %s", goos, got, EnvVar)
		}
	}
}

// GRIP_STATE_DIR wins over every default and is made absolute; the
// folders under the root are fixed.
func TestRootFromEnv(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(EnvVar, dir)
	got, err := Root()
	if err != nil || got != dir {
		t.Fatalf("Root = %q, %v; want %q", got, err, dir)
	}
	d := At(dir)
	for name, p := range map[string]string{"run": d.Runtime, "ledger": d.Ledger, "logs": d.Logs, "data": d.Data} {
		if p != filepath.Join(dir, name) {
			t.Errorf("At(%s) puts %s at %s", dir, name, p)
		}
	}
	t.Chdir(dir)
	t.Setenv(EnvVar, "rel")
	if got, _ := Root(); got != filepath.Join(dir, "rel") {
		t.Errorf("Root with a relative %s = %q, want it made absolute", EnvVar, got)
	}
}
