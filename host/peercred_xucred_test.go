package host

import "testing"

// macOS's peer check reads the uid only from an xucred of the layout it
// knows (run here on every OS; the getsockopt itself runs only on macOS).
func TestUIDFromXucred(t *testing.T) {
	if uid, err := uidFromXucred(0, 501); err != nil || uid != 501 {
		t.Errorf("uidFromXucred(0, 501) = %d, %v", uid, err)
	}
	if uid, err := uidFromXucred(1, 501); err == nil || uid != -1 {
		t.Errorf("uidFromXucred(1, 501) = %d, %v; want refused", uid, err)
	}
}
