package host

import "golang.org/x/sys/unix"

func peerUIDOf(fd int) (int, error) {
	cred, err := unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	if err != nil {
		return -1, err
	}
	return uidFromXucred(cred.Version, cred.Uid)
}
