package manifest

import "errors"

// Errors returned by this package; check them with errors.Is.
var (
	// ErrNoKey means the extension manifest has no public "key", so its ID
	// would depend on the folder it is loaded from.
	ErrNoKey = errors.New("manifest: extension manifest has no \"key\"")
	// ErrBadKey means the "key" is not base64 of a DER public key.
	ErrBadKey = errors.New("manifest: extension \"key\" is not valid base64 DER")
	// ErrBadName means a host name breaks Chrome's naming rules.
	ErrBadName = errors.New("manifest: invalid native messaging host name")
	// ErrRelativePath means a host path is not absolute; Chrome on Linux
	// and macOS needs an absolute one.
	ErrRelativePath = errors.New("manifest: host path must be absolute")
	// ErrBadExtensionID means an ID is not 32 letters a-p.
	ErrBadExtensionID = errors.New("manifest: invalid extension ID")
	// ErrBadOrigin means an argument is not a chrome-extension://ID/ origin.
	ErrBadOrigin = errors.New("manifest: invalid extension origin")
	// ErrOriginNotAllowed means a valid origin is not in the allowed list.
	ErrOriginNotAllowed = errors.New("manifest: origin not allowed")
)
