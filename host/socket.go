package host

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/grip-dev/grip/internal/atomicfile"
	"github.com/grip-dev/grip/protocol"
)

// socketServer is the per-profile agent socket: on Unix a 0700 folder and
// a 0600 socket, every peer's uid checked against ours (socket_unix.go); on
// Windows a named pipe only our SID may open, every client's token checked
// (socket_windows.go).
type socketServer struct {
	path     string
	infoPath string
	ln       net.Listener

	wg    sync.WaitGroup
	mu    sync.Mutex
	conns map[net.Conn]struct{} // guarded by mu
}

// InfoPath returns the file a host publishes beside its socket.
func InfoPath(runtimeDir, profile string) string {
	return filepath.Join(runtimeDir, profile+".json")
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
		c, err := s.ln.Accept()
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
