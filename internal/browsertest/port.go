package browsertest

import (
	"net"
	"testing"
)

// FreePort is a loopback TCP port free a moment ago, for a real app a test
// starts (Jupyter, Deluge) to listen on: the app binds it itself.
func FreePort(tb testing.TB) int {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
