// Package statedir says where grip keeps its files: the ledger, the runtime
// dir with the hosts' sockets, logs and config. GRIP_STATE_DIR moves all of
// them, for the CLI and for a host Chrome starts with it in its environment.
package statedir

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
)

// EnvVar overrides the root of every grip file.
const EnvVar = "GRIP_STATE_DIR"

// Root returns grip's state root: $GRIP_STATE_DIR, else the OS default
// (XDG_STATE_HOME or ~/.local/state on Linux, ~/Library/Application
// Support on macOS, %LocalAppData% on Windows), each followed by "grip".
func Root() (string, error) {
	if d := os.Getenv(EnvVar); d != "" {
		return filepath.Abs(d)
	}
	switch runtime.GOOS {
	case "windows":
		if d := os.Getenv("LocalAppData"); d != "" {
			return filepath.Join(d, "grip"), nil
		}
	case "darwin":
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		return filepath.Join(home, "Library", "Application Support", "grip"), nil
	default:
		if d := os.Getenv("XDG_STATE_HOME"); d != "" && filepath.IsAbs(d) {
			return filepath.Join(d, "grip"), nil
		}
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", errors.New("statedir: no home directory; set " + EnvVar)
	}
	return filepath.Join(home, ".local", "state", "grip"), nil
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
