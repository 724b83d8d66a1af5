package install

import "errors"

// Errors returned by this package; check them with errors.Is.
var (
	// ErrUnknownBrowser means a --browser value is not one grip knows.
	ErrUnknownBrowser = errors.New("install: unknown browser")
	// ErrNoBrowser means no supported browser was found and none was named.
	ErrNoBrowser = errors.New("install: no supported browser found")
	// ErrHostPathRelative means the grip binary's path is not absolute.
	ErrHostPathRelative = errors.New("install: grip's path is not absolute")
	// ErrHostPathTemporary means the grip binary lives in a folder Go deletes
	// (a `go run` build), so Chrome could not start it later.
	ErrHostPathTemporary = errors.New("install: grip is running from a temporary `go run` build")
	// ErrHostPathMissing means the grip binary is not a file that exists.
	ErrHostPathMissing = errors.New("install: grip binary not found")
	// ErrBadOptions means a required option is missing or malformed.
	ErrBadOptions = errors.New("install: bad options")
	// ErrUnsupportedOS means grip does not know where browsers look on this OS.
	ErrUnsupportedOS = errors.New("install: unsupported operating system")
	// ErrRegistryUnsupported means a Windows registry write was asked for on
	// another OS (a faked GOOS).
	ErrRegistryUnsupported = errors.New("install: the Windows registry is only reachable on Windows")
	// ErrSystemUnsupported means a system-wide install was asked for on an
	// OS where Chrome does not install extensions listed by local files.
	ErrSystemUnsupported = errors.New("install: grip install --system is not supported")
	// ErrOtherInstall means a host manifest already there starts another
	// grip binary (another install, another user's build): Install leaves
	// it unless Options.Force.
	ErrOtherInstall = errors.New("install: another grip install's host manifest is there")
	// ErrLeftAlone marks a file Uninstall did not remove because someone
	// else changed it since grip wrote it. It is a warning, not a failure:
	// everything else was removed.
	ErrLeftAlone = errors.New("install: left in place")
)

// LeftAloneError says which file Uninstall kept and why. It wraps
// ErrLeftAlone.
type LeftAloneError struct {
	Path   string
	Reason string
}

func (e *LeftAloneError) Error() string {
	return "install: left " + e.Path + " in place: " + e.Reason
}

func (e *LeftAloneError) Unwrap() error { return ErrLeftAlone }
