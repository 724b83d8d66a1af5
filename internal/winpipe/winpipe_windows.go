//go:build windows

package winpipe

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"unsafe"

	"github.com/Microsoft/go-winio"
	"golang.org/x/sys/windows"
)

// bufSize is each direction's pipe buffer: one screenshot reply is many
// of them, a request rarely more than one.
const bufSize = 64 << 10

// Listen creates the pipe path for this process's user (SDDL of its SID) as
// the first instance of that name (FILE_FLAG_FIRST_PIPE_INSTANCE): if any
// process already holds the name the call fails with ErrTaken, and the
// caller decides whether the holder is a live host of ours (Dial answers)
// or a squatter. Remote clients are refused (PIPE_REJECT_REMOTE_CLIENTS).
//
// The listener is go-winio's design (one instance always waiting for the
// next client, overlapped I/O) written over golang.org/x/sys/windows, with
// each connected instance handed to os.NewFile, whose overlapped-handle
// support (Go 1.25) gives reads, writes and deadlines on the runtime's
// own I/O completion port. go-winio's own listener cannot be proved here:
// under Wine its reserved first instance takes the clients and no Accept
// ever returns (docs/wire.md, "The agents' socket on Windows").
func Listen(path string) (net.Listener, error) {
	sid, err := selfSID()
	if err != nil {
		return nil, err
	}
	return listenSDDL(path, SDDL(sid.String()))
}

// listenSDDL is Listen with the security descriptor sddl (tests try others).
func listenSDDL(path, sddl string) (net.Listener, error) {
	sd, err := windows.SecurityDescriptorFromString(sddl)
	if err != nil {
		return nil, fmt.Errorf("winpipe: security descriptor: %w", err)
	}
	l := &listener{path: path, sa: &windows.SecurityAttributes{SecurityDescriptor: sd}}
	l.sa.Length = uint32(unsafe.Sizeof(*l.sa))
	h, err := l.instance(true)
	if err != nil {
		if errors.Is(err, windows.ERROR_ACCESS_DENIED) || errors.Is(err, windows.ERROR_PIPE_BUSY) {
			return nil, fmt.Errorf("%w: %s: %v", ErrTaken, path, err)
		}
		return nil, fmt.Errorf("winpipe: listen on %s: %w", path, err)
	}
	stop, err := windows.CreateEvent(nil, 1, 0, nil)
	if err != nil {
		windows.CloseHandle(h)
		return nil, err
	}
	l.next, l.stop = h, stop
	return l, nil
}

type listener struct {
	path string
	sa   *windows.SecurityAttributes
	stop windows.Handle // set by Close; ends a waiting Accept

	mu     sync.Mutex     // held by Accept while it waits, and by Close
	next   windows.Handle // the instance waiting for the next client; guarded by mu
	closed bool           // guarded by mu
}

// instance creates one instance of the pipe, the first or another.
func (l *listener) instance(first bool) (windows.Handle, error) {
	name, err := windows.UTF16PtrFromString(l.path)
	if err != nil {
		return 0, err
	}
	mode := uint32(windows.PIPE_ACCESS_DUPLEX | windows.FILE_FLAG_OVERLAPPED)
	if first {
		mode |= windows.FILE_FLAG_FIRST_PIPE_INSTANCE
	}
	return windows.CreateNamedPipe(name, mode,
		windows.PIPE_TYPE_BYTE|windows.PIPE_READMODE_BYTE|windows.PIPE_WAIT|windows.PIPE_REJECT_REMOTE_CLIENTS,
		windows.PIPE_UNLIMITED_INSTANCES, bufSize, bufSize, 0, l.sa)
}

// Accept waits for a client on the waiting instance, makes the next
// instance (so the name is never without one, and never free for another
// process to take), and returns the connected one.
func (l *listener) Accept() (net.Conn, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for {
		if l.closed {
			return nil, net.ErrClosed
		}
		err := l.connect(l.next)
		if errors.Is(err, windows.ERROR_NO_DATA) {
			// The client came and went: reuse the instance.
			windows.DisconnectNamedPipe(l.next)
			continue
		}
		if err != nil {
			return nil, err
		}
		h := l.next
		next, err := l.instance(false)
		if err != nil {
			windows.CloseHandle(h)
			l.next = 0
			l.closed = true
			return nil, fmt.Errorf("winpipe: next instance of %s: %w", l.path, err)
		}
		l.next = next
		return &conn{File: os.NewFile(uintptr(h), l.path), h: h}, nil
	}
}

// connect waits until a client opens instance h or Close is called.
func (l *listener) connect(h windows.Handle) error {
	ev, err := windows.CreateEvent(nil, 1, 0, nil)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(ev)
	ov := windows.Overlapped{HEvent: ev}
	err = windows.ConnectNamedPipe(h, &ov)
	switch {
	case err == nil, errors.Is(err, windows.ERROR_PIPE_CONNECTED):
		return nil
	case !errors.Is(err, windows.ERROR_IO_PENDING):
		return err
	}
	w, err := windows.WaitForMultipleObjects([]windows.Handle{ev, l.stop}, false, windows.INFINITE)
	var n uint32
	if err != nil || w != windows.WAIT_OBJECT_0 {
		windows.CancelIoEx(h, &ov)
		windows.GetOverlappedResult(h, &ov, &n, true)
		l.closed = true
		return net.ErrClosed
	}
	return windows.GetOverlappedResult(h, &ov, &n, false)
}

// Close stops a waiting Accept and removes the waiting instance; the
// connections already accepted stay open.
func (l *listener) Close() error {
	windows.SetEvent(l.stop)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	if l.next != 0 {
		windows.CloseHandle(l.next)
		l.next = 0
	}
	return nil
}

func (l *listener) Addr() net.Addr { return addr(l.path) }

// conn is one accepted client: os.File's reads, writes and deadlines, and
// the handle CheckClient asks about.
type conn struct {
	*os.File
	h windows.Handle
}

func (c *conn) Fd() uintptr          { return uintptr(c.h) }
func (c *conn) LocalAddr() net.Addr  { return addr(c.Name()) }
func (c *conn) RemoteAddr() net.Addr { return addr(c.Name()) }

type addr string

func (a addr) Network() string { return "pipe" }
func (a addr) String() string  { return string(a) }

// Dial connects to the pipe path and checks that the process serving it
// runs as this user; a pipe someone else created under grip's name is
// closed before a byte is sent, with ErrNotOwner. The client allows the
// server no impersonation (go-winio dials at SECURITY_ANONYMOUS).
func Dial(ctx context.Context, path string) (net.Conn, error) {
	c, err := winio.DialPipeContext(ctx, path)
	if err != nil {
		return nil, err
	}
	var pid uint32
	if err := windows.GetNamedPipeServerProcessId(handle(c), &pid); err != nil {
		c.Close()
		return nil, fmt.Errorf("winpipe: cannot tell who serves %s: %w", path, err)
	}
	if err := SameUser(pid); err != nil {
		c.Close()
		return nil, fmt.Errorf("%s is served by process %d: %w", path, pid, err)
	}
	return c, nil
}

// CheckClient is the host's check of one connection, what SO_PEERCRED is on
// Linux: the connecting process (GetNamedPipeClientProcessId) must run as
// this user (its token's user SID is ours).
func CheckClient(c net.Conn) error {
	h := handle(c)
	if h == 0 {
		return errors.New("winpipe: not a pipe connection")
	}
	var pid uint32
	if err := windows.GetNamedPipeClientProcessId(h, &pid); err != nil {
		return fmt.Errorf("winpipe: cannot tell which process connected: %w", err)
	}
	if err := SameUser(pid); err != nil {
		return fmt.Errorf("client process %d: %w", pid, err)
	}
	return nil
}

// handle is the pipe handle under a go-winio connection (0 if c is none).
func handle(c net.Conn) windows.Handle {
	if f, ok := c.(interface{ Fd() uintptr }); ok {
		return windows.Handle(f.Fd())
	}
	return 0
}

// SameUser returns nil when process pid runs as this process's user, and
// an error wrapping ErrNotOwner when it runs as another or its token
// cannot be read (a process of another user's that Windows will not let
// us open is refused, never let in unchecked).
func SameUser(pid uint32) error {
	self, err := selfSID()
	if err != nil {
		return err
	}
	sid, err := processSID(pid)
	if err != nil {
		return fmt.Errorf("%w: cannot read its token: %v", ErrNotOwner, err)
	}
	return sameSID(self, sid)
}

// sameSID is SameUser's verdict once both SIDs are known.
func sameSID(self, other *windows.SID) error {
	if !other.Equals(self) {
		return fmt.Errorf("%w: %s, not %s", ErrNotOwner, other, self)
	}
	return nil
}

// processSID is the user SID of process pid's token.
func processSID(pid uint32) (*windows.SID, error) {
	p, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err != nil {
		return nil, err
	}
	defer windows.CloseHandle(p)
	var tok windows.Token
	if err := windows.OpenProcessToken(p, windows.TOKEN_QUERY, &tok); err != nil {
		return nil, err
	}
	defer tok.Close()
	return tokenSID(tok)
}

func tokenSID(tok windows.Token) (*windows.SID, error) {
	u, err := tok.GetTokenUser()
	if err != nil {
		return nil, err
	}
	return u.User.Sid.Copy()
}

// selfSID is this process's user SID.
func selfSID() (*windows.SID, error) {
	return tokenSID(windows.GetCurrentProcessToken())
}
