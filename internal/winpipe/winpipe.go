// Package winpipe is the agents' socket on Windows: a named pipe that only
// the person's own account can open, created first-instance so no other
// process can hold its name, whose every client's token is checked (the
// host side) and whose server's token is checked (the client side). See
// docs/wire.md, "The agents' socket on Windows".
//
// The pipe's name is a pure function of the runtime folder and the
// profile, so the per-OS tables can be tested on any OS; the rest is
// Windows-only (winpipe_windows.go) and is tested under Wine by
// scripts/test-windows.
package winpipe

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
)

// Prefix begins every grip pipe's name.
const Prefix = `\\.\pipe\grip-`

// Errors a caller tells apart.
var (
	// ErrNotOwner: the other end of the pipe runs as another account.
	ErrNotOwner = errors.New("winpipe: the other end runs as another user")
	// ErrTaken: the pipe's name is held by a process that is not a grip
	// host of this user (or cannot be asked).
	ErrTaken = errors.New("winpipe: the pipe's name is taken")
)

// Name returns the pipe of profile for the runtime folder runtimeDir:
// \\.\pipe\grip-<16 hex digits of the folder's hash>-<profile>. Pipe names
// are one namespace for the whole machine, so the folder (under the
// person's own %LocalAppData%, or GRIP_STATE_DIR) keeps two users' and two
// state roots' hosts apart; Windows folder names ignore case, so the hash
// does too. Names stay far below the 256 characters a pipe name may have.
func Name(runtimeDir, profile string) string {
	dir := strings.TrimRight(strings.ReplaceAll(strings.ToLower(runtimeDir), "/", `\`), `\`)
	sum := sha256.Sum256([]byte(dir))
	return Prefix + hex.EncodeToString(sum[:8]) + "-" + profile
}

// SDDL is the security descriptor of a pipe owned by the account sid: owner
// sid, a protected DACL (nothing inherited) that grants everything to sid
// and to SYSTEM (LocalSystem) and to no one else. Anyone else's open fails
// with ERROR_ACCESS_DENIED before the host sees it.
func SDDL(sid string) string {
	return "O:" + sid + "D:P(A;;GA;;;" + sid + ")(A;;GA;;;SY)"
}
