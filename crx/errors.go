package crx

import "errors"

// Errors returned by this package; check them with errors.Is.
var (
	// ErrFormat means the bytes are not a CRX3 file grip can read.
	ErrFormat = errors.New("crx: not a valid CRX3 file")
	// ErrSignature means a proof does not verify, or none signs the
	// declared ID: Chrome would refuse to install the file.
	ErrSignature = errors.New("crx: signature does not verify")
	// ErrKey means a signing key file cannot be read.
	ErrKey = errors.New("crx: bad signing key")
)
