package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/grip-dev/grip/internal/atomicfile"
	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/statedir"
)

// socketServer is the per-profile agent socket: 0700 folder, 0600 socket,
// every peer's uid checked against ours.
type socketServer struct {
	path     string
	infoPath string
	ln       *net.UnixListener

	wg    sync.WaitGroup
	mu    sync.Mutex
	conns map[net.Conn]struct{} // guarded by mu
}

// SocketPath returns the socket of a profile in the runtime dir.
func SocketPath(runtimeDir, profile string) string {
	return filepath.Join(runtimeDir, profile+".sock")
}

// socketPathMax is the longest socket path goos takes: sockaddr_un's
// sun_path holds 108 bytes on Linux and Windows, 104 on macOS and the
// BSDs, the terminating NUL included.
func socketPathMax(goos string) int {
	switch goos {
	case "linux", "android", "windows":
		return 107
	}
	return 103
}

// InfoPath returns the file a host publishes beside its socket.
func InfoPath(runtimeDir, profile string) string {
	return filepath.Join(runtimeDir, profile+".json")
}

// listen opens the profile's socket. A leftover socket is dialled first:
// if a live host answers it is left alone and we refuse to start; only a
// dead one is replaced.
func listen(runtimeDir, profile string) (*socketServer, error) {
	if err := statedir.Ensure(runtimeDir); err != nil {
		return nil, fmt.Errorf("host: runtime dir: %w", err)
	}
	path := SocketPath(runtimeDir, profile)
	if limit := socketPathMax(runtime.GOOS); len(path) > limit {
		// Else the bind fails with a bare "invalid argument".
		return nil, fmt.Errorf("host: the socket path %s is %d bytes, more than the %d this OS allows: set %s to a shorter folder",
			path, len(path), limit, statedir.EnvVar)
	}
	if _, err := os.Lstat(path); err == nil {
		c, derr := net.DialTimeout("unix", path, time.Second)
		if derr == nil {
			c.Close()
			return nil, fmt.Errorf("%w: %s answers", ErrHostRunning, path)
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("host: remove stale socket: %w", err)
		}
	}
	// The umask makes the socket 0600 from birth, with no window in which
	// another user could connect; the chmod below is belt and braces.
	restore := setUmask(0o177)
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	restore()
	if err != nil {
		return nil, fmt.Errorf("host: listen on %s: %w", path, err)
	}
	ln.SetUnlinkOnClose(true)
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return nil, err
	}
	return &socketServer{path: path, infoPath: InfoPath(runtimeDir, profile), ln: ln, conns: map[net.Conn]struct{}{}}, nil
}

// publish writes the host's info beside the socket, atomically, once the
// socket accepts: its appearance is what a waiting CLI watches for.
func (s *socketServer) publish(info protocol.HostInfo) error {
	b, err := json.MarshalIndent(info, "", "  ")
	if err != nil {
		return err
	}
	if err := atomicfile.WriteFile(s.infoPath, b, 0o600); err != nil {
		return err
	}
	os.Remove(strings.TrimSuffix(s.infoPath, ".json") + protocol.LeftSuffix)
	return nil
}

// leave writes the note that the extension closed the channel
// (protocol.LeftSuffix), for a CLI that then finds no host to say so.
func (s *socketServer) leave(info protocol.HostInfo) {
	info.Left = time.Now().UTC().Format(time.RFC3339)
	info.Socket = ""
	if b, err := json.MarshalIndent(info, "", "  "); err == nil {
		_ = atomicfile.WriteFile(strings.TrimSuffix(s.infoPath, ".json")+protocol.LeftSuffix, b, 0o600)
	}
}

func (s *socketServer) close() {
	os.Remove(s.infoPath)
	s.ln.Close()
	s.mu.Lock()
	for c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
}

func (s *socketServer) serve(ctx context.Context, h *Host) {
	for {
		c, err := s.ln.AcceptUnix()
		if err != nil {
			return
		}
		if err := checkPeer(c); err != nil {
			h.log.Warn("socket: refused a client", "err", err)
			w := protocol.NewSocketWriter(c, 0)
			_ = w.Write(protocol.Reply{Error: protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryHost, "", "%v", err)})
			c.Close()
			continue
		}
		s.mu.Lock()
		s.conns[c] = struct{}{}
		s.mu.Unlock()
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			h.serveConn(ctx, c)
			s.mu.Lock()
			delete(s.conns, c)
			s.mu.Unlock()
		}()
	}
}

// checkPeer refuses a client whose uid is not ours.
func checkPeer(c *net.UnixConn) error {
	uid, err := peerUID(c)
	if err != nil {
		return fmt.Errorf("cannot read the peer's credentials: %w", err)
	}
	if uid != os.Getuid() {
		return fmt.Errorf("peer uid %d is not the owner %d", uid, os.Getuid())
	}
	return nil
}

// serveConn reads requests from one agent connection: the first must be a
// hello with our protocol version; then each request runs in its own
// goroutine and its reply is written by one writer, matched by id.
func (h *Host) serveConn(ctx context.Context, c net.Conn) {
	defer c.Close()
	// Requests are small (see protocol.MaxRequestFrame): a larger frame is
	// refused before its body is read, and protocol.Unmarshal refuses a
	// body nested too deep or claiming more than it holds before decoding.
	r := protocol.NewSocketReader(c, protocol.MaxRequestFrame)
	var wmu sync.Mutex
	w := protocol.NewSocketWriter(c, 0)
	reply := func(rep protocol.Reply) {
		wmu.Lock()
		defer wmu.Unlock()
		if err := w.Write(rep); err != nil {
			if errors.Is(err, protocol.ErrFrameTooLarge) {
				_ = w.Write(protocol.Reply{ID: rep.ID, Error: protocol.Errorf(protocol.CodeTooLarge, protocol.BoundaryPayload,
					"ask for less (a smaller --budget)", "%v", err)})
			}
		}
	}
	helloed := false
	// Requests in flight end with their client: a wait with a long
	// timeout must not outlive the connection that asked for it.
	ctx, cancel := context.WithCancel(ctx)
	reqs := &requests{}
	ctx = withRequests(ctx, reqs)
	var inflight sync.WaitGroup
	defer func() {
		cancel()
		inflight.Wait()
	}()
	for {
		var req protocol.Request
		raw, err := r.ReadRaw()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				h.log.Debug("socket: connection ended", "err", err)
			}
			if errors.Is(err, protocol.ErrFrameTooLarge) || errors.Is(err, protocol.ErrEmptyFrame) {
				reply(protocol.Reply{Error: protocol.Errorf(protocol.CodeTooLarge, protocol.BoundaryPayload, "send less in one request", "%v", err)})
			}
			return
		}
		if err := protocol.Unmarshal(raw, &req); err != nil {
			reply(protocol.Reply{Error: protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
				"send {id, op, args} as a msgpack map", "%v", err)})
			return
		}
		if !helloed {
			res, err := h.hello(req)
			reply(makeReply(req.ID, res, err))
			if err != nil {
				return
			}
			helloed = true
			sess := helloSession(req)
			ctx = withSession(withClient(ctx, helloClient(req)), sess)
			defer h.person.connect(sess)()
			continue
		}
		inflight.Add(1)
		rctx, done := reqs.start(ctx, req.ID)
		go func() {
			defer inflight.Done()
			defer done()
			res, err := h.serve(rctx, req)
			reply(makeReply(req.ID, res, err))
		}()
	}
}

func makeReply(id uint64, res any, err error) protocol.Reply {
	if err != nil {
		return protocol.Reply{ID: id, Error: protocol.AsError(err)}
	}
	raw, merr := protocol.Marshal(res)
	if merr != nil {
		return protocol.Reply{ID: id, Error: protocol.AsError(merr)}
	}
	return protocol.Reply{ID: id, Result: raw}
}

func (h *Host) hello(req protocol.Request) (any, error) {
	if req.Op != protocol.OpHello {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"start every connection with a hello", "first request is %q, not hello", req.Op)
	}
	var args protocol.HelloArgs
	if err := decodeArgs(req.Args, &args); err != nil {
		return nil, err
	}
	if args.Protocol != protocol.Version {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"use a grip CLI of the same release as the host", "client speaks protocol %d, host %d", args.Protocol, protocol.Version)
	}
	return h.helloInfo(), nil
}

// helloInfo is what a hello answers: the host's info, and whether the
// person has paused agents (doctor says so).
func (h *Host) helloInfo() protocol.HostInfo {
	info := h.info
	select {
	case <-h.ready: // the person's controls are set once ready closes
		info.Paused = h.person.isPaused()
	default:
	}
	return info
}

func decodeArgs(raw []byte, v any) error {
	if len(raw) == 0 {
		return nil
	}
	if err := protocol.Unmarshal(raw, v); err != nil {
		return protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "check the arguments' types", "%v", err)
	}
	return nil
}
