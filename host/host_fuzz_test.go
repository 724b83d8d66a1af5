package host

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"os"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/grip-dev/grip/protocol"
	"github.com/grip-dev/grip/statedir"
)

// The host's two decoders of outside bytes, fuzzed end to end: what an
// agent writes on the socket (FuzzSocketConn) and what the extension
// writes on the host's stdin (FuzzExtensionFrames). Seeds are the cases
// the wire format refuses: oversized, truncated, not the encoding, unknown types,
// wrong protocol version.

// fuzzExtension plays the service worker for a fuzzed host: it answers the
// host's requests with fixed, well-formed replies (including a small
// snapshot, so the host's snapshot path runs) and records every byte the
// host wrote on its stdout.
type fuzzExtension struct {
	wmu     sync.Mutex // serialises whole writes to the host's stdin
	toHost  *io.PipeWriter
	inR     *io.PipeReader
	outR    *io.PipeReader
	welcome chan struct{} // closed when the host says welcome
	served  chan error    // the host's stdout ended: nil, or why it is not only frames
	done    chan error    // Run's result
}

// startFuzzHost runs a host on pipes, says hello as profile and serves its
// requests until the host exits. Nothing is logged.
func startFuzzHost(ctx context.Context, dirs statedir.Dirs, profile string) *fuzzExtension {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	fx := &fuzzExtension{toHost: inW, inR: inR, outR: outR, welcome: make(chan struct{}),
		served: make(chan error, 1), done: make(chan error, 1)}
	go func() {
		err := Run(ctx, Config{
			Origin: testOrigin, AllowedIDs: []string{testID}, Stdin: inR, Stdout: outW,
			Dirs: dirs, Version: "fuzz", Log: slog.New(slog.NewTextHandler(io.Discard, nil)),
			HelloWait: 5 * time.Second, LedgerRetry: 100 * time.Millisecond,
		})
		outW.Close()
		// Nobody reads stdin any more: unblock a writer still feeding it.
		inR.CloseWithError(io.ErrClosedPipe)
		fx.done <- err
	}()
	go fx.write(nativeBody(mustJSON(protocol.NativeMessage{Type: "hello",
		Params: mustJSON(protocol.ExtensionHello{Protocol: protocol.Version, Profile: profile, ExtensionVersion: "0.1.0"})})))
	go fx.serve()
	return fx
}

// write sends raw bytes to the host's stdin as one write.
func (fx *fuzzExtension) write(b []byte) {
	fx.wmu.Lock()
	defer fx.wmu.Unlock()
	_, _ = fx.toHost.Write(b)
}

// closeStdin is Chrome closing the channel.
func (fx *fuzzExtension) closeStdin() {
	fx.wmu.Lock()
	defer fx.wmu.Unlock()
	fx.toHost.Close()
}

func nativeBody(body []byte) []byte {
	frame := make([]byte, 4+len(body))
	binary.NativeEndian.PutUint32(frame, uint32(len(body)))
	copy(frame[4:], body)
	return frame
}

func (fx *fuzzExtension) reply(id uint64, result string) {
	fx.write(nativeBody(mustJSON(protocol.NativeMessage{ID: id, Result: json.RawMessage(result)})))
}

const fuzzSnapshot = `{"tab":{"id":5,"url":"http://x/","title":"X"},"frames":[` +
	`{"frameId":0,"documentId":"D0","url":"http://x/","title":"X","elements":[{"id":1,"role":"button","name":"Go"},{"id":2,"role":"textbox","name":"Q","value":"v"}]},` +
	`{"frameId":3,"documentId":"D3","url":"http://y/","error":"blank frame"}]}`

func (fx *fuzzExtension) serve() {
	// The host's stdout must be frames and nothing else, whatever it was fed.
	r := protocol.NewNativeReader(fx.outR, protocol.MaxToExtension)
	var err error
	for {
		var msg protocol.NativeMessage
		if err = r.Read(&msg); err != nil {
			break
		}
		switch msg.Type {
		case "welcome":
			close(fx.welcome)
		case "documents":
			go fx.reply(msg.ID, `{"documents":[{"tabId":5,"frameId":0,"documentId":"D0"}]}`)
		case "tabs":
			go fx.reply(msg.ID, `{"tabs":[{"id":5,"url":"http://x/","title":"X","active":true}]}`)
		case "tab_info":
			go fx.reply(msg.ID, `{"id":5,"url":"http://x/","title":"X"}`)
		case "snapshot":
			go fx.reply(msg.ID, fuzzSnapshot)
		case "refused", "reply", "":
		default:
			go fx.write(nativeBody(mustJSON(protocol.NativeMessage{ID: msg.ID, Error: &protocol.Error{Code: protocol.CodeBadRequest, Message: "fuzz: " + msg.Type}})))
		}
	}
	if err == io.EOF {
		err = nil
	}
	io.Copy(io.Discard, fx.outR)
	fx.served <- err
}

// fuzzDir is a short temp dir (socket paths must stay under 108 bytes).
func fuzzDir(tb testing.TB) string {
	tb.Helper()
	d, err := os.MkdirTemp("", "gfz")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(d) })
	return d
}

func socketFrame(tb testing.TB, req protocol.Request) []byte {
	var buf bytes.Buffer
	if err := protocol.NewSocketWriter(&buf, 0).Write(req); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

func msgpackArgs(tb testing.TB, v any) []byte {
	b, err := protocol.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// checkServes says hello and asks for the status on a fresh connection:
// the host must still serve another client.
func checkServes(tb testing.TB, path string) {
	tb.Helper()
	c, err := net.DialTimeout("unix", path, 5*time.Second)
	if err != nil {
		tb.Fatalf("host stopped accepting: %v", err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	w := protocol.NewSocketWriter(c, 0)
	r := protocol.NewSocketReader(c, 0)
	for i, req := range []protocol.Request{
		{ID: 1, Op: protocol.OpHello, Args: msgpackArgs(tb, protocol.HelloArgs{Protocol: protocol.Version, Client: "fuzz-check"})},
		{ID: 2, Op: protocol.OpStatus},
	} {
		if err := w.Write(req); err != nil {
			tb.Fatalf("host stopped serving: write %s: %v", req.Op, err)
		}
		var rep protocol.Reply
		if err := r.Read(&rep); err != nil {
			tb.Fatalf("host stopped serving: read %s reply: %v", req.Op, err)
		}
		if rep.ID != uint64(i+1) || rep.Error != nil {
			tb.Fatalf("host stopped serving: %s reply %+v", req.Op, rep)
		}
	}
}

// socketSeeds are agent byte streams: well-formed sessions and the broken
// frames the wire format refuses.
func socketSeeds(tb testing.TB) [][]byte {
	hello := socketFrame(tb, protocol.Request{ID: 1, Op: protocol.OpHello, Args: msgpackArgs(tb, protocol.HelloArgs{Protocol: protocol.Version})})
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	req := func(id uint64, op string, args any) []byte {
		var raw []byte
		if args != nil {
			raw = msgpackArgs(tb, args)
		}
		return socketFrame(tb, protocol.Request{ID: id, Op: op, Args: raw})
	}
	big := []byte{0xff, 0xff, 0xff, 0xff}
	return [][]byte{
		nil,
		hello,
		cat(hello, req(2, protocol.OpStatus, nil), req(3, protocol.OpTabs, nil)),
		cat(hello, req(2, protocol.OpSnapshot, protocol.SnapshotArgs{Mode: protocol.ModeContent, Budget: 50})),
		cat(hello, req(2, protocol.OpSnapshot, protocol.SnapshotArgs{After: "@e1", Budget: -1})),
		cat(hello, req(2, protocol.OpSnapshot, nil), req(3, protocol.OpAct, protocol.ActArgs{Action: protocol.ActClick, Target: "@e1"})),
		cat(hello, req(2, protocol.OpAct, protocol.ActArgs{Action: protocol.ActFill, Target: "#a >>> #b", Text: "x"})),
		cat(hello, req(2, protocol.OpAct, protocol.ActArgs{Action: protocol.ActPress, Text: "Control+A", Trusted: true})),
		cat(hello, req(2, protocol.OpAct, protocol.ActArgs{Action: protocol.ActNavigate, Text: "http://x/"})),
		cat(hello, req(2, protocol.OpWait, protocol.WaitArgs{MS: 1})),
		cat(hello, req(2, protocol.OpWait, protocol.WaitArgs{Gone: "@e9"})),
		cat(hello, req(2, protocol.OpScreenshot, protocol.ScreenshotArgs{})),
		cat(hello, req(2, "no_such_op", nil)),
		cat(hello, req(2, protocol.OpAct, "not a struct")),
		req(1, protocol.OpHello, protocol.HelloArgs{Protocol: protocol.Version + 1}), // wrong protocol version
		req(1, protocol.OpTabs, nil),                     // no hello first
		cat(hello, []byte{0, 0, 0, 3, 0xc1, 0xc1, 0xc1}), // not msgpack
		cat(hello, []byte{0, 0, 0, 2, 0x92, 0x01}),       // an array, not a map
		cat(hello, []byte{0, 0, 0, 0}),                   // empty frame
		cat(hello, big),                                  // oversized
		cat(hello, []byte{0, 0, 0, 9, 0x83}),             // truncated body
		cat(hello, []byte{0, 0}),                         // truncated header
		cat(hello, bytes.Repeat(req(2, protocol.OpStatus, nil), 20)),
		cat(hello, frame(append(append([]byte{0x83, 0xa2, 'i', 'd', 2, 0xa2, 'o', 'p', 0xa6, 's', 't', 'a', 't', 'u', 's', 0xa4, 'a', 'r', 'g', 's'},
			bytes.Repeat([]byte{0x91}, 1000)...), 0xc0))), // args nested past the limit
		cat(hello, frame([]byte{0x83, 0xa2, 'i', 'd', 2, 0xa2, 'o', 'p', 0xa3, 'a', 'c', 't', 0xa4, 'a', 'r', 'g', 's',
			0x81, 0xa4, 't', 'e', 'x', 't', 0xdb, 0x7f, 0xff, 0xff, 0xff})), // a string claiming 2 GiB
	}
}

// frame prefixes body with its big-endian length.
func frame(body []byte) []byte {
	return append(binary.BigEndian.AppendUint32(nil, uint32(len(body))), body...)
}

// FuzzSocketConn feeds arbitrary bytes as one agent connection's frames
// to a running host. The host must never panic, must answer or hang up,
// and must keep serving other clients.
func FuzzSocketConn(f *testing.F) {
	for _, s := range socketSeeds(f) {
		f.Add(s)
	}
	ctx, cancel := context.WithCancel(context.Background())
	dirs := statedir.At(fuzzDir(f))
	fx := startFuzzHost(ctx, dirs, "fuzzsock")
	f.Cleanup(func() {
		cancel()
		fx.closeStdin()
		<-fx.done
	})
	select {
	case <-fx.welcome:
	case err := <-fx.done:
		f.Fatalf("host did not start: %v", err)
	case <-time.After(10 * time.Second):
		f.Fatal("host did not say welcome")
	}
	path := SocketPath(dirs.Runtime, "fuzzsock")
	f.Fuzz(func(t *testing.T, in []byte) {
		c, err := net.Dial("unix", path)
		if err != nil {
			t.Fatalf("dial: %v", err)
		}
		c.SetDeadline(time.Now().Add(500 * time.Millisecond))
		_, _ = c.Write(in) // the host may hang up early: EPIPE is fine
		_ = c.(*net.UnixConn).CloseWrite()
		// Replies are frames; read them until the host hangs up (a slow
		// request may still run: the deadline ends the wait, not the test).
		r := protocol.NewSocketReader(c, 0)
		for {
			var rep protocol.Reply
			if err := r.Read(&rep); err != nil {
				var ne net.Error
				if err != io.EOF && !(errors.As(err, &ne) && ne.Timeout()) && !errors.Is(err, protocol.ErrShortFrame) && !isConnReset(err) {
					t.Fatalf("host wrote something that is not a reply frame: %v", err)
				}
				break
			}
		}
		c.Close()
		select {
		case err := <-fx.done:
			t.Fatalf("host exited: %v", err)
		default:
		}
		checkServes(t, path)
	})
}

// isConnReset reports whether the host hung up on a request it refused
// while we were still reading: a reset or a broken pipe, nothing else.
func isConnReset(err error) bool {
	return errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE)
}

// nativeSeeds are extension byte streams (after the hello): well-formed
// messages of every kind and the broken frames the wire format refuses.
func nativeSeeds() [][]byte {
	frame := func(s string) []byte { return nativeBody([]byte(s)) }
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	hdr := func(n uint32) []byte {
		b := make([]byte, 4)
		binary.NativeEndian.PutUint32(b, n)
		return b
	}
	return [][]byte{
		nil,
		frame(`{"id":1,"result":{"documents":[{"tabId":5,"frameId":0,"documentId":"D0"}]}}`),
		frame(`{"type":"event","params":{"kind":"navigated","tabId":5,"frameId":0,"documentId":"D9"}}`),
		frame(`{"type":"event","params":{"kind":"tab_removed","tabId":5}}`),
		frame(`{"type":"event","params":"nope"}`),
		frame(`{"id":7,"type":"status","params":{}}`),
		frame(`{"id":8,"type":"snapshot","params":{"tab":5,"budget":20}}`),
		frame(`{"id":9,"type":"snapshot","params":{"mode":"bogus"}}`),
		frame(`{"id":10,"type":"snapshot","params":[1,2]}`),
		frame(`{"id":11,"type":"mystery"}`),
		frame(`{"type":"mystery"}`),
		frame(`{"type":"hello","params":{"protocol":1,"profile":"other"}}`),
		frame(`{"id":2,"result":"not an object"}`),
		frame(`{"id":3,"error":{"code":"made_up","message":"x"}}`),
		frame(`not json at all`),
		frame(`[1,2,3]`),
		frame(`null`),
		frame(`{"id":-1,"type":"status"}`),
		frame(`{"id":1e400}`),
		cat(frame(`{"id":7,"type":"status"}`), frame(`{"type":"event","params":{"kind":"navigated","tabId":5}}`)),
		// Replies repeated for a pending call could block the reader
		// forever (the host hung, deaf to Chrome): TestDuplicateReplies.
		bytes.Repeat(frame(`{"id":1,"result":{"documents":[]}}`), 50),
		hdr(0),                               // empty frame
		hdr(protocol.MaxFromExtension + 1),   // oversized
		cat(hdr(100), []byte(`{"type":"ev`)), // truncated body
		{1, 0},                               // truncated header
		cat(hdr(1<<26), bytes.Repeat([]byte{'{'}, 64)), // a lying length
	}
}

// FuzzExtensionFrames feeds arbitrary bytes to host.Run's reader as the
// extension's frames, either once the host is serving (early=false) or
// right after the hello, before the host has opened its ledger and socket
// (early=true). The host must never panic or hang, must write nothing but
// frames on stdout, and must exit cleanly when stdin closes.
func FuzzExtensionFrames(f *testing.F) {
	for _, s := range nativeSeeds() {
		f.Add(false, s)
		f.Add(true, s)
	}
	root := fuzzDir(f)
	f.Fuzz(func(t *testing.T, early bool, in []byte) {
		dir, err := os.MkdirTemp(root, "r")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(dir)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		fx := startFuzzHost(ctx, statedir.At(dir), "fuzzext")
		feed := func() {
			fx.write(in)
			fx.closeStdin()
		}
		if early {
			go feed()
		} else {
			select {
			case <-fx.welcome:
				go feed()
			case err := <-fx.done:
				t.Fatalf("host did not start: %v", err)
			case <-time.After(20 * time.Second):
				t.Fatal("host did not say welcome")
			}
		}
		select {
		case <-fx.done:
			// Any error is fine (a broken frame ends the channel); a
			// panic or a hang is not.
		case <-time.After(20 * time.Second):
			buf := make([]byte, 1<<20)
			t.Fatalf("host did not exit after stdin closed\n%s", buf[:runtime.Stack(buf, true)])
		}
		select {
		case err := <-fx.served:
			if err != nil {
				t.Fatalf("host stdout is not only frames: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("host stdout never closed")
		}
	})
}
