//go:build !windows

package host

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/grip-dev/grip/internal/winpipe"
	"github.com/grip-dev/grip/statedir"
)

// The socket an agent dials on each Unix: the state root (statedir), its
// run/ folder and <profile>.sock, and whether it fits the OS's
// sockaddr_un. The macOS row is checked here on Linux. Windows has a
// named pipe instead (TestPipeNamePerUser; socket_windows.go).
func TestSocketPathPerOS(t *testing.T) {
	const profile = "0123456789abcdef" // the extension's ids are 16 hex digits (extension/worker/state.js)
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	tests := []struct {
		goos, home string
		env        map[string]string
		want       string
		max        int
	}{
		{"linux", "/home/u", nil, "/home/u/.local/state/grip/run/0123456789abcdef.sock", 107},
		{"linux", "/home/u", map[string]string{"XDG_STATE_HOME": "/var/state/u"}, "/var/state/u/grip/run/0123456789abcdef.sock", 107},
		{"freebsd", "/home/u", nil, "/home/u/.local/state/grip/run/0123456789abcdef.sock", 103},
		{"darwin", "/Users/u", map[string]string{"XDG_STATE_HOME": "/ignored"}, "/Users/u/Library/Application Support/grip/run/0123456789abcdef.sock", 103},
	}
	for _, tt := range tests {
		t.Run(tt.goos, func(t *testing.T) {
			root, err := statedir.DefaultRoot(tt.goos, tt.home, env(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			got := strings.Join([]string{root, "run", profile + ".sock"}, "/")
			if got != tt.want {
				t.Errorf("socket = %s, want %s", got, tt.want)
			}
			if max := socketPathMax(tt.goos); max != tt.max {
				t.Errorf("socketPathMax(%s) = %d, want %d", tt.goos, max, tt.max)
			}
			// Room left for a longer home or user name than the row's.
			if room := tt.max - len(got); room < 32 {
				t.Errorf("%s leaves %d bytes for a longer home, want at least 32", got, room)
			}
		})
	}
}

// A state folder too deep for a socket is refused with what to do, not
// with the bind's bare "invalid argument".
func TestListenRefusesALongSocketPath(t *testing.T) {
	dir := t.TempDir()
	deep := filepath.Join(dir, strings.Repeat("d", socketPathMax(runtime.GOOS)))
	_, err := listen(deep, "0123456789abcdef")
	if err == nil || !strings.Contains(err.Error(), "more than the") || !strings.Contains(err.Error(), statedir.EnvVar) {
		t.Fatalf("listen in a deep folder: %v, want the length refused with %s", err, statedir.EnvVar)
	}
	// Just short enough works.
	short := filepath.Join(dir, strings.Repeat("s", socketPathMax(runtime.GOOS)-len(dir)-len("/0123456789abcdef.sock")-1))
	srv, err := listen(short, "0123456789abcdef")
	if err != nil {
		t.Fatalf("listen at %d bytes: %v", len(SocketPath(short, "0123456789abcdef")), err)
	}
	srv.ln.Close()
}

// On Windows the agents' socket is a named pipe named after the user's
// runtime folder (%LocalAppData%\grip\run, statedir), so two users'
// hosts of one profile never share a name; checked here on every OS.
func TestPipeNamePerUser(t *testing.T) {
	const profile = "0123456789abcdef"
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	pipe := func(home string, e map[string]string) string {
		root, err := statedir.DefaultRoot("windows", home, env(e))
		if err != nil {
			t.Fatal(err)
		}
		return winpipe.Name(root+`\run`, profile)
	}
	a := pipe(`C:\Users\Zoë`, map[string]string{"LocalAppData": `C:\Users\Zoë\AppData\Local`})
	if b := pipe(`C:\Users\Zoë`, nil); b != a {
		t.Errorf("the default %%LocalAppData%% gives %s, %%LocalAppData%% %s", b, a)
	}
	if b := pipe(`C:\Users\Bob`, nil); b == a {
		t.Errorf("two users share %s", a)
	}
	if !strings.HasPrefix(a, `\\.\pipe\grip-`) || !strings.HasSuffix(a, "-"+profile) {
		t.Errorf("pipe = %s", a)
	}
}
