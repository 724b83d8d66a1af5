package host

import "fmt"

// xucredVersion is XUCRED_VERSION in macOS's <sys/ucred.h>: the only
// layout of struct xucred a kernel answers LOCAL_PEERCRED with that
// peerUIDOf (peercred_darwin.go) reads.
const xucredVersion = 0

// uidFromXucred is the peer's uid from the xucred LOCAL_PEERCRED filled
// in, refusing a layout it does not know (another cr_version) rather
// than trusting a uid read from the wrong place. No build tag: it is
// tested on every OS, though only macOS calls it.
func uidFromXucred(version, uid uint32) (int, error) {
	if version != xucredVersion {
		return -1, fmt.Errorf("LOCAL_PEERCRED answered xucred version %d, not %d", version, xucredVersion)
	}
	return int(uid), nil
}
