// Package statedir says where grip keeps its files: the ledger, the runtime
// dir with the hosts' sockets, logs and config. GRIP_STATE_DIR moves all of
// them, for the CLI and for a host Chrome starts with it in its environment.
package statedir

import (
	"errors"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/grip-dev/grip/internal/winpath"
)

// EnvVar overrides the root of every grip file.
const EnvVar = "GRIP_STATE_DIR"

// Root returns grip's state root: $GRIP_STATE_DIR, else DefaultRoot for
// this OS, this user's home and environment.
func Root() (string, error) {
	if d := os.Getenv(EnvVar); d != "" {
		return filepath.Abs(d)
	}
	home, _ := os.UserHomeDir()
	return DefaultRoot(runtime.GOOS, home, os.Getenv)
}

// DefaultRoot is the state root on goos for a user whose home is home and
// whose environment getenv reads: $XDG_STATE_HOME/grip (when absolute) or
// ~/.local/state/grip on Linux and the BSDs, ~/Library/Application
// Support/grip on macOS, %LocalAppData%\grip (else
// ~\AppData\Local\grip) on Windows. It reads nothing from the machine,
// so one OS's tests check every OS's row.
func DefaultRoot(goos, home string, getenv func(string) string) (string, error) {
	noHome := errors.New("statedir: no home directory; set " + EnvVar)
	switch goos {
	case "windows":
		if d := getenv("LocalAppData"); d != "" {
			return winpath.Join(d, "grip"), nil
		}
		if home == "" {
			return "", noHome
		}
		return winpath.Join(home, "AppData", "Local", "grip"), nil
	case "darwin":
		if home == "" {
			return "", noHome
		}
		return path.Join(home, "Library", "Application Support", "grip"), nil
	}
	if d := getenv("XDG_STATE_HOME"); d != "" && strings.HasPrefix(d, "/") {
		return path.Join(d, "grip"), nil
	}
	if home == "" {
		return "", noHome
	}
	return path.Join(home, ".local", "state", "grip"), nil
}

// Dirs are the folders under the root.
type Dirs struct {
	Root    string
	Runtime string // sockets and the hosts' published info, 0700
	Ledger  string // refcache ledgers, one per profile
	Logs    string // host logs
	Data    string // the written-out extension
}

// Get returns the folders under Root without creating them.
func Get() (Dirs, error) {
	root, err := Root()
	if err != nil {
		return Dirs{}, err
	}
	return At(root), nil
}

// At returns the folders under root.
func At(root string) Dirs {
	return Dirs{
		Root:    root,
		Runtime: filepath.Join(root, "run"),
		Ledger:  filepath.Join(root, "ledger"),
		Logs:    filepath.Join(root, "logs"),
		Data:    filepath.Join(root, "data"),
	}
}

// Ensure creates dir (and parents) with mode 0700 and tightens an existing
// one to 0700, so sockets and ledgers are never readable by other users.
func Ensure(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return os.Chmod(dir, 0o700)
}
