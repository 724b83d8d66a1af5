package host

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/grip-dev/grip/statedir"
)

// The socket an agent dials on each OS: the state root (statedir), its
// run/ folder and <profile>.sock, grip's one name on every OS (a unix
// socket on Windows too, AF_UNIX there since Windows 10 1803; no named
// pipe), and whether it fits the OS's sockaddr_un. Windows and macOS rows
// are checked here on Linux: they have never run.
func TestSocketPathPerOS(t *testing.T) {
	const profile = "0123456789abcdef" // the extension's ids are 16 hex digits (extension/state.js)
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
		{"windows", `C:\Users\u`, map[string]string{"LocalAppData": `C:\Users\u\AppData\Local`}, `C:\Users\u\AppData\Local\grip\run\0123456789abcdef.sock`, 107},
		{"windows", `C:\Users\u`, nil, `C:\Users\u\AppData\Local\grip\run\0123456789abcdef.sock`, 107},
	}
	for _, tt := range tests {
		t.Run(tt.goos, func(t *testing.T) {
			root, err := statedir.DefaultRoot(tt.goos, tt.home, env(tt.env))
			if err != nil {
				t.Fatal(err)
			}
			sep := "/"
			if tt.goos == "windows" {
				sep = `\`
			}
			got := strings.Join([]string{root, "run", profile + ".sock"}, sep)
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
